// Size arithmetic that reports overflow instead of wrapping: models can ask for absurd sizes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace tessera {

// Largest element count of one tensor: 8 GiB of float32, or 2 GiB where addresses are 32-bit
// (WebAssembly), so that byte sizes always fit a size_t. Anything above is an input error.
inline constexpr int64_t kMaxTensorElements = sizeof(size_t) >= 8 ? int64_t{1} << 31 : int64_t{1} << 29;

// a * b into *out; false on overflow.
inline bool checked_mul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }

inline bool checked_add(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }

// Product of dims; false if any dim is non-positive or the product exceeds kMaxTensorElements.
inline bool checked_element_count(std::span<const int64_t> dims, int64_t* count) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d <= 0 || !checked_mul(n, d, &n) || n > kMaxTensorElements) return false;
  }
  *count = n;
  return true;
}

inline int64_t round_up(int64_t value, int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace tessera
