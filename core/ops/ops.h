// The op kinds as one variant, and dispatch of the op contract (op_contract.h) over it.
#pragma once

#include <string>
#include <variant>

#include "core/ops/arg_reduce.h"
#include "core/ops/batch_norm.h"
#include "core/ops/binary.h"
#include "core/ops/concat.h"
#include "core/ops/conv.h"
#include "core/ops/conv_transpose.h"
#include "core/ops/cumsum.h"
#include "core/ops/einsum.h"
#include "core/ops/expand.h"
#include "core/ops/gather.h"
#include "core/ops/gather_elements.h"
#include "core/ops/gather_nd.h"
#include "core/ops/group_norm.h"
#include "core/ops/layer_norm.h"
#include "core/ops/matmul.h"
#include "core/ops/node_parser.h"
#include "core/ops/non_zero.h"
#include "core/ops/one_hot.h"
#include "core/ops/pad.h"
#include "core/ops/pool.h"
#include "core/ops/reduce.h"
#include "core/ops/resize.h"
#include "core/ops/scatter.h"
#include "core/ops/shape_values.h"
#include "core/ops/slice.h"
#include "core/ops/softmax.h"
#include "core/ops/space_depth.h"
#include "core/ops/tile.h"
#include "core/ops/top_k.h"
#include "core/ops/transpose.h"
#include "core/ops/trilu.h"
#include "core/ops/typed_elementwise.h"
#include "core/ops/unary.h"
#include "core/ops/view.h"

namespace tessera::ops {

using OpAttrs =
    std::variant<ConvAttrs, MatMulAttrs, UnaryAttrs, BinaryAttrs, SoftmaxAttrs, LayerNormAttrs, PoolAttrs, ReduceAttrs,
                 ConcatAttrs, TransposeAttrs, ViewAttrs, BatchNormAttrs, ConvTransposeAttrs, ResizeAttrs, SliceAttrs,
                 GatherAttrs, PadAttrs, ExpandAttrs, ElementwiseAttrs, RangeAttrs, ConstantOfShapeAttrs, TriluAttrs,
                 CumSumAttrs, GroupNormAttrs, SpaceDepthAttrs, EinsumAttrs, GatherElementsAttrs, GatherNDAttrs,
                 ScatterNDAttrs, ScatterElementsAttrs, TileAttrs, NonZeroAttrs, ArgReduceAttrs, TopKAttrs, OneHotAttrs>;

// A parsed node: one single-output op per node output. The graph IR is single-output, so a
// node with several outputs (Split) lowers to one op per output: output 0 here, outputs
// 1..n-1 in `more_outputs`, in the node's output order.
// `value` is set when the output is known from the inputs' shapes alone (Shape, Size): the
// graph then holds it as a constant and no node runs.
struct ParsedOp {
  OpAttrs attrs;
  Shape output;
  std::vector<ParsedOp> more_outputs = {};
  DType dtype = DType::kFloat32;
  std::optional<Tensor> value = std::nullopt;
};

// Parses one model node: attributes, input checks and output shape(s). Unknown op types fail.
Result<ParsedOp> parse_node(const model::NodeDesc& desc, std::vector<ParsedInput> inputs);

OpCost op_cost(const OpAttrs& a, const OpShapes& s, const Region& out);
std::optional<Region> op_footprint(const OpAttrs& a, const OpShapes& s, const Region& out, int input);
TilingHints op_tiling_hints(const OpAttrs& a, const OpShapes& s, const TilingQuery& q);
LayoutChoice op_choose_layout(const OpAttrs& a, const OpShapes& s, const LayoutQuery& q);
void op_reference(const OpAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out);
Result<std::unique_ptr<TileKernel>> op_bind(const OpAttrs& a, const BindArgs& args);

inline bool is_view(const OpAttrs& a) { return std::holds_alternative<ViewAttrs>(a); }

// Ops with more than one algorithm (Conv: the direct GEMM and Winograd) number them from 0
// and say which apply to a node; its attrs hold the op's own choice, which the cost model or
// a saved plan may replace (docs/planning.md, "Algorithms"). Every other op has one,
// algorithm 0.
int op_algorithm_count(const OpAttrs& a, const OpShapes& s);
int op_algorithm(const OpAttrs& a);
// "" for ops of one algorithm.
const char* op_algorithm_name(const OpAttrs& a);
OpAttrs op_with_algorithm(const OpAttrs& a, int algorithm);

// The fused epilogue of a kind that has one, else null.
const Epilogue* op_epilogue(const OpAttrs& a);
Epilogue* op_epilogue(OpAttrs& a);

}  // namespace tessera::ops
