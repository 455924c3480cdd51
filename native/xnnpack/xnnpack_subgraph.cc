// XNNPACK values and nodes for graph nodes: Conv -> (depthwise_)convolution_2d, ConvTranspose
// -> deconvolution_2d, MatMul/Gemm with constant 2-D B -> fully_connected, pools, binary ops
// with numpy broadcasting, activations, softmax, bilinear Resize, constant Pad, views ->
// static_reshape. A fused epilogue y = act(clamp(acc + bias + residual)) becomes the bias
// operand, the op's own min/max, an add2 for the residual and a node for the activation.
#include "native/xnnpack/xnnpack_subgraph.h"

#include <algorithm>

#include "core/ops/conv_weights.h"
#include "native/xnnpack/relayout.h"
#include "native/xnnpack/xnnpack_support.h"

namespace tessera::xnnpack {

namespace {

using graph::Graph;
using graph::Node;
using graph::Tensor;
using kernels::MinMax;
using kernels::UnaryOp;

constexpr size_t kExtraFloats = (XNN_EXTRA_BYTES + sizeof(float) - 1) / sizeof(float);

// A Conv / ConvTranspose node's weights with the scale a folded batch norm left on them.
template <class Attrs>
ops::ConvWeights conv_weights(const Graph& g, const Node& node, const Attrs& a, bool transposed) {
  const Tensor& w = g.tensors[node.inputs[1]];
  const float* scale = a.weight_scale_input >= 0 ? g.tensors[node.inputs[a.weight_scale_input]].floats() : nullptr;
  return {w.floats(), scale, w.shape, a.group, transposed};
}

}  // namespace

const char* xnn_status_name(enum xnn_status s) {
  switch (s) {
    case xnn_status_success: return "success";
    case xnn_status_uninitialized: return "uninitialized";
    case xnn_status_invalid_parameter: return "invalid parameter";
    case xnn_status_invalid_state: return "invalid state";
    case xnn_status_unsupported_parameter: return "unsupported parameter";
    case xnn_status_unsupported_hardware: return "unsupported hardware";
    case xnn_status_out_of_memory: return "out of memory";
  }
  return "unknown status";
}

SubgraphBuilder::SubgraphBuilder(const Graph& g, xnn_subgraph_t subgraph, std::deque<std::vector<float>>& static_data)
    : g_(g), subgraph_(subgraph), static_data_(static_data), values_(g.tensors.size(), XNN_INVALID_VALUE_ID) {}

Status SubgraphBuilder::check(enum xnn_status status, const char* what) {
  if (status == xnn_status_success) return Status();
  return Status::error(path_ + ": XNNPACK rejected " + what + " (" + xnn_status_name(status) + ")");
}

Result<uint32_t> SubgraphBuilder::define_value(const std::vector<int64_t>& dims, const float* data,
                                               uint32_t external_id, uint32_t flags) {
  const std::vector<size_t> sizes(dims.begin(), dims.end());
  uint32_t id = XNN_INVALID_VALUE_ID;
  TESSERA_RETURN_IF_ERROR(check(
      xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, sizes.size(), sizes.data(), data, external_id, flags, &id),
      "a tensor value"));
  return id;
}

Result<uint32_t> SubgraphBuilder::constant(const std::vector<int64_t>& dims, std::vector<float> data) {
  data.resize(data.size() + kExtraFloats, 0.0f);  // XNNPACK may read XNN_EXTRA_BYTES past the end
  static_data_.push_back(std::move(data));
  return define_value(dims, static_data_.back().data(), XNN_INVALID_VALUE_ID, 0);
}

Status SubgraphBuilder::define_external(int tensor, uint32_t external_id, bool is_input) {
  const Tensor& t = g_.tensors[tensor];
  path_ = "tensor \"" + t.name + "\"";
  TESSERA_ASSIGN_OR_RETURN(values_[tensor],
                           define_value(physical_dims(t.shape, t.layout), nullptr, external_id,
                                        is_input ? XNN_VALUE_FLAG_EXTERNAL_INPUT : XNN_VALUE_FLAG_EXTERNAL_OUTPUT));
  return Status();
}

Result<uint32_t> SubgraphBuilder::output_value(const Node& node) {
  if (values_[node.output] == XNN_INVALID_VALUE_ID) {
    const Tensor& t = g_.tensors[node.output];
    TESSERA_ASSIGN_OR_RETURN(values_[node.output], internal(physical_dims(t.shape, t.layout)));
  }
  return values_[node.output];
}

