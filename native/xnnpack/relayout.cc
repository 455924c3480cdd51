// Permuted copies: planned once per relayout, run on slices of the outermost output dim.
#include "native/xnnpack/relayout.h"

#include <cstring>

namespace tessera::xnnpack {

std::vector<int64_t> physical_dims(const ops::Shape& shape, const ops::Layout& layout) {
  std::vector<int64_t> dims;
  for (int d : layout.perm) dims.push_back(shape[d]);
  return dims;
}

PermutedCopy plan_permuted_copy(const ops::Shape& shape, const ops::Layout& from, const ops::Layout& to) {
  const auto strides = ops::logical_strides(shape, from);
  PermutedCopy copy;
  for (int d : to.perm) {
    if (shape[d] == 1) continue;
    // The output is row-major: merge with the previous dim when the input is contiguous too.
    if (!copy.dims.empty() && copy.in_strides.back() == strides[d] * shape[d]) {
      copy.dims.back() *= shape[d];
      copy.in_strides.back() = strides[d];
      continue;
    }
    copy.dims.push_back(shape[d]);
    copy.in_strides.push_back(strides[d]);
  }
  if (copy.dims.empty()) {
    copy.dims = {1};
    copy.in_strides = {1};
  }
  return copy;
}

namespace {

// Copies the block under output dim `dim` at input offset `in_offset` to `out`.
void copy_block(const PermutedCopy& c, size_t dim, const float* in, float*& out) {
  const int64_t n = c.dims[dim];
  const int64_t stride = c.in_strides[dim];
  if (dim + 1 == c.dims.size()) {
    if (stride == 1) {
      std::memcpy(out, in, sizeof(float) * n);
    } else {
      for (int64_t i = 0; i < n; ++i) out[i] = in[i * stride];
    }
    out += n;
    return;
  }
  for (int64_t i = 0; i < n; ++i) copy_block(c, dim + 1, in + i * stride, out);
}

}  // namespace

void run_permuted_copy(const PermutedCopy& copy, const float* in, float* out, int64_t outer_begin, int64_t outer_end) {
  int64_t inner = 1;
  for (size_t d = 1; d < copy.dims.size(); ++d) inner *= copy.dims[d];
  if (copy.dims.size() == 1) {
    float* y = out + outer_begin;
    const int64_t stride = copy.in_strides[0];
    for (int64_t i = outer_begin; i < outer_end; ++i) *y++ = in[i * stride];
    return;
  }
  for (int64_t i = outer_begin; i < outer_end; ++i) {
    float* y = out + i * inner;
    copy_block(copy, 1, in + i * copy.in_strides[0], y);
  }
}

}  // namespace tessera::xnnpack
