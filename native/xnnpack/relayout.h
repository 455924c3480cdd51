// Permuted copies of one tensor between two memory layouts: the relayouts XNNPACK (2022, no
// transpose operator) cannot run, and constants rearranged into an operand's layout.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ops/geometry.h"

namespace tessera::xnnpack {

// out (row-major over `dims`) [i0, i1, ...] = in[i0 * in_strides[0] + i1 * in_strides[1] + ...],
// with size-1 dims dropped and runs contiguous in both tensors merged (at least one dim).
struct PermutedCopy {
  std::vector<int64_t> dims;
  std::vector<int64_t> in_strides;
};

// Copies a tensor of logical `shape` stored in layout `from` into layout `to`.
PermutedCopy plan_permuted_copy(const ops::Shape& shape, const ops::Layout& from, const ops::Layout& to);

// Copies the output slices [outer_begin, outer_end) of dims[0]; slices are independent, so
// threads may copy disjoint ranges concurrently.
void run_permuted_copy(const PermutedCopy& copy, const float* in, float* out, int64_t outer_begin, int64_t outer_end);

// The dims of `shape` in the memory order of `layout` (what XNNPACK sees).
std::vector<int64_t> physical_dims(const ops::Shape& shape, const ops::Layout& layout);

}  // namespace tessera::xnnpack
