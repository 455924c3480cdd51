// Which graph nodes XNNPACK can express: per op kind, what the 2022 snapshot has (no
// transpose, concatenate, slice, layer norm, reductions or batched matmul) and the attribute
// values where its semantics equal ONNX's.
#include "native/xnnpack/xnnpack_support.h"

#include <xnnpack.h>

#include <algorithm>

namespace tessera::xnnpack {

using graph::Graph;
using graph::Node;
using graph::Tensor;
using kernels::UnaryOp;

bool activation_supported(UnaryOp op) {
  switch (op) {
    case UnaryOp::kCopy:
    case UnaryOp::kRelu:
    case UnaryOp::kClip:
    case UnaryOp::kLeakyRelu:
    case UnaryOp::kSigmoid:
    case UnaryOp::kHardSwish:
    case UnaryOp::kHardSigmoid:  // as multiply2 + add2 with clamp [0, 1]
    case UnaryOp::kSqrt:
    case UnaryOp::kNeg:
    case UnaryOp::kAbs: return true;
    default: return false;
  }
}

ops::Shape padded_shape(const Tensor& operand, const Tensor& out) {
  ops::Shape s(out.shape.size() - operand.shape.size(), 1);
  s.insert(s.end(), operand.shape.begin(), operand.shape.end());
  return s;
}

bool broadcasts_in_layout(const Tensor& operand, const Tensor& out) {
  if (operand.shape.size() > out.shape.size()) return false;
  if (operand.is_constant()) return true;
  const int offset = static_cast<int>(out.shape.size() - operand.shape.size());
  std::vector<int> source;
  for (size_t d = 0; d < operand.shape.size(); ++d) source.push_back(static_cast<int>(d) + offset);
  const ops::Shape padded = padded_shape(operand, out);
  return ops::memory_order(padded, out.layout, ops::Layout::identity(static_cast<int>(padded.size())).perm) ==
         ops::memory_order(operand.shape, operand.layout, source);
}

// XNNPACK sizes pool outputs as floor((in + pads - window) / stride) + 1. ceil_mode outputs
// need more end padding, which XNNPACK's max pool and its average pool (which averages over
// the valid pixels only) ignore. Returns {top, left, bottom, right}, or nullopt if no
// padding gives Tessera's output size.
std::optional<std::array<int64_t, 4>> xnnpack_pool_pads(const ops::PoolAttrs& a, const ops::Shape& in,
                                                        const ops::Shape& out) {
  std::array<int64_t, 4> pads{a.pad_top, a.pad_left, a.pad_bottom, a.pad_right};
  const int64_t kernel[2] = {a.kernel_h, a.kernel_w}, stride[2] = {a.stride_h, a.stride_w};
  const int64_t dilation[2] = {a.dilation_h, a.dilation_w};
  for (int i = 0; i < 2; ++i) {
    const int64_t span = (kernel[i] - 1) * dilation[i] + 1;
    const int64_t size = in[2 + i], out_size = out[2 + i];
    pads[2 + i] = std::max(pads[2 + i], (out_size - 1) * stride[i] + span - size - pads[i]);
    if ((size + pads[i] + pads[2 + i] - span) / stride[i] + 1 != out_size) return std::nullopt;
  }
  return pads;
}

// XNNPACK's deconvolution output is stride * (in - 1) + adjustment + span - pads; the
// adjustment (ONNX output_padding) must stay below the stride. Returns {adjust_h, adjust_w}.
std::optional<std::array<int64_t, 2>> deconvolution_adjustment(const ops::ConvTransposeAttrs& a, const ops::Shape& in,
                                                               const ops::Shape& out) {
  const int64_t pads[4] = {a.pad_top, a.pad_left, a.pad_bottom, a.pad_right};
  if (std::any_of(pads, pads + 4, [](int64_t p) { return p < 0; })) return std::nullopt;
  const int64_t kernel[2] = {a.kernel_h, a.kernel_w}, stride[2] = {a.stride_h, a.stride_w};
  const int64_t dilation[2] = {a.dilation_h, a.dilation_w};
  std::array<int64_t, 2> adjustment{};
  for (int i = 0; i < 2; ++i) {
    const int64_t span = (kernel[i] - 1) * dilation[i] + 1;
    adjustment[i] = out[2 + i] - (stride[i] * (in[2 + i] - 1) + span - pads[i] - pads[2 + i]);
    if (adjustment[i] < 0 || adjustment[i] >= stride[i]) return std::nullopt;
  }
  return adjustment;
}

// XNNPACK's bilinear resize of H and W in NHWC with a scale of exactly out / in, as a flag:
// half-pixel centers (0), XNN_FLAG_ALIGN_CORNERS, or XNN_FLAG_TENSORFLOW_LEGACY_MODE
// (asymmetric); nullopt when the ONNX coordinate transform is none of these.
std::optional<uint32_t> resize_flags(const ops::ResizeAttrs& a, const ops::Shape& out) {
  using C = ops::ResizeAttrs::Coordinates;
  if (a.mode != ops::ResizeAttrs::Mode::kLinear || !a.spatial_only()) return std::nullopt;
  for (int d = 2; d < 4; ++d) {
    if (a.output_width[d] != static_cast<double>(out[d])) return std::nullopt;
    if (out[d] == 1 && a.coordinates != C::kAsymmetric) return std::nullopt;  // the transforms differ at size 1
  }
  switch (a.coordinates) {
    case C::kHalfPixel:
    case C::kHalfPixelSymmetric:  // equal to half_pixel when out = scale * in exactly
    case C::kPytorchHalfPixel:    // equal to half_pixel when out > 1
      return 0u;
    case C::kAlignCorners: return static_cast<uint32_t>(XNN_FLAG_ALIGN_CORNERS);
    case C::kAsymmetric: return static_cast<uint32_t>(XNN_FLAG_TENSORFLOW_LEGACY_MODE);
  }
  return std::nullopt;
}

// Constant padding by non-negative amounts: {pre, post} per physical dim of the output.
std::optional<std::array<std::vector<size_t>, 2>> pad_amounts(const ops::PadAttrs& a, const Tensor& in,
                                                              const Tensor& out) {
  if (a.mode != ops::PadAttrs::Mode::kConstant || !(in.layout == out.layout)) return std::nullopt;
  std::array<std::vector<size_t>, 2> amounts;
  for (int d : out.layout.perm) {
    const int64_t pre = a.begin[d], post = out.shape[d] - in.shape[d] - a.begin[d];
    if (pre < 0 || post < 0) return std::nullopt;  // negative pads crop
    amounts[0].push_back(static_cast<size_t>(pre));
    amounts[1].push_back(static_cast<size_t>(post));
  }
  return amounts;
}

namespace {

constexpr size_t kMaxDims = XNN_MAX_TENSOR_DIMS;

NodeSupport unsupported(std::string what) { return {NodeRole::kUnsupported, std::move(what)}; }

// A fused epilogue runs as add2 (residual), the op's min/max or a clamp, the activation's
// node, and multiply2 / add2 by constants (the scalar affine): only the activation can be missing.
NodeSupport epilogue_support(const ops::Epilogue& e) {
  if (e.has_activation() && !activation_supported(e.activation)) return unsupported(ops::unary_op_name(e.activation));
  return {};
}

NodeSupport classify_conv(const Graph& g, const Node& node, const ops::ConvAttrs& a) {
  if (!g.tensors[node.inputs[1]].is_constant()) return unsupported("Conv (run-time weights)");
  return epilogue_support(a.epilogue);
}

NodeSupport classify_matmul(const Graph& g, const Node& node, const ops::MatMulAttrs& a) {
  const Tensor& A = g.tensors[node.inputs[0]];
  const Tensor& B = g.tensors[node.inputs[1]];
  if (B.shape.size() > 2 || (!B.is_constant() && A.shape.size() > 2)) return unsupported(node.op + " (batched)");
  if (!B.is_constant()) return unsupported(node.op + " (run-time B)");
  if (B.shape.size() != 2) return unsupported(node.op + " (vector B)");
  if (A.is_constant()) return unsupported(node.op + " (constant A)");
  if (a.trans_a) return unsupported(node.op + " (transA)");
  if (a.epilogue.residual_input >= 0) {
    const Tensor& c = g.tensors[node.inputs[a.epilogue.residual_input]];
    if (!c.is_constant() && a.residual_scale != 1.0f) return unsupported(node.op + " (scaled run-time C)");
  }
  return epilogue_support(a.epilogue);
}

NodeSupport classify_binary(const Graph& g, const Node& node, const ops::BinaryAttrs& a) {
  const Tensor& out = g.tensors[node.output];
  if (a.op == kernels::BinaryOp::kPow) {
    const Tensor& e = g.tensors[node.inputs[1]];
    if (!e.is_constant() || ops::element_count(e.shape) != 1 || e.floats()[0] != 2.0f) return unsupported("Pow");
  }
  for (int input : node.inputs) {
    if (!broadcasts_in_layout(g.tensors[input], out)) return unsupported(node.op + " (mixed layouts)");
  }
  return epilogue_support(a.epilogue);
}

NodeSupport classify_pool(const Graph& g, const Node& node, const ops::PoolAttrs& a) {
  if (a.kind == ops::PoolAttrs::Kind::kGlobalAverage) return {};
  const auto pads = xnnpack_pool_pads(a, g.tensors[node.inputs[0]].shape, g.tensors[node.output].shape);
  if (!pads) return unsupported(node.op + " (padding)");
  if (a.kind == ops::PoolAttrs::Kind::kAverage) {
    if (a.dilation_h != 1 || a.dilation_w != 1) return unsupported(node.op + " (dilations)");
    // XNNPACK averages over the pixels inside the input only: counting the padding, the
    // translation pads with zeros first, which only reproduces ONNX where ceil_mode added no
    // window past the padding (ONNX does not count that part).
    const std::array<int64_t, 4> declared{a.pad_top, a.pad_left, a.pad_bottom, a.pad_right};
    if (a.count_include_pad && *pads != declared) return unsupported(node.op + " (count_include_pad, ceil_mode)");
  }
  return {};
}

NodeSupport classify_concat(const Graph& g, const Node& node) {
  const Tensor& out = g.tensors[node.output];
  if (out.dtype != model::DType::kFloat32) return unsupported(node.op + " (integer)");
  for (int input : node.inputs) {
    const Tensor& t = g.tensors[input];
    if (t.is_constant()) return unsupported(node.op + " (constant input)");
    if (!(t.layout == out.layout)) return unsupported(node.op + " (mixed layouts)");
  }
  return {NodeRole::kConcat, ""};
}

}  // namespace

NodeSupport classify_node(const Graph& g, const Node& node) {
  for (int input : node.inputs) {
    if (input >= 0 && g.tensors[input].shape.size() > kMaxDims) return unsupported(node.op + " (rank > 6)");
  }
  if (g.tensors[node.output].alias_of >= 0) return {};  // a view: static_reshape
  return std::visit(
      [&](const auto& a) -> NodeSupport {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, ops::ConvAttrs>) {
          return classify_conv(g, node, a);
        } else if constexpr (std::is_same_v<A, ops::MatMulAttrs>) {
          return classify_matmul(g, node, a);
        } else if constexpr (std::is_same_v<A, ops::UnaryAttrs>) {
          if (g.tensors[node.output].dtype != model::DType::kFloat32) return unsupported(node.op + " (integer)");
          return activation_supported(a.op) ? NodeSupport{} : unsupported(ops::unary_op_name(a.op));
        } else if constexpr (std::is_same_v<A, ops::BinaryAttrs>) {
          return classify_binary(g, node, a);
        } else if constexpr (std::is_same_v<A, ops::SoftmaxAttrs>) {
          const size_t rank = g.tensors[node.output].shape.size();
          return a.axis == static_cast<int>(rank) - 1 ? NodeSupport{} : unsupported("Softmax (axis not last)");
        } else if constexpr (std::is_same_v<A, ops::PoolAttrs>) {
          return classify_pool(g, node, a);
        } else if constexpr (std::is_same_v<A, ops::ConvTransposeAttrs>) {
          if (!g.tensors[node.inputs[1]].is_constant()) return unsupported(node.op + " (run-time weights)");
          if (!deconvolution_adjustment(a, g.tensors[node.inputs[0]].shape, g.tensors[node.output].shape)) {
            return unsupported(node.op + " (output_padding or pads)");
          }
          return epilogue_support(a.epilogue);
        } else if constexpr (std::is_same_v<A, ops::ResizeAttrs>) {
          if (a.mode != ops::ResizeAttrs::Mode::kLinear) return unsupported(node.op + " (nearest)");
          return resize_flags(a, g.tensors[node.output].shape) ? NodeSupport{}
                                                               : unsupported(node.op + " (linear, not 2-D bilinear)");
        } else if constexpr (std::is_same_v<A, ops::PadAttrs>) {
          const bool ok = pad_amounts(a, g.tensors[node.inputs[0]], g.tensors[node.output]).has_value();
          return ok ? NodeSupport{}
                    : unsupported(node.op +
                                  (a.mode == ops::PadAttrs::Mode::kConstant ? " (cropping)" : " (reflect or edge)"));
        } else if constexpr (std::is_same_v<A, ops::ConcatAttrs>) {
          return classify_concat(g, node);
        } else if constexpr (std::is_same_v<A, ops::TransposeAttrs>) {
          // The compiler's relayouts run as C++ copies; XNNPACK (2022) has no transpose.
          return a.output_layout ? NodeSupport{NodeRole::kRelayout, ""} : unsupported(node.op);
        } else {
          // LayerNormalization, Reduce*, Slice, Gather, Expand; BatchNormalization
          // never survives the passes.
          return unsupported(node.op);
        }
      },
      node.attrs);
}

}  // namespace tessera::xnnpack
