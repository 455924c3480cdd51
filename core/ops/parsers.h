// The parse functions named in op_list.inc, one group per op kind file.
#pragma once

#include "core/ops/ops.h"

namespace tessera::ops {

#define TESSERA_ONNX_OP(name, parser) Result<ParsedOp> parser(NodeParser& p);
#include "core/ops/op_list.inc"
#undef TESSERA_ONNX_OP

}  // namespace tessera::ops
