// The elementwise reference: each op as its ONNX formula on one value, in double precision
// where a libm function is involved; the oracle of elementwise_test.cc.
#include <cmath>
#include <numbers>

#include "core/kernels/elementwise/elementwise.h"

namespace tessera::kernels {

namespace {

// Round half to even without the floating-point environment's rounding mode: std::round
// rounds halves away from zero, so a half goes through x / 2 instead (both exact).
// std::round keeps the sign of zero (numpy.round(-0.4) = -0).
float round_half_even(float x) {
  if (std::fabs(x - std::trunc(x)) == 0.5f) return 2.0f * std::round(x / 2.0f);
  return std::round(x);
}

}  // namespace

float unary_reference(UnaryOp op, const UnaryParams& p, float x) {
  const double d = x;
  switch (op) {
    case UnaryOp::kCopy: return x;
    case UnaryOp::kRelu: return (x < 0.0f ? 0.0f : x) + 0.0f;
    case UnaryOp::kLeakyRelu: return x < 0.0f ? p.alpha * x : x;
    case UnaryOp::kClip: {
      const float low = x < p.alpha ? p.alpha : x;
      return p.beta < low ? p.beta : low;
    }
    case UnaryOp::kSigmoid: return static_cast<float>(1.0 / (1.0 + std::exp(-d)));
    case UnaryOp::kTanh: return static_cast<float>(std::tanh(d));
    case UnaryOp::kHardSigmoid: {
      if (std::isnan(x)) return x;
      return static_cast<float>(std::fmax(0.0, std::fmin(1.0, double{p.alpha} * d + p.beta)));
    }
    case UnaryOp::kHardSwish: {
      if (std::isnan(x)) return x;
      return static_cast<float>(d * std::fmax(0.0, std::fmin(1.0, d / 6.0 + 0.5)));
    }
    case UnaryOp::kErf: return static_cast<float>(std::erf(d));
    // 0.5 x (1 + erf(x / sqrt 2)) written with erfc so that double keeps the left tail.
    case UnaryOp::kGelu: return static_cast<float>(0.5 * d * std::erfc(-d / std::numbers::sqrt2));
    // 0.5 x (1 + tanh(u)) = x / (1 + e^(-2u)), the form that keeps the left tail.
    case UnaryOp::kGeluTanh: {
      const double u = std::sqrt(2.0 / std::numbers::pi) * (d + 0.044715 * d * d * d);
      return static_cast<float>(d / (1.0 + std::exp(-2.0 * u)));
    }
    case UnaryOp::kSqrt: return std::sqrt(x);
    case UnaryOp::kExp: return static_cast<float>(std::exp(d));
    case UnaryOp::kNeg: return -x;
    case UnaryOp::kAbs: return std::fabs(x);
    case UnaryOp::kReciprocal: return 1.0f / x;
    case UnaryOp::kSin: return static_cast<float>(std::sin(d));
    case UnaryOp::kCos: return static_cast<float>(std::cos(d));
    case UnaryOp::kLog: return static_cast<float>(std::log(d));
    case UnaryOp::kFloor: return std::floor(x);
    case UnaryOp::kCeil: return std::ceil(x);
    case UnaryOp::kRound: return round_half_even(x);
    case UnaryOp::kSign: return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x + 0.0f;
    // log(1 + e^x), written so that neither e^x overflows nor 1 + e^x absorbs e^x.
    case UnaryOp::kSoftplus: return static_cast<float>(std::fmax(d, 0.0) + std::log1p(std::exp(-std::fabs(d))));
    case UnaryOp::kElu: return x >= 0.0f ? x : static_cast<float>(p.alpha * std::expm1(d));
    case UnaryOp::kSelu:
      return static_cast<float>(x > 0.0f ? double{p.beta} * d : double{p.beta} * p.alpha * std::expm1(d));
    case UnaryOp::kMish: {
      const double softplus = std::fmax(d, 0.0) + std::log1p(std::exp(-std::fabs(d)));
      return static_cast<float>(d * std::tanh(softplus));
    }
  }
  return x;
}

float binary_reference(BinaryOp op, float a, float b) {
  switch (op) {
    case BinaryOp::kAdd: return a + b;
    case BinaryOp::kSub: return a - b;
    case BinaryOp::kMul: return a * b;
    case BinaryOp::kDiv: return a / b;
    case BinaryOp::kPow:
      if (b == 2.0f) return a * a;
      if (b == 3.0f) return a * a * a;
      return std::pow(a, b);
    // NaN in either operand gives NaN; on ties (-0, +0) the first operand.
    case BinaryOp::kMax:
      if (std::isnan(b)) return b;
      return a < b ? b : a;
    case BinaryOp::kMin:
      if (std::isnan(b)) return b;
      return b < a ? b : a;
  }
  return a;
}

}  // namespace tessera::kernels
