// GatherND: slices of data picked by index tuples (the last dimension of indices, int64 or
// int32, constant or run-time), after batch_dims leading dimensions shared by both; any dtype.
#pragma once

#include "core/ops/node_parser.h"
#include "core/ops/op_contract.h"
#include "core/ops/region_walk.h"

namespace tessera::ops {

struct GatherNDAttrs {
  int batch_dims = 0;
  bool operator==(const GatherNDAttrs&) const = default;
};

OpCost cost(const GatherNDAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const GatherNDAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const GatherNDAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const GatherNDAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const GatherNDAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const GatherNDAttrs&, const BindArgs&);

// Index tuples (GatherND, ScatterND): tuple elements j = 0..k-1 index data dimensions
// first + j. An input known at specialisation is checked against those sizes (an error, as
// in ONNX); at run time each element is clamped (see clamp_index).
Status check_constant_tuples(const NodeParser& p, size_t input, const Shape& data, int first);
// The data offset of the tuple whose k elements start at `tuple` (element stride `step`).
int64_t tuple_offset(const void* indices, DType dtype, int64_t tuple, int64_t step, int k, const Shape& data,
                     const Strides& data_strides, int first);

}  // namespace tessera::ops
