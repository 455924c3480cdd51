// Elementwise float kernels (activations, unary math, binary arithmetic with scalar
// broadcast): the dispatch list, one entry per ISA, and the scalar reference they are tested
// against. Kernels are stateless and thread-safe; they never allocate and never fail.
#pragma once

#include <cstddef>
#include <span>

#include "core/base/cpu_features.h"

namespace tessera::kernels {

// ONNX semantics, plus these choices (shared by the reference):
//   NaN in gives NaN out for every op (Relu, Clip, HardSigmoid and Max/Min included), except
//   where a formula says otherwise; Relu(-0) = +0.
//   Gelu(-inf) = GeluTanh(-inf) = NaN, as the ONNX formulas 0.5x(1 + ...) give.
// Exp, Sigmoid, Tanh and Erf are within 4e-7 relative error (vector_math.h). Gelu is within
// 6.3e-7 relative error for x >= -1; further left 1 + erf cancels, as in onnxruntime, and the
// error is at most 1.9e-7 |x|. GeluTanh is within 1e-6 relative error wherever |y| > 1e-3 |x|.
//   Pow(a, b) is std::pow except a * a for b == 2 and a * a * a for b == 3 (as onnxruntime).
//   Round is round half to even; Floor, Ceil and Round keep the sign of zero (Round(-0.4) = -0).
//   Sign(+-0) = +0 (as numpy).
//   Mish(-inf) = NaN, as the ONNX formula x tanh(softplus(x)) gives (-inf * 0).
//   Sin and Cos are std::sin / std::cos in double, rounded: the reference exactly.
// Log, Softplus, Elu, Selu and Mish are within 1, 2.5, 2, 2.5 and 4 ulps of the exact value
// (ulps of float at the result; 2^-149 below FLT_MIN), checked over all exponents by
// elementwise_accuracy_test.cc.
enum class UnaryOp {
  kCopy,
  kRelu,
  kLeakyRelu,
  kClip,
  kSigmoid,
  kTanh,
  kHardSigmoid,
  kHardSwish,
  kErf,
  kGelu,
  kGeluTanh,
  kSqrt,
  kExp,
  kNeg,
  kAbs,
  kReciprocal,
  kSin,
  kCos,
  kLog,
  kFloor,
  kCeil,
  kRound,
  kSign,
  kSoftplus,
  kElu,
  kSelu,
  kMish
};
// LeakyRelu: alpha. HardSigmoid: alpha, beta. Clip: min = alpha, max = beta. Elu: alpha.
// Selu: alpha, gamma = beta.
struct UnaryParams {
  float alpha = 0;
  float beta = 0;
  bool operator==(const UnaryParams&) const = default;
};
enum class BinaryOp { kAdd, kSub, kMul, kDiv, kPow, kMax, kMin };

// y[i] = op(x[i]) for i < n; x may equal y (no other overlap).
using UnaryFn = void (*)(UnaryOp op, const UnaryParams& p, size_t n, const float* x, float* y);
// y[i] = a[i * a_stride] op b[i * b_stride]; strides are 0 (one broadcast value) or 1;
// y may equal a or b (no other overlap).
using BinaryFn = void (*)(BinaryOp op, size_t n, const float* a, size_t a_stride, const float* b, size_t b_stride,
                          float* y);

// Results depend only on the input value(s) and the entry (ISA), never on n, on the position
// in the array or on how a caller splits the work into calls.
struct ElementwiseKernels {
  const char* name;  // e.g. "f32_elementwise_avx512"
  Isa isa;
  UnaryFn unary;
  BinaryFn binary;
};

// Every compiled entry, best first (entries whose ISA this CPU lacks are included).
std::span<const ElementwiseKernels> elementwise_kernels();
// The first entry whose ISA is supported and not above max_isa (the scalar entry at worst).
const ElementwiseKernels& best_elementwise_kernels(Isa max_isa);

// Plain scalar definitions (double precision where a libm function is involved).
float unary_reference(UnaryOp op, const UnaryParams& p, float x);
float binary_reference(BinaryOp op, float a, float b);

}  // namespace tessera::kernels
