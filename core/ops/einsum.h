// Einsum (float32): products of the inputs summed over the labels the output does not keep,
// with implicit or explicit outputs, ellipsis broadcasting and size-1 broadcasting.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

// Every distinct subscript is a label 0..L-1: the ellipsis dims first (right-aligned across
// inputs, numpy broadcasting), then the letters in order of first appearance.
struct EinsumAttrs {
  std::vector<int64_t> label_sizes;
  std::vector<std::vector<int>> input_labels;  // per input: the label of each dim
  std::vector<int> output_labels;              // the label of each output dim
  std::vector<int> summed;                     // labels not in the output, outermost first
  bool operator==(const EinsumAttrs&) const = default;
};

OpCost cost(const EinsumAttrs&, const OpShapes&, const Region& out);
std::optional<Region> footprint(const EinsumAttrs&, const OpShapes&, const Region& out, int input);
TilingHints tiling_hints(const EinsumAttrs&, const OpShapes&, const TilingQuery& query);
LayoutChoice choose_layout(const EinsumAttrs&, const OpShapes&, const LayoutQuery&);
void reference(const EinsumAttrs&, const OpShapes&, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> bind(const EinsumAttrs&, const BindArgs&);

}  // namespace tessera::ops
