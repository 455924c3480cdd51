// Element types of the typed kernels: the C++ type of each dtype, chosen once at bind time,
// and run-time indices read as int64 and brought into range.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "core/ops/node_parser.h"
#include "core/ops/op_contract.h"
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

// Calls fn(I{}) with I the type of integer indices of `dtype` (int64 or int32; the parsers
// check that indices are one of them).
template <class Fn>
decltype(auto) visit_index_dtype(DType dtype, Fn&& fn) {
  if (dtype == DType::kInt32) return fn(int32_t{});
  return fn(int64_t{});
}

// Kernel<T, I> for the output's element type T and the index type I of input `indices`: the
// binding of a kernel that reads run-time indices (GatherElements, ScatterElements).
template <template <class, class> class Kernel, class Attrs>
std::unique_ptr<TileKernel> make_indexed_kernel(const Attrs& a, const BindArgs& args, size_t indices) {
  return visit_dtype(args.output.dtype, [&](auto zero) {
    return visit_index_dtype(args.inputs[indices].dtype, [&](auto index) -> std::unique_ptr<TileKernel> {
      return std::make_unique<Kernel<decltype(zero), decltype(index)>>(a, args);
    });
  });
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

// Checks integer input `input`, if known at specialisation, against [-size, size): ONNX makes
// an index outside that an error. (Run-time indices are clamped by the kernels instead.)
inline Status check_constant_indices(const NodeParser& p, size_t input, int64_t size, const char* what) {
  if (!p.is_constant(input)) return Status();
  const int64_t count = element_count(p.shape(input));
  for (int64_t i = 0; i < count; ++i) {
    const int64_t v = load_int(p.constant_data(input), p.dtype(input), i);
    if (v < -size || v >= size) {
      return p.error(std::string(what) + " " + std::to_string(v) + " is out of range for a dimension of size " +
                     std::to_string(size));
    }
  }
  return Status();
}

// The order ArgMax, ArgMin and TopK rank values by: numbers by value, NaN above every number
// (numpy's sort order), so that ranking is a strict weak order even with NaN.
template <class T>
bool rank_less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(b)) return !std::isnan(a);  // NaN ranks above all numbers, equal to NaN
  }
  return a < b;
}

}  // namespace tessera::ops