Result<uint32_t> SubgraphBuilder::operand(int operand, const Tensor& out, float scale) {
  const Tensor& t = g_.tensors[operand];
  const ops::Shape padded = padded_shape(t, out);
  const std::vector<int64_t> view = physical_dims(padded, out.layout);
  if (t.is_constant()) {
    const PermutedCopy copy =
        plan_permuted_copy(padded, ops::Layout::identity(static_cast<int>(padded.size())), out.layout);
    std::vector<float> data(ops::element_count(padded));
    run_permuted_copy(copy, t.floats(), data.data(), 0, copy.dims[0]);
    if (scale != 1.0f) {
      for (float& v : data) v *= scale;
    }
    return constant(view, std::move(data));
  }
  const uint32_t value = values_[operand];
  if (value == XNN_INVALID_VALUE_ID)
    return Status::error(path_ + ": internal error: input \"" + t.name + "\" undefined");
  if (physical_dims(t.shape, t.layout) == view) return value;
  TESSERA_ASSIGN_OR_RETURN(uint32_t reshaped, internal(view));
  const std::vector<size_t> sizes(view.begin(), view.end());
  TESSERA_RETURN_IF_ERROR(
      check(xnn_define_static_reshape(subgraph_, sizes.size(), sizes.data(), value, reshaped, 0), "static_reshape"));
  ++nodes_;
  return reshaped;
}

template <class Produce>
Status SubgraphBuilder::with_epilogue(const ops::Epilogue& e, uint32_t residual, uint32_t out,
                                      const std::vector<int64_t>& dims, bool producer_clamps, Produce&& produce) {
  // y = ((act(clamp(x + residual))) * scale + shift): each step after the producer writes a
  // fresh value, the last one the node's output.
  const bool add = residual != XNN_INVALID_VALUE_ID;
  const bool clamp_node = e.has_clamp() && !add && !producer_clamps;
  const bool scale = e.scale != 1.0f, shift = e.shift != 0.0f;
  int steps = (add || clamp_node) + e.has_activation() + scale + shift;
  auto next = [&]() -> Result<uint32_t> {
    if (steps-- == 0) return out;
    return internal(dims);
  };
  TESSERA_ASSIGN_OR_RETURN(uint32_t x, next());
  TESSERA_RETURN_IF_ERROR(produce(x, add || !producer_clamps ? MinMax() : e.clamp));
  ++nodes_;
  const float inf = MinMax().max;
  if (add || clamp_node) {
    TESSERA_ASSIGN_OR_RETURN(uint32_t y, next());
    TESSERA_RETURN_IF_ERROR(add ? check(xnn_define_add2(subgraph_, e.clamp.min, e.clamp.max, x, residual, y, 0), "add2")
                                : check(xnn_define_clamp(subgraph_, e.clamp.min, e.clamp.max, x, y, 0), "clamp"));
    ++nodes_;
    x = y;
  }
  if (e.has_activation()) {
    TESSERA_ASSIGN_OR_RETURN(uint32_t y, next());
    TESSERA_RETURN_IF_ERROR(emit_unary(e.activation, e.activation_params, x, y, dims));
    x = y;
  }
  if (scale) {
    TESSERA_ASSIGN_OR_RETURN(uint32_t factor, constant({1}, {e.scale}));
    TESSERA_ASSIGN_OR_RETURN(uint32_t y, next());
    TESSERA_RETURN_IF_ERROR(check(xnn_define_multiply2(subgraph_, -inf, inf, x, factor, y, 0), "multiply2"));
    ++nodes_;
    x = y;
  }
  if (shift) {
    TESSERA_ASSIGN_OR_RETURN(uint32_t offset, constant({1}, {e.shift}));
    TESSERA_ASSIGN_OR_RETURN(uint32_t y, next());
    TESSERA_RETURN_IF_ERROR(check(xnn_define_add2(subgraph_, -inf, inf, x, offset, y, 0), "add2"));
    ++nodes_;
  }
  return Status();
}

