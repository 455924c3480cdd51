// Parsing of the typed elementwise ops: which dtypes each accepts, and the broadcast shape.
#include <string>

#include "core/ops/binary.h"
#include "core/ops/parsers.h"
#include "core/ops/typed_elementwise.h"

namespace tessera::ops {

namespace {

using enum DType;
using Op = ElementwiseOp;

// Every input present (variadic lists have no optional slots), all of input 0's dtype,
// which is one of `allowed`.
Status expect_same_dtype(const NodeParser& p, std::initializer_list<DType> allowed) {
  for (size_t i = 0; i < p.num_inputs(); ++i) {
    if (!p.has_input(i)) return p.error("input " + std::to_string(i) + " is omitted");
  }
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, allowed));
  for (size_t i = 1; i < p.num_inputs(); ++i) TESSERA_RETURN_IF_ERROR(p.expect_dtype(i, {p.dtype(0)}));
  return Status();
}

// The numpy broadcast of all inputs' shapes.
Result<Shape> broadcast_inputs(const NodeParser& p) {
  Shape out = p.shape(0);
  for (size_t i = 1; i < p.num_inputs(); ++i) {
    if (!broadcast_shapes(out, p.shape(i), &out)) {
      std::string shapes;
      for (size_t k = 0; k < p.num_inputs(); ++k) shapes += (k ? " with " : "") + shape_string(p.shape(k));
      return p.error("cannot broadcast " + shapes);
    }
  }
  return out;
}

Result<ParsedOp> elementwise(const NodeParser& p, Op op, DType output_dtype) {
  TESSERA_ASSIGN_OR_RETURN(Shape out, broadcast_inputs(p));
  return ParsedOp{ElementwiseAttrs{op}, out, {}, output_dtype};
}

}  // namespace

Status expect_typed_arithmetic_dtypes(const NodeParser& p, ElementwiseOp op) {
  if (op != Op::kPow) return expect_same_dtype(p, {kFloat32, kInt64, kInt32, kUInt8});
  // The exponent may have another dtype than the base (Pow-12 and later).
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, {kFloat32, kInt64, kInt32}));
  return p.expect_dtype(1, {kFloat32, kInt64, kInt32});
}

// Min, Max (any numeric dtype), Sum, Mean (float32): 1..n inputs.
Result<ParsedOp> parse_variadic(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  if (p.num_inputs() == 0) return p.error("takes at least 1 input, got 0");
  const std::string& name = p.desc().op;
  Op op = Op::kMin;
  if (name == "Min") {
    op = Op::kMin;
  } else if (name == "Max") {
    op = Op::kMax;
  } else if (name == "Sum") {
    op = Op::kSum;
  } else if (name == "Mean") {
    op = Op::kMean;
  } else {
    return p.error("is not a variadic elementwise op");
  }
  if (op == Op::kMin || op == Op::kMax) {
    TESSERA_RETURN_IF_ERROR(expect_same_dtype(p, {kFloat32, kInt64, kInt32, kUInt8}));
  } else {
    TESSERA_RETURN_IF_ERROR(expect_same_dtype(p, {kFloat32}));
  }
  return elementwise(p, op, p.dtype(0));
}

Result<ParsedOp> parse_mod(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  TESSERA_RETURN_IF_ERROR(expect_same_dtype(p, {kFloat32, kInt64, kInt32, kUInt8}));
  TESSERA_ASSIGN_OR_RETURN(int64_t fmod, p.get_int("fmod", 0));
  if (fmod != 0 && fmod != 1) return p.error("attribute \"fmod\" must be 0 or 1, got " + std::to_string(fmod));
  if (fmod == 0 && p.dtype(0) == kFloat32) {
    return p.error("float Mod needs fmod = 1 (fmod = 0 is integer modulo)");
  }
  return elementwise(p, fmod == 1 ? Op::kFmod : Op::kMod, p.dtype(0));
}

// PRelu: the slope broadcasts to X (unidirectionally): the output has X's shape.
Result<ParsedOp> parse_prelu(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  TESSERA_RETURN_IF_ERROR(expect_same_dtype(p, {kFloat32}));
  Shape out;
  if (!broadcast_shapes(p.shape(0), p.shape(1), &out) || out != p.shape(0)) {
    return p.error("slope " + shape_string(p.shape(1)) + " does not broadcast to X " + shape_string(p.shape(0)));
  }
  return ParsedOp{ElementwiseAttrs{Op::kPRelu}, out};
}

// Equal (also on bool), Less, LessOrEqual, Greater, GreaterOrEqual: a bool output.
Result<ParsedOp> parse_comparison(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  const std::string& name = p.desc().op;
  Op op = Op::kEqual;
  if (name == "Equal") {
    op = Op::kEqual;
  } else if (name == "Less") {
    op = Op::kLess;
  } else if (name == "LessOrEqual") {
    op = Op::kLessOrEqual;
  } else if (name == "Greater") {
    op = Op::kGreater;
  } else if (name == "GreaterOrEqual") {
    op = Op::kGreaterOrEqual;
  } else {
    return p.error("is not a comparison");
  }
  if (op == Op::kEqual) {
    TESSERA_RETURN_IF_ERROR(expect_same_dtype(p, {kFloat32, kInt64, kInt32, kUInt8, kBool}));
  } else {
    TESSERA_RETURN_IF_ERROR(expect_same_dtype(p, {kFloat32, kInt64, kInt32, kUInt8}));
  }
  return elementwise(p, op, kBool);
}

// Not, And, Or, Xor on bool tensors.
Result<ParsedOp> parse_logic(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  const std::string& name = p.desc().op;
  Op op = Op::kNot;
  if (name == "Not") {
    op = Op::kNot;
  } else if (name == "And") {
    op = Op::kAnd;
  } else if (name == "Or") {
    op = Op::kOr;
  } else if (name == "Xor") {
    op = Op::kXor;
  } else {
    return p.error("is not a logical op");
  }
  const size_t count = op == Op::kNot ? 1 : 2;
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(count, count));
  TESSERA_RETURN_IF_ERROR(expect_same_dtype(p, {kBool}));
  return elementwise(p, op, kBool);
}

// Where(condition, X, Y): X and Y of any one dtype, all three broadcast together.
Result<ParsedOp> parse_where(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(3, 3));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(0, {kBool}));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(1, {kFloat32, kInt64, kInt32, kBool, kUInt8}));
  TESSERA_RETURN_IF_ERROR(p.expect_dtype(2, {p.dtype(1)}));
  return elementwise(p, Op::kWhere, p.dtype(1));
}

}  // namespace tessera::ops
