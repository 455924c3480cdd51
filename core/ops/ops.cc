// Op dispatch: ONNX op name -> parser, the op contract over the variant (out of line, so the
// files that include ops.h do not each instantiate every visit), and the epilogue accessors.
#include "core/ops/ops.h"

#include "core/base/checked_math.h"
#include "core/ops/parsers.h"

namespace tessera::ops {

namespace {

struct OnnxOp {
  const char* name;
  Result<ParsedOp> (*parse)(NodeParser&);
};

constexpr OnnxOp kOnnxOps[] = {
#define TESSERA_ONNX_OP(name, parser) {#name, parser},
#include "core/ops/op_list.inc"
#undef TESSERA_ONNX_OP
};

const OnnxOp* find_op(const std::string& name) {
  for (const OnnxOp& op : kOnnxOps) {
    if (name == op.name) return &op;
  }
  return nullptr;
}

}  // namespace

Result<ParsedOp> parse_node(const model::NodeDesc& desc, std::vector<ParsedInput> inputs) {
  const OnnxOp* op = find_op(desc.op);
  if (op == nullptr) return Status::error(desc.path() + ": unknown op \"" + desc.op + "\"");
  NodeParser parser(desc, std::move(inputs));
  TESSERA_ASSIGN_OR_RETURN(ParsedOp parsed, op->parse(parser));
  TESSERA_RETURN_IF_ERROR(parser.finish());
  if (desc.outputs.size() != 1 + parsed.more_outputs.size()) {
    return Status::error(desc.path() + ": internal error: parsed " + std::to_string(1 + parsed.more_outputs.size()) +
                         " outputs for " + std::to_string(desc.outputs.size()));
  }
  for (size_t i = 0; i < desc.outputs.size(); ++i) {
    const Shape& shape = i == 0 ? parsed.output : parsed.more_outputs[i - 1].output;
    int64_t count = 0;
    if (!checked_element_count(shape, &count) || shape.size() > kMaxRank) {
      return Status::error(desc.path() + ": output shape " + shape_string(shape) +
                           " is empty, too large or of rank above 8");
    }
  }
  return parsed;
}

OpCost op_cost(const OpAttrs& a, const OpShapes& s, const Region& out) {
  return std::visit([&](const auto& x) { return cost(x, s, out); }, a);
}

std::optional<Region> op_footprint(const OpAttrs& a, const OpShapes& s, const Region& out, int input) {
  return std::visit([&](const auto& x) { return footprint(x, s, out, input); }, a);
}

TilingHints op_tiling_hints(const OpAttrs& a, const OpShapes& s, const TilingQuery& q) {
  return std::visit([&](const auto& x) { return tiling_hints(x, s, q); }, a);
}

LayoutChoice op_choose_layout(const OpAttrs& a, const OpShapes& s, const LayoutQuery& q) {
  return std::visit([&](const auto& x) { return choose_layout(x, s, q); }, a);
}

void op_reference(const OpAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out) {
  std::visit([&](const auto& x) { reference(x, s, in, out); }, a);
}

Result<std::unique_ptr<TileKernel>> op_bind(const OpAttrs& a, const BindArgs& args) {
  return std::visit([&](const auto& x) { return bind(x, args); }, a);
}

int op_algorithm_count(const OpAttrs& a, const OpShapes& s) {
  return std::visit(
      [&](const auto& x) {
        if constexpr (requires { algorithm_count(x, s); }) return algorithm_count(x, s);
        return 1;
      },
      a);
}

int op_algorithm(const OpAttrs& a) {
  return std::visit(
      [](const auto& x) {
        if constexpr (requires { algorithm_of(x); }) return algorithm_of(x);
        return 0;
      },
      a);
}

const char* op_algorithm_name(const OpAttrs& a) {
  return std::visit(
      [](const auto& x) {
        if constexpr (requires { algorithm_name(x); }) return algorithm_name(x);
        return "";
      },
      a);
}

OpAttrs op_with_algorithm(const OpAttrs& a, int algorithm) {
  return std::visit(
      [&](const auto& x) -> OpAttrs {
        if constexpr (requires { with_algorithm(x, algorithm); }) return with_algorithm(x, algorithm);
        return x;
      },
      a);
}

const Epilogue* op_epilogue(const OpAttrs& a) {
  if (auto* conv = std::get_if<ConvAttrs>(&a)) return &conv->epilogue;
  if (auto* transposed = std::get_if<ConvTransposeAttrs>(&a)) return &transposed->epilogue;
  if (auto* matmul = std::get_if<MatMulAttrs>(&a)) return &matmul->epilogue;
  if (auto* binary = std::get_if<BinaryAttrs>(&a)) return &binary->epilogue;
  return nullptr;
}

Epilogue* op_epilogue(OpAttrs& a) { return const_cast<Epilogue*>(op_epilogue(std::as_const(a))); }

}  // namespace tessera::ops