Status SubgraphBuilder::emit_unary(UnaryOp op, const kernels::UnaryParams& p, uint32_t in, uint32_t out,
                                   const std::vector<int64_t>& dims) {
  const float inf = MinMax().max;
  ++nodes_;
  switch (op) {
    case UnaryOp::kCopy: return check(xnn_define_clamp(subgraph_, -inf, inf, in, out, 0), "clamp");
    case UnaryOp::kRelu: return check(xnn_define_clamp(subgraph_, 0.0f, inf, in, out, 0), "clamp");
    case UnaryOp::kClip: return check(xnn_define_clamp(subgraph_, p.alpha, p.beta, in, out, 0), "clamp");
    case UnaryOp::kLeakyRelu: return check(xnn_define_leaky_relu(subgraph_, p.alpha, in, out, 0), "leaky_relu");
    case UnaryOp::kSigmoid: return check(xnn_define_sigmoid(subgraph_, in, out, 0), "sigmoid");
    case UnaryOp::kHardSwish: return check(xnn_define_hardswish(subgraph_, in, out, 0), "hardswish");
    case UnaryOp::kSqrt: return check(xnn_define_square_root(subgraph_, in, out, 0), "square_root");
    case UnaryOp::kNeg: return check(xnn_define_negate(subgraph_, in, out, 0), "negate");
    case UnaryOp::kAbs: return check(xnn_define_abs(subgraph_, in, out, 0), "abs");
    case UnaryOp::kHardSigmoid: {  // clamp(alpha * x + beta, 0, 1)
      TESSERA_ASSIGN_OR_RETURN(uint32_t alpha, constant({1}, {p.alpha}));
      TESSERA_ASSIGN_OR_RETURN(uint32_t beta, constant({1}, {p.beta}));
      TESSERA_ASSIGN_OR_RETURN(uint32_t scaled, internal(dims));
      TESSERA_RETURN_IF_ERROR(check(xnn_define_multiply2(subgraph_, -inf, inf, in, alpha, scaled, 0), "multiply2"));
      ++nodes_;
      return check(xnn_define_add2(subgraph_, 0.0f, 1.0f, scaled, beta, out, 0), "add2");
    }
    default: return Status::error(path_ + ": internal error: unsupported activation");
  }
}

Status SubgraphBuilder::emit_conv(const Node& node) {
  const auto& a = std::get<ops::ConvAttrs>(node.attrs);
  const Tensor& x = g_.tensors[node.inputs[0]];
  const Tensor& y = g_.tensors[node.output];
  const int64_t C = x.shape[1], M = y.shape[1], KH = a.kernel_h, KW = a.kernel_w;
  const int64_t cg = C / a.group, mg = M / a.group;
  const bool depthwise = a.group > 1 && cg == 1;
  // ONNX weights are [M, C/group, KH, KW]; XNNPACK wants [M, KH, KW, C/group], or
  // [1, KH, KW, M] for a depthwise convolution.
  std::vector<float> filter(M * KH * KW * cg);
  std::vector<float> scaled;
  const float* wd = conv_weights(g_, node, a, false).scaled(scaled);
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t c = 0; c < cg; ++c) {
      for (int64_t k = 0; k < KH * KW; ++k) {
        const float v = wd[(m * cg + c) * KH * KW + k];
        filter[depthwise ? k * M + m : (m * KH * KW + k) * cg + c] = v;
      }
    }
  }
  std::vector<float> bias(M, 0.0f);
  if (a.has_bias) std::copy_n(g_.tensors[node.inputs[2]].floats(), M, bias.begin());
  const std::vector<int64_t> filter_dims =
      depthwise ? std::vector<int64_t>{1, KH, KW, M} : std::vector<int64_t>{M, KH, KW, cg};
  TESSERA_ASSIGN_OR_RETURN(uint32_t filter_id, constant(filter_dims, std::move(filter)));
  TESSERA_ASSIGN_OR_RETURN(uint32_t bias_id, constant({M}, std::move(bias)));
  uint32_t residual = XNN_INVALID_VALUE_ID;
  if (a.epilogue.residual_input >= 0) {
    TESSERA_ASSIGN_OR_RETURN(residual, operand(node.inputs[a.epilogue.residual_input], y));
  }
  TESSERA_ASSIGN_OR_RETURN(uint32_t out, output_value(node));
  const uint32_t in = values_[node.inputs[0]];
  const auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
  return with_epilogue(
      a.epilogue, residual, out, physical_dims(y.shape, y.layout), true, [&](uint32_t target, MinMax clamp) {
        if (depthwise) {
          return check(xnn_define_depthwise_convolution_2d(subgraph_, u(a.pad_top), u(a.pad_right), u(a.pad_bottom),
                                                           u(a.pad_left), u(KH), u(KW), u(a.stride_h), u(a.stride_w),
                                                           u(a.dilation_h), u(a.dilation_w), u(mg), C, clamp.min,
                                                           clamp.max, in, filter_id, bias_id, target, 0),
                       "depthwise_convolution_2d");
        }
        return check(
            xnn_define_convolution_2d(subgraph_, u(a.pad_top), u(a.pad_right), u(a.pad_bottom), u(a.pad_left), u(KH),
                                      u(KW), u(a.stride_h), u(a.stride_w), u(a.dilation_h), u(a.dilation_w), u(a.group),
                                      cg, mg, clamp.min, clamp.max, in, filter_id, bias_id, target, 0),
            "convolution_2d");
      });
}

