// Element types of the typed kernels: the C++ type of each dtype, chosen once at bind time,
// and run-time indices read as int64 and brought into range.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/tensor.h"

namespace tessera::ops {

// Calls fn(T{}) with T the element type of `dtype` (bool and uint8 as uint8_t) and returns
// its result: one instantiation per element type, picked where a kernel is bound.
template <class Fn>
decltype(auto) visit_dtype(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::kInt64: return fn(int64_t{});
    case DType::kInt32: return fn(int32_t{});
    case DType::kBool:
    case DType::kUInt8: return fn(uint8_t{});
    case DType::kFloat32: break;
  }
  return fn(float{});
}

// "f32_gather_copy": a kernel's name with the prefix of its element type.
template <class T>
std::string typed_kernel_name(const char* what) {
  const char* prefix = std::is_same_v<T, float>     ? "f32"
                       : std::is_same_v<T, int64_t> ? "i64"
                       : std::is_same_v<T, int32_t> ? "i32"
                                                    : "u8";
  return std::string(prefix) + "_" + what;
}

// Element i of integer (or float: truncated, as ONNX casts indices) data of `dtype`, as int64.
inline int64_t load_int(const void* data, DType dtype, int64_t i) {
  return visit_dtype(dtype, [&](auto zero) -> int64_t {
    using T = decltype(zero);
    const T v = static_cast<const T*>(data)[i];
    if constexpr (std::is_same_v<T, float>) {
      // NaN and values beyond int64 have no index: they map outside every range.
      return v >= -9.2e18f && v <= 9.2e18f ? static_cast<int64_t>(v) : INT64_MIN;
    } else {
      return static_cast<int64_t>(v);
    }
  });
}

// A run-time index into an axis of `size`: negative values count from the end (ONNX). ONNX
// makes an index outside [-size, size) an error, but a tile cannot report one: such an index
// is clamped into [0, size), so a bad id reads a real row instead of memory outside the tensor.
inline int64_t clamp_index(int64_t i, int64_t size) {
  if (i < 0 && i >= -size) i += size;
  return std::clamp<int64_t>(i, 0, size - 1);
}

}  // namespace tessera::ops
