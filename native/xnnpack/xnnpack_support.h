// Which nodes of Tessera's optimised graph XNNPACK (Debian's 2022 snapshot) can express, and
// the geometry that both this check and the translation (xnnpack_subgraph.h) derive from them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/graph/graph.h"

namespace tessera::xnnpack {

// What a node becomes.
enum class NodeRole {
  kXnnpack,   // XNNPACK node(s) in the current subgraph (views become static reshapes)
  kRelayout,  // a relayout that moves bytes: a plain C++ copy between two subgraphs
  kConcat,    // a Concat: XNNPACK's strided copy operators between two subgraphs
  kUnsupported,
};

struct NodeSupport {
  NodeRole role = NodeRole::kXnnpack;
  std::string unsupported;  // for kUnsupported: the op kind as the error lists it, e.g. "MatMul (batched)"
};

NodeSupport classify_node(const graph::Graph& g, const graph::Node& node);

// Activations XNNPACK has (HardSigmoid as multiply2 + add2 with clamp [0, 1]).
bool activation_supported(kernels::UnaryOp op);

// `operand` padded with leading 1s to the rank of `out`.
ops::Shape padded_shape(const graph::Tensor& operand, const graph::Tensor& out);

// Whether a run-time operand's bytes, read as a tensor of out's rank in out's layout, hold
// its elements in the right order (only size-1 dims may move): then numpy broadcasting over
// physical dims is broadcasting over logical dims. Constants are rearranged instead.
bool broadcasts_in_layout(const graph::Tensor& operand, const graph::Tensor& out);

// Pool padding {top, left, bottom, right} giving Tessera's output size with XNNPACK's floor
// rule (ceil_mode needs more end padding), or nullopt.
std::optional<std::array<int64_t, 4>> xnnpack_pool_pads(const ops::PoolAttrs& a, const ops::Shape& in,
                                                        const ops::Shape& out);

// ConvTranspose's {adjust_h, adjust_w} (ONNX output_padding) for XNNPACK's deconvolution, or
// nullopt when pads are negative or the adjustment is not below the stride.
std::optional<std::array<int64_t, 2>> deconvolution_adjustment(const ops::ConvTransposeAttrs& a, const ops::Shape& in,
                                                               const ops::Shape& out);

// The static_resize_bilinear_2d flags reproducing a Resize, or nullopt.
std::optional<uint32_t> resize_flags(const ops::ResizeAttrs& a, const ops::Shape& out);

// A constant Pad's {pre, post} amounts per physical dim, or nullopt (other modes, cropping).
std::optional<std::array<std::vector<size_t>, 2>> pad_amounts(const ops::PadAttrs& a, const graph::Tensor& in,
                                                              const graph::Tensor& out);

}  // namespace tessera::xnnpack