Status SubgraphBuilder::emit_matmul(const Node& node) {
  const auto& a = std::get<ops::MatMulAttrs>(node.attrs);
  const Tensor& b = g_.tensors[node.inputs[1]];
  const Tensor& y = g_.tensors[node.output];
  const ops::MatMulDims d = ops::matmul_dims(a, g_.shapes_of(node));
  // fully_connected's filter is [N, K]; alpha scales it (alpha * (A B) = A (alpha B)).
  std::vector<float> filter(d.n * d.k);
  for (int64_t n = 0; n < d.n; ++n) {
    for (int64_t k = 0; k < d.k; ++k) {
      filter[n * d.k + k] = a.alpha * (a.trans_b ? b.floats()[n * d.k + k] : b.floats()[k * d.n + n]);
    }
  }
  std::vector<float> bias(d.n, 0.0f);
  if (a.bias_input >= 0) {
    const Tensor& c = g_.tensors[node.inputs[a.bias_input]];
    const bool scalar = ops::element_count(c.shape) == 1;
    for (int64_t n = 0; n < d.n; ++n) bias[n] = a.bias_scale * c.floats()[scalar ? 0 : n];
  }
  TESSERA_ASSIGN_OR_RETURN(uint32_t filter_id, constant({d.n, d.k}, std::move(filter)));
  TESSERA_ASSIGN_OR_RETURN(uint32_t bias_id, constant({d.n}, std::move(bias)));
  uint32_t residual = XNN_INVALID_VALUE_ID;
  if (a.epilogue.residual_input >= 0) {
    TESSERA_ASSIGN_OR_RETURN(residual, operand(node.inputs[a.epilogue.residual_input], y, a.residual_scale));
  }
  TESSERA_ASSIGN_OR_RETURN(uint32_t out, output_value(node));
  const uint32_t in = values_[node.inputs[0]];
  return with_epilogue(
      a.epilogue, residual, out, physical_dims(y.shape, y.layout), true, [&](uint32_t target, MinMax clamp) {
        return check(xnn_define_fully_connected(subgraph_, clamp.min, clamp.max, in, filter_id, bias_id, target, 0),
                     "fully_connected");
      });
}

