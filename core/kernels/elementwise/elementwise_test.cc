// Every elementwise kernel entry against the reference: exact ops bit for bit, transcendental
// ones within their documented error, NaN, infinities, signed zeros and halfway values, in-place
// calls, and bitwise independence from how work is split into calls. The dense sweeps over all
// float exponents are in elementwise_accuracy_test.cc.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernels/elementwise/elementwise.h"
#include "core/kernels/elementwise/elementwise_test_support.h"

namespace tessera::kernels {
namespace {

constexpr uint32_t kSeed = 0x7e55e7a;
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

bool same_value(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}

// Sizes up to 3x the widest vector plus one, and larger ones, so every tail length is hit.
std::vector<size_t> test_sizes() {
  std::vector<size_t> sizes;
  for (size_t n = 1; n <= 49; ++n) sizes.push_back(n);
  for (size_t n : {64, 100, 255, 1000, 4099}) sizes.push_back(n);
  return sizes;
}

constexpr float kMax = std::numeric_limits<float>::max();
constexpr float kDenormMin = std::numeric_limits<float>::denorm_min();
// From -0.5f on: halfway and near-halfway values for Round, the integer threshold 2^23, the
// limits of the clamps in vec_expm1 and vec_mish, and tiny arguments of expm1.
const float kSpecials[] = {0.0f,    -0.0f,  kInf,        -kInf,        kNan,       -kNan,       1.0f,       -1.0f,
                           kMax,    -kMax,  kDenormMin,  -kDenormMin,  kFltMin,    -kFltMin,    1e-30f,     -1e-30f,
                           88.72f,  88.73f, -87.33f,     -87.34f,      89.0f,      -103.9f,     -104.0f,    -105.0f,
                           3.92f,   -3.92f, 4.0f,        9.01f,        -9.02f,     10.0f,       -10.0f,     100.0f,
                           -100.0f, 1e20f,  -1e20f,      0.5f,         -3.0f,      6.0f,        -0.5f,      1.5f,
                           2.5f,    -2.5f,  0.49999997f, -0.49999997f, 8388607.5f, -4194304.5f, 8388608.0f, -8388609.0f,
                           -30.0f,  -30.5f, 20.0f,       20.5f,        -120.0f,    -121.0f,     -110.0f,    9.0f,
                           1e-7f,   -1e-7f};

// Mostly moderate values, some large ones, halves (Round's ties), specials and arbitrary bit
// patterns (NaN payloads, infinities, subnormals, both signs: half the Log inputs are valid).
float random_input(std::mt19937& rng) {
  switch (rng() % 9) {
    case 0: return kSpecials[rng() % std::size(kSpecials)];
    case 1: return std::uniform_real_distribution<float>(-120.0f, 120.0f)(rng);
    case 2: return std::bit_cast<float>(static_cast<uint32_t>(rng()));
    case 3: return static_cast<float>(static_cast<int>(rng() % 41) - 20) + 0.5f;
    default: return std::uniform_real_distribution<float>(-8.0f, 8.0f)(rng);
  }
}

std::vector<float> random_inputs(std::mt19937& rng, size_t n) {
  std::vector<float> x(n);
  for (float& v : x) v = random_input(rng);
  return x;
}

// An approximate op passes when |kernel - reference| <= tolerance * max(|reference|, floor(x)).
// The floors: FLT_MIN lets subnormal results be off by a few subnormal steps; |x| covers
// formulas whose float evaluation is only absolutely accurate near a cancellation (the
// clamps of HardSigmoid/HardSwish, the left tail of Gelu's 1 + erf, as in onnxruntime).
struct UnaryCase {
  UnaryOp op;
  const char* name;
  UnaryParams params;
  double tolerance;  // 0: bit-exact
  bool floor_is_abs_x;
};

const UnaryCase kUnaryCases[] = {
    {UnaryOp::kCopy, "Copy", {}, 0, false},
    {UnaryOp::kRelu, "Relu", {}, 0, false},
    {UnaryOp::kLeakyRelu, "LeakyRelu", {0.1f, 0}, 0, false},
    {UnaryOp::kClip, "Clip", {-0.5f, 2.0f}, 0, false},
    {UnaryOp::kSigmoid, "Sigmoid", {}, 3e-7, false},
    {UnaryOp::kTanh, "Tanh", {}, 5e-7, false},
    {UnaryOp::kHardSigmoid, "HardSigmoid", {0.2f, 0.5f}, 3e-7, true},
    {UnaryOp::kHardSwish, "HardSwish", {}, 3e-7, true},
    {UnaryOp::kErf, "Erf", {}, 5e-7, false},
    {UnaryOp::kGelu, "Gelu", {}, 8e-7, true},
    {UnaryOp::kGeluTanh, "GeluTanh", {}, 1.5e-6, true},
    {UnaryOp::kSqrt, "Sqrt", {}, 0, false},
    {UnaryOp::kExp, "Exp", {}, 2.5e-7, false},
    {UnaryOp::kNeg, "Neg", {}, 0, false},
    {UnaryOp::kAbs, "Abs", {}, 0, false},
    {UnaryOp::kReciprocal, "Reciprocal", {}, 0, false},
    {UnaryOp::kSin, "Sin", {}, 0, false},
    {UnaryOp::kCos, "Cos", {}, 0, false},
    {UnaryOp::kLog, "Log", {}, 1.2e-7, false},
    {UnaryOp::kFloor, "Floor", {}, 0, false},
    {UnaryOp::kCeil, "Ceil", {}, 0, false},
    {UnaryOp::kRound, "Round", {}, 0, false},
    {UnaryOp::kSign, "Sign", {}, 0, false},
    {UnaryOp::kSoftplus, "Softplus", {}, 3e-7, false},
    {UnaryOp::kElu, "Elu", {1.3f, 0}, 2.4e-7, false},
    {UnaryOp::kSelu, "Selu", {1.67326319f, 1.05070102f}, 3e-7, false},
    {UnaryOp::kMish, "Mish", {}, 5e-7, false},
};

bool unary_matches(const UnaryCase& c, float x, float got) {
  const float want = unary_reference(c.op, c.params, x);
  if (same_value(got, want)) return true;
  if (c.tolerance == 0 || std::isnan(want) || std::isnan(got) || std::isinf(want) || std::isinf(got)) return false;
  const double floor = std::max(double{kFltMin}, c.floor_is_abs_x ? std::fabs(double{x}) : 0.0);
  return std::fabs(double{got} - want) <= c.tolerance * std::max(std::fabs(double{want}), floor);
}

std::string describe(const char* kernel, const char* op, size_t n, size_t i, float x, float got, float want) {
  std::ostringstream s;
  s.precision(9);
  s << kernel << " " << op << " n=" << n << " i=" << i << " x=" << x << " got=" << got << " want=" << want
    << " seed=" << kSeed;
  return s.str();
}

TEST_CASE("every elementwise unary kernel matches the reference for all tail lengths") {
  for (const ElementwiseKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    for (const UnaryCase& c : kUnaryCases) {
      std::string failure;
      for (size_t n : test_sizes()) {
        // Offset by one float so that no call sees an aligned array.
        std::vector<float> x = random_inputs(rng, n + 1);
        std::vector<float> y(n + 1, 12345.0f);
        k->unary(c.op, c.params, n, x.data() + 1, y.data() + 1);
        for (size_t i = 0; i < n && failure.empty(); ++i) {
          if (!unary_matches(c, x[i + 1], y[i + 1])) {
            failure = describe(k->name, c.name, n, i, x[i + 1], y[i + 1], unary_reference(c.op, c.params, x[i + 1]));
          }
        }
        if (y[0] != 12345.0f) failure = describe(k->name, c.name, n, 0, 0, y[0], 12345.0f) + " wrote before y";
      }
      INFO(failure);
      CHECK(failure.empty());
    }
  }
}

TEST_CASE("elementwise unary special values: NaN propagates, saturation is exact, signed zeros kept") {
  for (const ElementwiseKernels* k : supported_kernels()) {
    for (const UnaryCase& c : kUnaryCases) {
      std::vector<float> x(std::begin(kSpecials), std::end(kSpecials));
      std::vector<float> y(x.size());
      k->unary(c.op, c.params, x.size(), x.data(), y.data());
      for (size_t i = 0; i < x.size(); ++i) {
        INFO(describe(k->name, c.name, x.size(), i, x[i], y[i], unary_reference(c.op, c.params, x[i])));
        CHECK(unary_matches(c, x[i], y[i]));
      }
    }
    // Deep in saturation the results are exact; -0 keeps its sign through the odd functions.
    INFO(k->name);
    const float x[6] = {kNan, -0.0f, kInf, -kInf, 200.0f, -200.0f};
    auto run = [&](UnaryOp op) {
      std::vector<float> y(6);
      k->unary(op, {}, 6, x, y.data());
      return y;
    };
    const std::vector<float> exp = run(UnaryOp::kExp);
    CHECK(
        (std::isnan(exp[0]) && exp[1] == 1.0f && exp[2] == kInf && exp[3] == 0.0f && exp[4] == kInf && exp[5] == 0.0f));
    const std::vector<float> sigmoid = run(UnaryOp::kSigmoid);
    CHECK((std::isnan(sigmoid[0]) && sigmoid[1] == 0.5f && sigmoid[2] == 1.0f && sigmoid[3] == 0.0f &&
           sigmoid[4] == 1.0f && sigmoid[5] == 0.0f));
    for (UnaryOp op : {UnaryOp::kTanh, UnaryOp::kErf}) {
      const std::vector<float> y = run(op);
      CHECK((std::isnan(y[0]) && y[1] == 0.0f && std::signbit(y[1]) && y[2] == 1.0f && y[3] == -1.0f && y[4] == 1.0f &&
             y[5] == -1.0f));
    }
    const std::vector<float> relu = run(UnaryOp::kRelu);
    CHECK((std::isnan(relu[0]) && relu[1] == 0.0f && !std::signbit(relu[1]) && relu[2] == kInf && relu[3] == 0.0f));
  }
}

// Values worked out by hand (or from the closed forms), not by the reference.
TEST_CASE("rounding, sign, log and the exponential activations give known values on every kernel") {
  struct Known {
    UnaryOp op;
    UnaryParams params;
    float x;
    float want;  // NaN: any NaN; otherwise equal, and the same sign of zero
    double tolerance = 0;
  };
  const UnaryParams selu{1.67326319217681884765625f, 1.05070102214813232421875f};
  const Known known[] = {
      {UnaryOp::kRound, {}, 0.5f, 0.0f},
      {UnaryOp::kRound, {}, 1.5f, 2.0f},
      {UnaryOp::kRound, {}, 2.5f, 2.0f},
      {UnaryOp::kRound, {}, -2.5f, -2.0f},
      {UnaryOp::kRound, {}, -0.5f, -0.0f},
      {UnaryOp::kRound, {}, -0.4f, -0.0f},
      {UnaryOp::kRound, {}, 0.49999997f, 0.0f},
      {UnaryOp::kRound, {}, 8388607.5f, 8388608.0f},
      {UnaryOp::kRound, {}, -4194304.5f, -4194304.0f},
      {UnaryOp::kRound, {}, -2.7f, -3.0f},
      {UnaryOp::kFloor, {}, -0.5f, -1.0f},
      {UnaryOp::kFloor, {}, -0.0f, -0.0f},
      {UnaryOp::kFloor, {}, 2.5f, 2.0f},
      {UnaryOp::kCeil, {}, -0.5f, -0.0f},
      {UnaryOp::kCeil, {}, 2.1f, 3.0f},
      {UnaryOp::kCeil, {}, -kInf, -kInf},
      {UnaryOp::kSign, {}, -3.0f, -1.0f},
      {UnaryOp::kSign, {}, -0.0f, 0.0f},
      {UnaryOp::kSign, {}, 1e-40f, 1.0f},
      {UnaryOp::kSign, {}, -kInf, -1.0f},
      {UnaryOp::kSign, {}, kNan, kNan},
      {UnaryOp::kLog, {}, 1.0f, 0.0f},
      {UnaryOp::kLog, {}, 0.0f, -kInf},
      {UnaryOp::kLog, {}, -0.0f, -kInf},
      {UnaryOp::kLog, {}, -1.0f, kNan},
      {UnaryOp::kLog, {}, kInf, kInf},
      {UnaryOp::kLog, {}, kDenormMin, -103.278929f, 1e-7},
      {UnaryOp::kLog, {}, 2.0f, 0.693147181f, 1e-7},
      {UnaryOp::kSoftplus, {}, 0.0f, 0.693147181f, 1e-7},
      {UnaryOp::kSoftplus, {}, -kInf, 0.0f},
      {UnaryOp::kSoftplus, {}, kInf, kInf},
      {UnaryOp::kSoftplus, {}, 100.0f, 100.0f},
      {UnaryOp::kSoftplus, {}, -100.0f, 3.72007598e-44f, 0.05},  // e^-100, a subnormal
      {UnaryOp::kElu, {1.0f, 0}, -kInf, -1.0f},
      {UnaryOp::kElu, {1.0f, 0}, -0.0f, -0.0f},
      {UnaryOp::kElu, {2.0f, 0}, 3.0f, 3.0f},
      {UnaryOp::kElu, {1.0f, 0}, -1.0f, -0.632120559f, 1e-7},
      {UnaryOp::kElu, {1.0f, 0}, -1e-7f, -9.99999950e-8f, 1e-7},
      {UnaryOp::kSelu, selu, 1.0f, 1.05070102f},
      {UnaryOp::kSelu, selu, -kInf, -1.75809935f, 1e-7},
      {UnaryOp::kSelu, selu, 0.0f, 0.0f},
      {UnaryOp::kMish, {}, 0.0f, 0.0f},
      {UnaryOp::kMish, {}, 1.0f, 0.865098388f, 2e-7},
      {UnaryOp::kMish, {}, -1.0f, -0.303401461f, 2e-7},
      {UnaryOp::kMish, {}, -kInf, kNan},
      {UnaryOp::kMish, {}, kInf, kInf},
      {UnaryOp::kMish, {}, 30.0f, 30.0f},
      {UnaryOp::kMish, {}, -200.0f, -0.0f},
      {UnaryOp::kCos, {}, 0.0f, 1.0f},
      {UnaryOp::kSin, {}, -0.0f, -0.0f},
  };
  for (const ElementwiseKernels* k : supported_kernels()) {
    for (const Known& c : known) {
      float y = 0;
      k->unary(c.op, c.params, 1, &c.x, &y);
      INFO(k->name << " op " << static_cast<int>(c.op) << " x=" << c.x << " got " << y << " want " << c.want);
      if (std::isnan(c.want)) {
        CHECK(std::isnan(y));
      } else if (c.tolerance == 0) {
        CHECK((y == c.want && std::signbit(y) == std::signbit(c.want)));
      } else {
        CHECK(std::fabs(double{y} - c.want) <= c.tolerance * std::fabs(double{c.want}));
      }
    }
  }
}

TEST_CASE("elementwise unary results do not depend on how the array is split into calls") {
  constexpr size_t n = 777;
  for (const ElementwiseKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    const std::vector<float> x = random_inputs(rng, n);
    for (const UnaryCase& c : kUnaryCases) {
      INFO(k->name << " " << c.name << " seed=" << kSeed);
      std::vector<float> whole(n), pieces(n);
      k->unary(c.op, c.params, n, x.data(), whole.data());
      for (size_t begin = 0; begin < n;) {
        const size_t count = std::min<size_t>(n - begin, 1 + rng() % 40);
        k->unary(c.op, c.params, count, x.data() + begin, pieces.data() + begin);
        begin += count;
      }
      CHECK(std::memcmp(whole.data(), pieces.data(), n * sizeof(float)) == 0);
      std::vector<float> in_place = x;
      k->unary(c.op, c.params, n, in_place.data(), in_place.data());
      CHECK(std::memcmp(whole.data(), in_place.data(), n * sizeof(float)) == 0);
    }
  }
}

struct BinaryCase {
  BinaryOp op;
  const char* name;
};

const BinaryCase kBinaryCases[] = {{BinaryOp::kAdd, "Add"}, {BinaryOp::kSub, "Sub"}, {BinaryOp::kMul, "Mul"},
                                   {BinaryOp::kDiv, "Div"}, {BinaryOp::kPow, "Pow"}, {BinaryOp::kMax, "Max"},
                                   {BinaryOp::kMin, "Min"}};

// Pow gets exponents that exercise its special cases and integral exponents of negative bases.
std::vector<float> random_operand(std::mt19937& rng, BinaryOp op, bool exponent, size_t n) {
  std::vector<float> v = random_inputs(rng, n);
  if (op == BinaryOp::kPow && exponent) {
    const float choices[] = {2.0f, 3.0f, 0.5f, -1.0f, 0.0f, 1.5f, -2.0f, 4.0f};
    for (float& e : v) {
      if (rng() % 2) e = choices[rng() % std::size(choices)];
    }
  }
  return v;
}

TEST_CASE("every elementwise binary kernel matches the reference bit for bit, with broadcasts and aliasing") {
  for (const ElementwiseKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    for (const BinaryCase& c : kBinaryCases) {
      for (size_t a_stride : {0, 1}) {
        for (size_t b_stride : {0, 1}) {
          std::string failure;
          for (size_t n : test_sizes()) {
            std::vector<float> a = random_operand(rng, c.op, false, n);
            std::vector<float> b = random_operand(rng, c.op, true, n);
            if (c.op == BinaryOp::kPow && b_stride == 0 && rng() % 2) b[0] = rng() % 2 ? 2.0f : 3.0f;
            std::vector<float> y(n);
            k->binary(c.op, n, a.data(), a_stride, b.data(), b_stride, y.data());
            for (size_t i = 0; i < n && failure.empty(); ++i) {
              const float want = binary_reference(c.op, a[i * a_stride], b[i * b_stride]);
              if (!same_value(y[i], want)) {
                failure = describe(k->name, c.name, n, i, a[i * a_stride], y[i], want) +
                          " b=" + std::to_string(b[i * b_stride]) + " strides " + std::to_string(a_stride) +
                          std::to_string(b_stride);
              }
            }
            if (a_stride == 1) {
              std::vector<float> in_a = a;
              k->binary(c.op, n, in_a.data(), 1, b.data(), b_stride, in_a.data());
              if (std::memcmp(in_a.data(), y.data(), n * sizeof(float)) != 0) failure += " y == a differs";
            }
            if (b_stride == 1) {
              std::vector<float> in_b = b;
              k->binary(c.op, n, a.data(), a_stride, in_b.data(), 1, in_b.data());
              if (std::memcmp(in_b.data(), y.data(), n * sizeof(float)) != 0) failure += " y == b differs";
            }
          }
          INFO(failure);
          CHECK(failure.empty());
        }
      }
    }
  }
}

TEST_CASE("elementwise binary results do not depend on how the array is split into calls") {
  constexpr size_t n = 555;
  for (const ElementwiseKernels* k : supported_kernels()) {
    std::mt19937 rng(kSeed);
    for (const BinaryCase& c : kBinaryCases) {
      const std::vector<float> a = random_operand(rng, c.op, false, n);
      const std::vector<float> b = random_operand(rng, c.op, true, n);
      for (size_t b_stride : {0, 1}) {
        INFO(k->name << " " << c.name << " b_stride=" << b_stride << " seed=" << kSeed);
        std::vector<float> whole(n), pieces(n);
        k->binary(c.op, n, a.data(), 1, b.data(), b_stride, whole.data());
        for (size_t begin = 0; begin < n;) {
          const size_t count = std::min<size_t>(n - begin, 1 + rng() % 40);
          k->binary(c.op, count, a.data() + begin, 1, b.data() + begin * b_stride, b_stride, pieces.data() + begin);
          begin += count;
        }
        CHECK(std::memcmp(whole.data(), pieces.data(), n * sizeof(float)) == 0);
      }
    }
  }
}

}  // namespace
}  // namespace tessera::kernels
