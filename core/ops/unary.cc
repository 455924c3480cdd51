// Elementwise unary ops: parsing of each ONNX activation and math function, identity footprint,
// bound kernel; Neg, Abs and Sign also on int64 and int32 tensors.
#include "core/ops/unary.h"

#include <algorithm>
#include <iterator>
#include <type_traits>

#include "core/base/check.h"
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

namespace {

// The ops with no attributes: ONNX name -> function.
struct PlainUnary {
  const char* name;
  UnaryOp op;
};
constexpr PlainUnary kPlainUnary[] = {
    {"Relu", UnaryOp::kRelu},   {"Sigmoid", UnaryOp::kSigmoid},
    {"Tanh", UnaryOp::kTanh},   {"HardSwish", UnaryOp::kHardSwish},
    {"Erf", UnaryOp::kErf},     {"Sqrt", UnaryOp::kSqrt},
    {"Exp", UnaryOp::kExp},     {"Log", UnaryOp::kLog},
    {"Neg", UnaryOp::kNeg},     {"Abs", UnaryOp::kAbs},
    {"Sign", UnaryOp::kSign},   {"Reciprocal", UnaryOp::kReciprocal},
    {"Sin", UnaryOp::kSin},     {"Cos", UnaryOp::kCos},
    {"Floor", UnaryOp::kFloor}, {"Ceil", UnaryOp::kCeil},
    {"Round", UnaryOp::kRound}, {"Softplus", UnaryOp::kSoftplus},
    {"Mish", UnaryOp::kMish},
};

// The functions that also take int64 and int32 tensors (integer_unary below).
bool has_integer_form(UnaryOp op) { return op == UnaryOp::kNeg || op == UnaryOp::kAbs || op == UnaryOp::kSign; }

}  // namespace

Result<ParsedOp> parse_unary(NodeParser& p) {
  const std::string& name = p.desc().op;
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, name == "Clip" ? 3 : 1));
  UnaryAttrs a;
  const auto plain =
      std::find_if(std::begin(kPlainUnary), std::end(kPlainUnary), [&](const PlainUnary& u) { return name == u.name; });
  if (plain != std::end(kPlainUnary)) {
    a.op = plain->op;
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
  } else if (name == "HardSigmoid") {
    a.op = UnaryOp::kHardSigmoid;
    TESSERA_ASSIGN_OR_RETURN(a.params.alpha, p.get_float("alpha", 0.2f));
    TESSERA_ASSIGN_OR_RETURN(a.params.beta, p.get_float("beta", 0.5f));
  } else if (name == "Gelu") {
    TESSERA_ASSIGN_OR_RETURN(std::string approximate, p.get_string("approximate", "none"));
    if (approximate != "none" && approximate != "tanh") {
      return p.error("attribute \"approximate\" must be \"none\" or \"tanh\", got \"" + approximate + "\"");
    }
    a.op = approximate == "none" ? UnaryOp::kGelu : UnaryOp::kGeluTanh;
  } else if (name == "Elu") {
    a.op = UnaryOp::kElu;
    TESSERA_ASSIGN_OR_RETURN(a.params.alpha, p.get_float("alpha", 1.0f));
  } else if (name == "Selu") {
    // The defaults are the float32 values of ONNX's constants.
    a.op = UnaryOp::kSelu;
    TESSERA_ASSIGN_OR_RETURN(a.params.alpha, p.get_float("alpha", 1.67326319217681884765625f));
    TESSERA_ASSIGN_OR_RETURN(a.params.beta, p.get_float("gamma", 1.05070102214813232421875f));
  } else {
    return p.error("is not a unary op");
  }
  if (has_integer_form(a.op)) {
    TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, {DType::kFloat32, DType::kInt64, DType::kInt32}));
  } else {
    TESSERA_RETURN_IF_ERROR(p.expect_float(0));
  }
  return ParsedOp{a, p.shape(0), {}, p.dtype(0)};
}

OpCost cost(const UnaryAttrs& a, const OpShapes& s, const Region& out) {
  const double n = static_cast<double>(out.element_count());
  return {.flops = n,
          .bytes = 2.0 * static_cast<double>(dtype_size(s.output_dtype)) * n,
          .kind = WorkKind::kUnary,
          .unary = a.op};
}

std::optional<Region> footprint(const UnaryAttrs&, const OpShapes&, const Region& out, int) { return out; }

TilingHints tiling_hints(const UnaryAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const UnaryAttrs&, const OpShapes& s, const LayoutQuery& q) {
  if (s.output_dtype != DType::kFloat32) {  // typed tensors stay row-major
    const Layout identity = Layout::identity(static_cast<int>(s.output.size()));
    return {{identity}, identity};
  }
  return {{std::nullopt}, q.inputs[0]};
}

namespace {

// Neg, Abs and Sign of an integer. Neg and Abs of the most negative value wrap around to
// itself (two's complement, as numpy and onnxruntime), computed in unsigned arithmetic
// because signed overflow is undefined in C++.
template <class T>
T integer_unary(UnaryOp op, T x) {
  using U = std::make_unsigned_t<T>;
  const T negated = static_cast<T>(U{0} - static_cast<U>(x));
  switch (op) {
    case UnaryOp::kNeg: return negated;
    case UnaryOp::kAbs: return x < 0 ? negated : x;
    default: TESSERA_CHECK(op == UnaryOp::kSign); return static_cast<T>((x > 0) - (x < 0));
  }
}

template <class T>
void integer_reference(UnaryOp op, int64_t n, const void* in, void* out) {
  const T* x = static_cast<const T*>(in);
  T* y = static_cast<T*>(out);
  for (int64_t i = 0; i < n; ++i) y[i] = integer_unary(op, x[i]);
}

}  // namespace

void reference(const UnaryAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const int64_t n = element_count(s.output);
  if (s.output_dtype == DType::kInt64) return integer_reference<int64_t>(a.op, n, in_data[0], out_data);
  if (s.output_dtype == DType::kInt32) return integer_reference<int32_t>(a.op, n, in_data[0], out_data);
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
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

// Neg, Abs and Sign of int64 or int32 tensors: a plain loop over each run of the region.
template <class T>
class IntegerUnaryKernel final : public TileKernel {
 public:
  IntegerUnaryKernel(const UnaryAttrs& a, const BindArgs& args, const char* name)
      : op_(a.op), in_(args.inputs[0]), out_(args.output), name_(name) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(in_, ctx);
    T* y = tensor_data<T>(out_, ctx);
    walk_region(region, out_.layout, std::array<Strides, 2>{in_.strides, out_.strides},
                [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
                  for (int64_t i = 0; i < count; ++i) {
                    y[off[1] + i * step[1]] = integer_unary(op_, x[off[0] + i * step[0]]);
                  }
                });
  }
  std::string kernel_name() const override { return name_; }

 private:
  UnaryOp op_;
  TensorBinding in_, out_;
  const char* name_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const UnaryAttrs& a, const BindArgs& args) {
  if (args.output.dtype == DType::kInt64) {
    return std::unique_ptr<TileKernel>(new IntegerUnaryKernel<int64_t>(a, args, "i64_unary"));
  }
  if (args.output.dtype == DType::kInt32) {
    return std::unique_ptr<TileKernel>(new IntegerUnaryKernel<int32_t>(a, args, "i32_unary"));
  }
  return std::unique_ptr<TileKernel>(new UnaryKernel(a, args));
}

}  // namespace tessera::ops