Status SubgraphBuilder::emit_pool(const Node& node) {
  const auto& a = std::get<ops::PoolAttrs>(node.attrs);
  const float inf = MinMax().max;
  uint32_t in = values_[node.inputs[0]];
  TESSERA_ASSIGN_OR_RETURN(uint32_t out, output_value(node));
  ++nodes_;
  if (a.kind == ops::PoolAttrs::Kind::kGlobalAverage) {
    return check(xnn_define_global_average_pooling_2d(subgraph_, -inf, inf, in, out, 0), "global_average_pooling_2d");
  }
  const Tensor& x = g_.tensors[node.inputs[0]];
  auto p = *xnnpack_pool_pads(a, x.shape, g_.tensors[node.output].shape);
  const auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
  const bool padded = std::any_of(p.begin(), p.end(), [](int64_t v) { return v != 0; });
  if (a.kind == ops::PoolAttrs::Kind::kAverage && a.count_include_pad && padded) {
    // The padding's zeros count: pad first, then average without padding (classify_pool
    // accepted only pads that are all declared).
    std::vector<int64_t> dims = physical_dims(x.shape, x.layout);  // N, H, W, C
    dims[1] += p[0] + p[2];
    dims[2] += p[1] + p[3];
    TESSERA_ASSIGN_OR_RETURN(uint32_t padded, internal(dims));
    const size_t pre[4] = {0, u(p[0]), u(p[1]), 0}, post[4] = {0, u(p[2]), u(p[3]), 0};
    TESSERA_RETURN_IF_ERROR(
        check(xnn_define_static_constant_pad(subgraph_, pre, post, 0.0f, in, padded, 0), "static_constant_pad"));
    ++nodes_;
    in = padded;
    p = {0, 0, 0, 0};
  }
  if (a.kind == ops::PoolAttrs::Kind::kMax) {
    return check(xnn_define_max_pooling_2d(subgraph_, u(p[0]), u(p[3]), u(p[2]), u(p[1]), u(a.kernel_h), u(a.kernel_w),
                                           u(a.stride_h), u(a.stride_w), u(a.dilation_h), u(a.dilation_w), -inf, inf,
                                           in, out, 0),
                 "max_pooling_2d");
  }
  return check(xnn_define_average_pooling_2d(subgraph_, u(p[0]), u(p[3]), u(p[2]), u(p[1]), u(a.kernel_h),
                                             u(a.kernel_w), u(a.stride_h), u(a.stride_w), -inf, inf, in, out, 0),
               "average_pooling_2d");
}

Status SubgraphBuilder::emit_deconvolution(const Node& node) {
  const auto& a = std::get<ops::ConvTransposeAttrs>(node.attrs);
  const Tensor& x = g_.tensors[node.inputs[0]];
  const Tensor& y = g_.tensors[node.output];
  const int64_t C = x.shape[1], M = y.shape[1], KH = a.kernel_h, KW = a.kernel_w;
  const int64_t cg = C / a.group, mg = M / a.group;
  // ONNX weights are [C, M/group, KH, KW]; XNNPACK wants [M, KH, KW, C/group].
  std::vector<float> filter(M * KH * KW * cg);
  std::vector<float> scaled;
  const float* wd = conv_weights(g_, node, a, true).scaled(scaled);
  for (int64_t c = 0; c < C; ++c) {
    const int64_t group = c / cg, ic = c % cg;
    for (int64_t oc = 0; oc < mg; ++oc) {
      for (int64_t k = 0; k < KH * KW; ++k) {
        filter[((group * mg + oc) * KH * KW + k) * cg + ic] = wd[(c * mg + oc) * KH * KW + k];
      }
    }
  }
  std::vector<float> bias(M, 0.0f);
  if (a.has_bias) std::copy_n(g_.tensors[node.inputs[2]].floats(), M, bias.begin());
  TESSERA_ASSIGN_OR_RETURN(uint32_t filter_id, constant({M, KH, KW, cg}, std::move(filter)));
  TESSERA_ASSIGN_OR_RETURN(uint32_t bias_id, constant({M}, std::move(bias)));
  uint32_t residual = XNN_INVALID_VALUE_ID;
  if (a.epilogue.residual_input >= 0) {
    TESSERA_ASSIGN_OR_RETURN(residual, operand(node.inputs[a.epilogue.residual_input], y));
  }
  TESSERA_ASSIGN_OR_RETURN(uint32_t out, output_value(node));
  const auto adjust = *deconvolution_adjustment(a, x.shape, y.shape);
  const auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
  const uint32_t in = values_[node.inputs[0]];
  return with_epilogue(
      a.epilogue, residual, out, physical_dims(y.shape, y.layout), true, [&](uint32_t target, MinMax clamp) {
        return check(xnn_define_deconvolution_2d(subgraph_, u(a.pad_top), u(a.pad_right), u(a.pad_bottom),
                                                 u(a.pad_left), u(adjust[0]), u(adjust[1]), u(KH), u(KW), u(a.stride_h),
                                                 u(a.stride_w), u(a.dilation_h), u(a.dilation_w), u(a.group), cg, mg,
                                                 clamp.min, clamp.max, in, filter_id, bias_id, target, 0),
                     "deconvolution_2d");
      });
}

