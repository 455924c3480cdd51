// Every elementwise kernel entry against the reference: exact ops bit for bit, transcendental
// ones within their documented error (dense sweep over all float exponents), NaN, infinities
// and signed zeros, in-place calls, and bitwise independence from how work is split into calls.
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

namespace tessera::kernels {
namespace {

constexpr uint32_t kSeed = 0x7e55e7a;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kFltMin = std::numeric_limits<float>::min();

std::vector<const ElementwiseKernels*> supported_kernels() {
  std::vector<const ElementwiseKernels*> kernels;
  for (const ElementwiseKernels& k : elementwise_kernels()) {
    if (isa_supported(k.isa)) kernels.push_back(&k);
  }
  return kernels;
}

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
const float kSpecials[] = {0.0f,    -0.0f,  kInf,       -kInf,       kNan,    -kNan,    1.0f,    -1.0f,
                           kMax,    -kMax,  kDenormMin, -kDenormMin, kFltMin, -kFltMin, 1e-30f,  -1e-30f,
                           88.72f,  88.73f, -87.33f,    -87.34f,     89.0f,   -103.9f,  -104.0f, -105.0f,
                           3.92f,   -3.92f, 4.0f,       9.01f,       -9.02f,  10.0f,    -10.0f,  100.0f,
                           -100.0f, 1e20f,  -1e20f,     0.5f,        -3.0f,   6.0f};

// Mostly moderate values, some large ones, specials and arbitrary bit patterns (NaN payloads,
// infinities, subnormals) mixed in.
float random_input(std::mt19937& rng) {
  switch (rng() % 8) {
    case 0: return kSpecials[rng() % std::size(kSpecials)];
    case 1: return std::uniform_real_distribution<float>(-120.0f, 120.0f)(rng);
    case 2: return std::bit_cast<float>(static_cast<uint32_t>(rng()));
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

// Maximum error of the transcendental kernels against double precision over every float bit
// pattern at the given stride. Relative error, with FLT_MIN as the floor of the denominator
// (subnormal results are compared absolutely); Gelu's is split at x = -1, left of which its
// error is measured against |x|.
struct AccuracyReport {
  double exp = 0, sigmoid = 0, tanh = 0, erf = 0, gelu = 0, gelu_left_vs_x = 0, gelu_tanh = 0;
  bool nan_and_overflow_ok = true;
};

AccuracyReport measure_accuracy(const ElementwiseKernels& k, uint32_t stride) {
  AccuracyReport report;
  constexpr size_t kChunk = 1 << 16;
  std::vector<float> x, y(kChunk);
  x.reserve(kChunk);
  auto relative = [](double got, double want) {
    return std::fabs(got - want) / std::max(std::fabs(want), double{kFltMin});
  };
  auto run = [&](UnaryOp op, const std::function<void(float, float)>& account) {
    k.unary(op, {}, x.size(), x.data(), y.data());
    for (size_t i = 0; i < x.size(); ++i) account(x[i], y[i]);
  };
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32);) {
    x.clear();
    for (; x.size() < kChunk && bits < (uint64_t{1} << 32); bits += stride) {
      x.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    }
    auto check_nan = [&](float in, float got) {
      if (std::isnan(in) != std::isnan(got)) report.nan_and_overflow_ok = false;
      return !std::isnan(in);
    };
    run(UnaryOp::kExp, [&](float in, float got) {
      if (!check_nan(in, got)) return;
      const double want = std::exp(double{in});
      if (static_cast<float>(want) == kInf || got == kInf) {
        // Near the overflow threshold one rounding may tip either way.
        if (std::min(double{got}, want) < 0.9999997 * std::numeric_limits<float>::max()) {
          report.nan_and_overflow_ok = false;
        }
        return;
      }
      report.exp = std::max(report.exp, relative(got, want));
    });
    run(UnaryOp::kSigmoid, [&](float in, float got) {
      if (check_nan(in, got))
        report.sigmoid = std::max(report.sigmoid, relative(got, 1.0 / (1.0 + std::exp(-double{in}))));
    });
    run(UnaryOp::kTanh, [&](float in, float got) {
      if (check_nan(in, got)) report.tanh = std::max(report.tanh, relative(got, std::tanh(double{in})));
    });
    run(UnaryOp::kErf, [&](float in, float got) {
      if (check_nan(in, got)) report.erf = std::max(report.erf, relative(got, std::erf(double{in})));
    });
    // Gelu(-inf) is NaN (-inf * 0 in the ONNX formula).
    auto check_gelu_nan = [&](float in, float got) {
      if (in == -kInf) {
        if (!std::isnan(got)) report.nan_and_overflow_ok = false;
        return false;
      }
      return check_nan(in, got) && !std::isinf(in);
    };
    run(UnaryOp::kGelu, [&](float in, float got) {
      if (!check_gelu_nan(in, got)) return;
      const double d = in;
      const double want = 0.5 * d * std::erfc(-d / std::numbers::sqrt2);
      if (d >= -1.0) {
        report.gelu = std::max(report.gelu, relative(got, want));
      } else {
        report.gelu_left_vs_x = std::max(report.gelu_left_vs_x, std::fabs(got - want) / std::fabs(d));
      }
    });
    run(UnaryOp::kGeluTanh, [&](float in, float got) {
      if (!check_gelu_nan(in, got)) return;
      const double d = in;
      const double u = std::sqrt(2.0 / std::numbers::pi) * (d + 0.044715 * d * d * d);
      const double want = d / (1.0 + std::exp(-2.0 * u));
      // Relative where the result is above 1e-3 |x|; below, the rounding of 2u dominates.
      const double floor = std::max({std::fabs(want), 1e-3 * std::fabs(d), double{kFltMin}});
      report.gelu_tanh = std::max(report.gelu_tanh, std::fabs(got - want) / floor);
    });
  }
  return report;
}

TEST_CASE("transcendental elementwise kernels stay within their documented error over all exponents") {
  for (const ElementwiseKernels* k : supported_kernels()) {
    INFO(k->name);
    const AccuracyReport r = measure_accuracy(*k, 257);
    CHECK(r.nan_and_overflow_ok);
    CHECK(r.exp < 1.5e-7);
    CHECK(r.sigmoid < 2.5e-7);
    CHECK(r.tanh < 4.5e-7);
    CHECK(r.erf < 4.5e-7);
    CHECK(r.gelu < 8e-7);
    CHECK(r.gelu_left_vs_x < 2.5e-7);
    CHECK(r.gelu_tanh < 1.5e-6);
  }
}

// Run explicitly (elementwise_test "[accuracy]") to print the table quoted in vector_math.h.
TEST_CASE("elementwise accuracy table", "[.accuracy]") {
  for (const ElementwiseKernels* k : supported_kernels()) {
    const AccuracyReport r = measure_accuracy(*k, 7);
    std::printf(
        "%-24s exp %.2g sigmoid %.2g tanh %.2g erf %.2g gelu(x>=-1) %.2g gelu(x<-1, vs |x|) %.2g "
        "gelu_tanh %.2g nan/overflow %s\n",
        k->name, r.exp, r.sigmoid, r.tanh, r.erf, r.gelu, r.gelu_left_vs_x, r.gelu_tanh,
        r.nan_and_overflow_ok ? "ok" : "WRONG");
  }
}

}  // namespace
}  // namespace tessera::kernels
