// Elementwise unary ops: parsing of each ONNX activation, identity footprint, bound kernel.
#include "core/ops/unary.h"

#include <algorithm>

#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

using kernels::UnaryOp;

const char* unary_op_name(UnaryOp op) {
  switch (op) {
    case UnaryOp::kCopy: return "Identity";
    case UnaryOp::kRelu: return "Relu";
    case UnaryOp::kLeakyRelu: return "LeakyRelu";
    case UnaryOp::kClip: return "Clip";
    case UnaryOp::kSigmoid: return "Sigmoid";
    case UnaryOp::kTanh: return "Tanh";
    case UnaryOp::kHardSigmoid: return "HardSigmoid";
    case UnaryOp::kHardSwish: return "HardSwish";
    case UnaryOp::kErf: return "Erf";
    case UnaryOp::kGelu: return "Gelu";
    case UnaryOp::kGeluTanh: return "Gelu(tanh)";
    case UnaryOp::kSqrt: return "Sqrt";
    case UnaryOp::kExp: return "Exp";
    case UnaryOp::kNeg: return "Neg";
    case UnaryOp::kAbs: return "Abs";
    case UnaryOp::kReciprocal: return "Reciprocal";
    case UnaryOp::kSin: return "Sin";
    case UnaryOp::kCos: return "Cos";
    case UnaryOp::kLog: return "Log";
    case UnaryOp::kFloor: return "Floor";
    case UnaryOp::kCeil: return "Ceil";
    case UnaryOp::kRound: return "Round";
    case UnaryOp::kSign: return "Sign";
    case UnaryOp::kSoftplus: return "Softplus";
    case UnaryOp::kElu: return "Elu";
    case UnaryOp::kSelu: return "Selu";
    case UnaryOp::kMish: return "Mish";
  }
  return "?";
}

Result<ParsedOp> parse_unary(NodeParser& p) {
  const std::string& name = p.desc().op;
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, name == "Clip" ? 3 : 1));
  TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  UnaryAttrs a;
  if (name == "Relu") {
    a.op = UnaryOp::kRelu;
  } else if (name == "LeakyRelu") {
    a.op = UnaryOp::kLeakyRelu;
    TESSERA_ASSIGN_OR_RETURN(a.params.alpha, p.get_float("alpha", 0.01f));
  } else if (name == "Clip") {
    // Opset 6 has min/max attributes; opset 11+ has optional constant inputs.
    a.op = UnaryOp::kClip;
    TESSERA_ASSIGN_OR_RETURN(a.params.alpha, p.get_float("min", kernels::MinMax().min));
    TESSERA_ASSIGN_OR_RETURN(a.params.beta, p.get_float("max", kernels::MinMax().max));
    if (p.has_input(1)) {
      TESSERA_ASSIGN_OR_RETURN(a.params.alpha, p.constant_scalar(1, "Clip min"));
    }
    if (p.has_input(2)) {
      TESSERA_ASSIGN_OR_RETURN(a.params.beta, p.constant_scalar(2, "Clip max"));
    }
  } else if (name == "Sigmoid") {
    a.op = UnaryOp::kSigmoid;
  } else if (name == "Tanh") {
    a.op = UnaryOp::kTanh;
  } else if (name == "HardSigmoid") {
    a.op = UnaryOp::kHardSigmoid;
    TESSERA_ASSIGN_OR_RETURN(a.params.alpha, p.get_float("alpha", 0.2f));
    TESSERA_ASSIGN_OR_RETURN(a.params.beta, p.get_float("beta", 0.5f));
  } else if (name == "HardSwish") {
    a.op = UnaryOp::kHardSwish;
  } else if (name == "Erf") {
    a.op = UnaryOp::kErf;
  } else if (name == "Gelu") {
    TESSERA_ASSIGN_OR_RETURN(std::string approximate, p.get_string("approximate", "none"));
    if (approximate != "none" && approximate != "tanh") {
      return p.error("attribute \"approximate\" must be \"none\" or \"tanh\", got \"" + approximate + "\"");
    }
    a.op = approximate == "none" ? UnaryOp::kGelu : UnaryOp::kGeluTanh;
  } else if (name == "Sqrt") {
    a.op = UnaryOp::kSqrt;
  } else {
    return p.error("is not a unary op");
  }
  return ParsedOp{a, p.shape(0)};
}

OpCost cost(const UnaryAttrs&, const OpShapes&, const Region& out) {
  const double n = static_cast<double>(out.element_count());
  return {n, 8 * n};
}

std::optional<Region> footprint(const UnaryAttrs&, const OpShapes&, const Region& out, int) { return out; }

TilingHints tiling_hints(const UnaryAttrs&, const OpShapes& s, const Layout& layout) {
  return elementwise_tiling_hints(s.output, layout);
}

LayoutChoice choose_layout(const UnaryAttrs&, const OpShapes&, const LayoutQuery& q) {
  return {{std::nullopt}, q.inputs[0]};
}

void reference(const UnaryAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const int64_t n = element_count(s.output);
  for (int64_t i = 0; i < n; ++i) out[i] = kernels::unary_reference(a.op, a.params, in[0][i]);
}

namespace {

class UnaryKernel final : public TileKernel {
 public:
  UnaryKernel(const UnaryAttrs& a, const BindArgs& args)
      : attrs_(a), in_(args.inputs[0]), out_(args.output), kernels_(kernels::best_elementwise_kernels(args.max_isa)) {}

  // Strided runs (only from tilings that split a tensor's innermost dimension) are
  // gathered in chunks of this size.
  static constexpr int64_t kGatherChunk = 1024;

  void run(const Region& region, const ExecContext& ctx) const override {
    const float* x = input_data(in_, ctx);
    float* y = tensor_data(out_, ctx);
    walk_region(region, out_.layout, std::array<Strides, 2>{in_.strides, out_.strides},
                [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
                  if (step[0] == 1 && step[1] == 1) {
                    kernels_.unary(attrs_.op, attrs_.params, count, x + off[0], y + off[1]);
                    return;
                  }
                  for (int64_t done = 0; done < count; done += kGatherChunk) {
                    const int64_t n = std::min(kGatherChunk, count - done);
                    for (int64_t i = 0; i < n; ++i) ctx.scratch[i] = x[off[0] + (done + i) * step[0]];
                    kernels_.unary(attrs_.op, attrs_.params, n, ctx.scratch, ctx.scratch);
                    for (int64_t i = 0; i < n; ++i) y[off[1] + (done + i) * step[1]] = ctx.scratch[i];
                  }
                });
  }
  size_t scratch_floats(const Region&) const override { return kGatherChunk; }
  std::string kernel_name() const override { return kernels_.name; }

 private:
  UnaryAttrs attrs_;
  TensorBinding in_, out_;
  const kernels::ElementwiseKernels& kernels_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const UnaryAttrs& a, const BindArgs& args) {
  return std::unique_ptr<TileKernel>(new UnaryKernel(a, args));
}

}  // namespace tessera::ops