Status SubgraphBuilder::emit_binary(const Node& node) {
  const auto& a = std::get<ops::BinaryAttrs>(node.attrs);
  const Tensor& y = g_.tensors[node.output];
  TESSERA_ASSIGN_OR_RETURN(uint32_t lhs, operand(node.inputs[0], y));
  uint32_t rhs = XNN_INVALID_VALUE_ID;
  if (a.op != kernels::BinaryOp::kPow) {
    TESSERA_ASSIGN_OR_RETURN(rhs, operand(node.inputs[1], y));
  }
  TESSERA_ASSIGN_OR_RETURN(uint32_t out, output_value(node));
  using kernels::BinaryOp;
  const bool clamps = a.op != BinaryOp::kPow && a.op != BinaryOp::kMax && a.op != BinaryOp::kMin;
  return with_epilogue(
      a.epilogue, XNN_INVALID_VALUE_ID, out, physical_dims(y.shape, y.layout), clamps, [&](uint32_t target, MinMax c) {
        switch (a.op) {
          case BinaryOp::kAdd: return check(xnn_define_add2(subgraph_, c.min, c.max, lhs, rhs, target, 0), "add2");
          case BinaryOp::kSub:
            return check(xnn_define_subtract(subgraph_, c.min, c.max, lhs, rhs, target, 0), "subtract");
          case BinaryOp::kMul:
            return check(xnn_define_multiply2(subgraph_, c.min, c.max, lhs, rhs, target, 0), "multiply2");
          case BinaryOp::kDiv: return check(xnn_define_divide(subgraph_, c.min, c.max, lhs, rhs, target, 0), "divide");
          case BinaryOp::kMax: return check(xnn_define_maximum2(subgraph_, lhs, rhs, target, 0), "maximum2");
          case BinaryOp::kMin: return check(xnn_define_minimum2(subgraph_, lhs, rhs, target, 0), "minimum2");
          case BinaryOp::kPow: return check(xnn_define_square(subgraph_, lhs, target, 0), "square");  // x^2 only
        }
        return Status::error(path_ + ": internal error: unknown binary op");
      });
}

Status SubgraphBuilder::emit(const Node& node, const std::string& path) {
  path_ = path;
  const Tensor& y = g_.tensors[node.output];
  if (y.alias_of >= 0) {  // a view, or a relayout that moves no bytes
    const uint32_t in = values_[node.inputs[0]];
    TESSERA_ASSIGN_OR_RETURN(uint32_t out, output_value(node));
    const std::vector<int64_t> dims = physical_dims(y.shape, y.layout);
    const std::vector<size_t> sizes(dims.begin(), dims.end());
    ++nodes_;
    return check(xnn_define_static_reshape(subgraph_, sizes.size(), sizes.data(), in, out, 0), "static_reshape");
  }
  if (std::holds_alternative<ops::ConvAttrs>(node.attrs)) return emit_conv(node);
  if (std::holds_alternative<ops::MatMulAttrs>(node.attrs)) return emit_matmul(node);
  if (std::holds_alternative<ops::PoolAttrs>(node.attrs)) return emit_pool(node);
  if (std::holds_alternative<ops::BinaryAttrs>(node.attrs)) return emit_binary(node);
  if (std::holds_alternative<ops::ConvTransposeAttrs>(node.attrs)) return emit_deconvolution(node);
  const uint32_t in = values_[node.inputs[0]];
  TESSERA_ASSIGN_OR_RETURN(uint32_t out, output_value(node));
  if (const auto* u = std::get_if<ops::UnaryAttrs>(&node.attrs)) {
    return emit_unary(u->op, u->params, in, out, physical_dims(y.shape, y.layout));
  }
  ++nodes_;
  if (std::holds_alternative<ops::SoftmaxAttrs>(node.attrs))
    return check(xnn_define_softmax(subgraph_, in, out, 0), "softmax");
  if (const auto* r = std::get_if<ops::ResizeAttrs>(&node.attrs)) {
    return check(
        xnn_define_static_resize_bilinear_2d(subgraph_, y.shape[2], y.shape[3], in, out, *resize_flags(*r, y.shape)),
        "static_resize_bilinear_2d");
  }
  if (const auto* p = std::get_if<ops::PadAttrs>(&node.attrs)) {
    const auto amounts = *pad_amounts(*p, g_.tensors[node.inputs[0]], y);
    return check(xnn_define_static_constant_pad(subgraph_, amounts[0].data(), amounts[1].data(), p->value, in, out, 0),
                 "static_constant_pad");
  }
  return Status::error(path_ + ": internal error: no XNNPACK translation");
}

}  // namespace tessera::xnnpack
