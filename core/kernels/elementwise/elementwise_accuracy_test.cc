// The transcendental elementwise kernels against double precision over every float bit pattern
// at a stride (all exponents, both signs, +-0, +-inf, NaN): relative error for the activations
// of vector_math.h, error in ulps for the ops whose documented bound is in ulps (elementwise.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <numbers>
#include <vector>

#include "core/kernels/elementwise/elementwise.h"
#include "core/kernels/elementwise/elementwise_test_support.h"

namespace tessera::kernels {
namespace {

// Every stride-th float bit pattern, in chunks: fn(chunk) for each.
void sweep_floats(uint32_t stride, const std::function<void(const std::vector<float>&)>& fn) {
  constexpr size_t kChunk = 1 << 16;
  std::vector<float> x;
  x.reserve(kChunk);
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32);) {
    x.clear();
    for (; x.size() < kChunk && bits < (uint64_t{1} << 32); bits += stride) {
      x.push_back(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    }
    fn(x);
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
  auto relative = [](double got, double want) {
    return std::fabs(got - want) / std::max(std::fabs(want), double{kFltMin});
  };
  sweep_floats(stride, [&](const std::vector<float>& x) {
    std::vector<float> y(x.size());
    auto run = [&](UnaryOp op, const std::function<void(float, float)>& account) {
      k.unary(op, {}, x.size(), x.data(), y.data());
      for (size_t i = 0; i < x.size(); ++i) account(x[i], y[i]);
    };
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
  });
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

// The ops whose error elementwise.h states in ulps, each with its exact value in double and
// the bound (ulps of the float nearest the exact value; 2^-149 below FLT_MIN).
struct UlpCase {
  UnaryOp op;
  const char* name;
  UnaryParams params;
  double (*exact)(double x, const UnaryParams& p);
  double max_ulps;
};

double softplus_exact(double x, const UnaryParams&) { return std::fmax(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); }

const UlpCase kUlpCases[] = {
    {UnaryOp::kLog, "log", {}, [](double x, const UnaryParams&) { return std::log(x); }, 1},
    {UnaryOp::kSoftplus, "softplus", {}, softplus_exact, 2.5},
    {UnaryOp::kElu,
     "elu",
     {1.3f, 0},
     [](double x, const UnaryParams& p) { return x >= 0 ? x : p.alpha * std::expm1(x); },
     2},
    {UnaryOp::kSelu,
     "selu",
     {1.67326319217681884765625f, 1.05070102214813232421875f},
     [](double x, const UnaryParams& p) { return p.beta * (x > 0 ? x : p.alpha * std::expm1(x)); },
     2.5},
    {UnaryOp::kMish, "mish", {}, [](double x, const UnaryParams& p) { return x * std::tanh(softplus_exact(x, p)); }, 4},
};

double ulps(float got, double want) {
  const double a = std::fabs(want);
  int e = 0;
  std::frexp(a, &e);  // a = f 2^e, f in [0.5, 1): a float ulp there is 2^(e - 24)
  const double ulp = a < kFltMin ? 0x1p-149 : std::ldexp(1.0, e - 24);
  return std::fabs(got - want) / ulp;
}

// Maximum ulp error per kernel (rows) and case (columns); negative when NaN, an infinity or
// an overflow differs from the exact value's.
std::vector<std::vector<double>> measure_ulps(const std::vector<const ElementwiseKernels*>& kernels, uint32_t stride) {
  std::vector<std::vector<double>> worst(kernels.size(), std::vector<double>(std::size(kUlpCases), 0.0));
  sweep_floats(stride, [&](const std::vector<float>& x) {
    std::vector<float> y(x.size());
    std::vector<double> want(x.size());
    for (size_t c = 0; c < std::size(kUlpCases); ++c) {
      const UlpCase& u = kUlpCases[c];
      for (size_t i = 0; i < x.size(); ++i) want[i] = u.exact(x[i], u.params);
      for (size_t k = 0; k < kernels.size(); ++k) {
        kernels[k]->unary(u.op, u.params, x.size(), x.data(), y.data());
        for (size_t i = 0; i < x.size(); ++i) {
          const float rounded = static_cast<float>(want[i]);
          double error = 0;
          if (std::isnan(want[i]) || std::isnan(y[i]) || std::isinf(rounded) || std::isinf(y[i])) {
            error = std::isnan(want[i]) == std::isnan(y[i]) && (std::isnan(y[i]) || y[i] == rounded) ? 0 : -1e9;
          } else {
            error = ulps(y[i], want[i]);
          }
          worst[k][c] = worst[k][c] < 0 ? worst[k][c] : error < 0 ? error : std::max(worst[k][c], error);
        }
      }
    }
  });
  return worst;
}

TEST_CASE("log, softplus, elu, selu and mish stay within their documented ulps over all exponents") {
  const std::vector<const ElementwiseKernels*> kernels = supported_kernels();
  const auto worst = measure_ulps(kernels, 1031);
  for (size_t k = 0; k < kernels.size(); ++k) {
    for (size_t c = 0; c < std::size(kUlpCases); ++c) {
      INFO(kernels[k]->name << " " << kUlpCases[c].name << ": " << worst[k][c] << " ulps");
      CHECK(worst[k][c] >= 0);
      CHECK(worst[k][c] <= kUlpCases[c].max_ulps);
    }
  }
}

// Run explicitly (elementwise_test "[accuracy]") to print the tables quoted in vector_math.h
// and elementwise.h.
TEST_CASE("elementwise accuracy table", "[.accuracy]") {
  const std::vector<const ElementwiseKernels*> kernels = supported_kernels();
  for (const ElementwiseKernels* k : kernels) {
    const AccuracyReport r = measure_accuracy(*k, 7);
    std::printf(
        "%-24s exp %.2g sigmoid %.2g tanh %.2g erf %.2g gelu(x>=-1) %.2g gelu(x<-1, vs |x|) %.2g "
        "gelu_tanh %.2g nan/overflow %s\n",
        k->name, r.exp, r.sigmoid, r.tanh, r.erf, r.gelu, r.gelu_left_vs_x, r.gelu_tanh,
        r.nan_and_overflow_ok ? "ok" : "WRONG");
  }
  const auto worst = measure_ulps(kernels, 7);
  for (size_t k = 0; k < kernels.size(); ++k) {
    std::printf("%-24s", kernels[k]->name);
    for (size_t c = 0; c < std::size(kUlpCases); ++c) std::printf(" %s %.2f ulp", kUlpCases[c].name, worst[k][c]);
    std::printf("\n");
  }
}

}  // namespace
}  // namespace tessera::kernels
