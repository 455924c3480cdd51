// Cast: to the input's own dtype it is a view (aliased, no tile); to another of Tessera's
// dtypes it is a typed elementwise op (element rules: elem::cast in element_functions.h).
#include <iterator>

#include "core/ops/parsers.h"
#include "core/ops/typed_elementwise.h"

namespace tessera::ops {

namespace {

// ONNX TensorProto.DataType numbers of the dtypes Tessera holds.
bool dtype_of_onnx_type(int64_t onnx_type, DType* dtype) {
  switch (onnx_type) {
    case 1: *dtype = DType::kFloat32; return true;
    case 2: *dtype = DType::kUInt8; return true;
    case 6: *dtype = DType::kInt32; return true;
    case 7: *dtype = DType::kInt64; return true;
    case 9: *dtype = DType::kBool; return true;
    default: return false;
  }
}

std::string onnx_type_name(int64_t onnx_type) {
  static constexpr const char* kTypes[] = {"UNDEFINED", "FLOAT",  "UINT8",     "INT8",       "UINT16",  "INT16",
                                           "INT32",     "INT64",  "STRING",    "BOOL",       "FLOAT16", "DOUBLE",
                                           "UINT32",    "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16"};
  if (onnx_type >= 0 && onnx_type < static_cast<int64_t>(std::size(kTypes))) return kTypes[onnx_type];
  return "type " + std::to_string(onnx_type);
}

}  // namespace

Result<ParsedOp> parse_cast(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  if (!p.has_attribute("to")) return p.error("attribute \"to\" is required");
  TESSERA_ASSIGN_OR_RETURN(int64_t to, p.get_int("to", 1));
  // Only casts to float8 types read these (Cast-19 and Cast-25); Tessera has none.
  TESSERA_RETURN_IF_ERROR(p.get_int("saturate", 1).status());
  TESSERA_RETURN_IF_ERROR(p.get_string("round_mode", "up").status());
  DType dtype = DType::kFloat32;
  if (!dtype_of_onnx_type(to, &dtype)) {
    return p.error("Cast to " + onnx_type_name(to) +
                   " is not supported: Tessera's dtypes are FLOAT, INT64, INT32, BOOL and UINT8");
  }
  if (dtype == p.dtype(0)) return ParsedOp{ViewAttrs{}, p.shape(0), {}, dtype};
  return ParsedOp{ElementwiseAttrs{ElementwiseOp::kCast}, p.shape(0), {}, dtype};
}

}  // namespace tessera::ops
