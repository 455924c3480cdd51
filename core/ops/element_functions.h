// Per-element semantics of the typed elementwise ops (ONNX), and the dtype -> C++ type
// dispatch they are instantiated through. Shared by the reference and the tile kernels, so
// the two can only differ in how they walk tensors, never in what one element computes.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "core/base/check.h"
#include "core/kernels/elementwise/elementwise.h"
#include "tessera/tensor.h"

namespace tessera::ops {

// The C++ type holding one element of dtype D (bool and uint8 are both one byte).
template <DType D>
struct ElementOf;
template <>
struct ElementOf<DType::kFloat32> {
  using type = float;
};
template <>
struct ElementOf<DType::kInt64> {
  using type = int64_t;
};
template <>
struct ElementOf<DType::kInt32> {
  using type = int32_t;
};
template <>
struct ElementOf<DType::kBool> {
  using type = uint8_t;
};
template <>
struct ElementOf<DType::kUInt8> {
  using type = uint8_t;
};
template <DType D>
using element_t = typename ElementOf<D>::type;

template <DType D>
using DTypeTag = std::integral_constant<DType, D>;

// Calls fn(DTypeTag<d>{}) for the one of `Allowed` equal to d; the op's parser has checked
// that d is one of them, so anything else is a broken invariant.
template <DType... Allowed, class Fn>
void with_dtype(DType d, Fn&& fn) {
  const bool found = ((d == Allowed ? (fn(DTypeTag<Allowed>{}), true) : false) || ...);
  TESSERA_CHECK(found);
}

namespace elem {

// Integer arithmetic wraps around (two's complement), as onnxruntime's does in practice;
// computing in the unsigned type keeps it defined behaviour in C++.
template <class T>
T add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <class T>
T sub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}
template <class T>
T mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // uint32_t at least, so that uint8_t operands do not promote to (overflowing) int.
    using U = std::common_type_t<std::make_unsigned_t<T>, uint32_t>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

// The quotient's overflow case, min / -1, which traps on x86: it wraps to min.
template <class T>
bool overflows_division(T a, T b) {
  if constexpr (std::is_signed_v<T>) return a == std::numeric_limits<T>::min() && b == -1;
  return false;
}

// Integer division truncates toward zero (ONNX). Division by zero is undefined in ONNX and
// traps on x86; Tessera defines it as 0 (numpy's result), so bad data never crashes a run.
template <class T>
T div(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if (b == 0) return 0;
    if (overflows_division(a, b)) return a;
    return static_cast<T>(a / b);
  } else {
    return a / b;
  }
}

// Mod with fmod = 0 (integers only): Python's %, the result takes the divisor's sign.
// x mod 0 is 0, as for Div.
template <class T>
T mod(T a, T b) {
  static_assert(std::is_integral_v<T>);
  if (b == 0 || overflows_division(a, b)) return 0;
  T r = static_cast<T>(a % b);
  if constexpr (std::is_signed_v<T>) {
    if (r != 0 && (r < 0) != (b < 0)) r = static_cast<T>(r + b);
  }
  return r;
}

// Mod with fmod = 1: C's fmod, the result takes the dividend's sign (integers: C's %).
template <class T>
T fmod(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if (b == 0 || overflows_division(a, b)) return 0;
    return static_cast<T>(a % b);
  } else {
    return std::fmod(a, b);
  }
}

// NaN in either operand gives NaN (the float kernels' Max / Min do the same).
template <class T>
T max(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return kernels::binary_reference(kernels::BinaryOp::kMax, a, b);
  return a < b ? b : a;
}
template <class T>
T min(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return kernels::binary_reference(kernels::BinaryOp::kMin, a, b);
  return b < a ? b : a;
}

// A float as integer type T: truncated toward zero. ONNX leaves NaN and out-of-range values
// undefined (C++ too, and WebAssembly traps); Tessera saturates: NaN -> 0, +inf and values
// above T's range -> T's max, -inf and values below -> T's min (as Rust and Wasm's
// trunc_sat do).
template <class T, class F>
T saturating_int(F x) {
  static_assert(std::is_integral_v<T> && std::is_floating_point_v<F>);
  if (std::isnan(x)) return 0;
  // 2^digits is exactly representable; the max of a 64-bit T is not (it rounds up).
  const F upper = std::ldexp(F{1}, std::numeric_limits<T>::digits);
  if (x >= upper) return std::numeric_limits<T>::max();
  if (x <= static_cast<F>(std::numeric_limits<T>::min()) - F{1}) return std::numeric_limits<T>::min();
  return static_cast<T>(x);
}

// ONNX Cast between Tessera's dtypes: to bool is x != 0 (NaN -> true, -0 -> false); from
// bool is 0 / 1 (any nonzero byte counts as true); integer -> integer keeps the low bits
// (two's complement); float -> integer is saturating_int; integer -> float rounds to nearest.
template <DType To, DType From>
element_t<To> cast(element_t<From> x) {
  using T = element_t<To>;
  if constexpr (From == DType::kBool) {
    return static_cast<T>(x != 0 ? 1 : 0);
  } else if constexpr (To == DType::kBool) {
    return static_cast<T>(x != 0 ? 1 : 0);
  } else if constexpr (std::is_integral_v<T> && std::is_floating_point_v<element_t<From>>) {
    return saturating_int<T>(x);
  } else {
    return static_cast<T>(x);
  }
}

// Pow with integer base: exact, by repeated squaring (wrapping like mul). A negative
// exponent gives the truncated real result: 1 for base 1, +-1 for base -1, else 0 (base 0
// too, where ONNX is undefined).
template <class T, class E>
T int_pow(T base, E exponent) {
  if (exponent < 0) {
    if (base == 1) return 1;
    if constexpr (std::is_signed_v<T>) {
      if (base == -1) return (exponent % 2 == 0) ? 1 : -1;
    }
    return 0;
  }
  T result = 1;
  auto e = static_cast<std::make_unsigned_t<E>>(exponent);
  while (e != 0) {
    if (e & 1) result = mul(result, base);
    base = mul(base, base);
    e >>= 1;
  }
  return result;
}

// ONNX Pow: the base's type is the result's; the exponent may be another type.
//   float base: as the float Pow kernels (x*x for 2, x*x*x for 3, else powf), with the
//     exponent converted to float;
//   integer base, integer exponent: int_pow;
//   integer base, float exponent: pow in double, then saturating_int (as onnxruntime
//     truncates std::pow's result).
template <class T, class E>
T pow(T base, E exponent) {
  if constexpr (std::is_floating_point_v<T>) {
    return kernels::binary_reference(kernels::BinaryOp::kPow, base, static_cast<float>(exponent));
  } else if constexpr (std::is_integral_v<E>) {
    return int_pow(base, exponent);
  } else {
    return saturating_int<T>(std::pow(static_cast<double>(base), static_cast<double>(exponent)));
  }
}

}  // namespace elem
}  // namespace tessera::ops
