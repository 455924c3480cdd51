// The operator schema: one entry per ONNX op Tessera runs, with its attributes, supported
// values, the ONNX attributes the converter may drop, its shape-like inputs and its outputs.
// The converter (ops.js), the exporter, the operator table of docs/model-format.md
// (scripts/op-docs.mjs), the conformance run and tests/js/schema.test.mjs all read this file;
// docs/model-format.md ("Operator schema") describes the fields.
//
// It is an ES module rather than a .json file so that `import` works everywhere the converter
// runs (Node 20.0+, browsers, any bundler) without JSON import attributes. Everything after
// "export default " is strict JSON (double quotes, no comments, no trailing commas) up to the
// final ";": C++ and other readers take that text and parse it as JSON.
export default {
  "ops": {
    "Conv": {
      "doc": "2-D; `group` incl. depthwise, `strides`, `pads`, `auto_pad` (`NOTSET`, `SAME_UPPER`, `SAME_LOWER`, `VALID`), `dilations`, `kernel_shape` (optional, must match the weights)",
      "attrs": { "kernel_shape": "ints", "strides": "ints", "pads": "ints", "auto_pad": "string", "dilations": "ints", "group": "int" },
      "values": { "auto_pad": ["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"] }
    },
    "Gemm": {
      "doc": "`alpha`, `beta`, `transA`, `transB`; `C` broadcast to the output",
      "attrs": { "alpha": "float", "beta": "float", "transA": "int", "transB": "int" },
      "drop": { "broadcast": "any" }
    },
    "MatMul": {
      "doc": "1-D, 2-D and batched with numpy broadcasting of batch dimensions"
    },
    "Add": {
      "doc": "numpy (multidirectional) broadcasting",
      "drop": { "consumed_inputs": "any" }
    },
    "Sub": {
      "doc": "numpy (multidirectional) broadcasting",
      "drop": { "consumed_inputs": "any" }
    },
    "Mul": {
      "doc": "numpy (multidirectional) broadcasting",
      "drop": { "consumed_inputs": "any" }
    },
    "Div": {
      "doc": "numpy (multidirectional) broadcasting",
      "drop": { "consumed_inputs": "any" }
    },
    "Pow": {
      "doc": "numpy (multidirectional) broadcasting"
    },
    "Relu": {
      "doc": "elementwise",
      "drop": { "consumed_inputs": "any" }
    },
    "LeakyRelu": {
      "doc": "elementwise",
      "attrs": { "alpha": "float" },
      "drop": { "consumed_inputs": "any" }
    },
    "Sigmoid": {
      "doc": "elementwise",
      "drop": { "consumed_inputs": "any" }
    },
    "Tanh": {
      "doc": "elementwise",
      "drop": { "consumed_inputs": "any" }
    },
    "HardSigmoid": {
      "doc": "elementwise",
      "attrs": { "alpha": "float", "beta": "float" },
      "drop": { "consumed_inputs": "any" }
    },
    "HardSwish": {
      "doc": "elementwise"
    },
    "Erf": {
      "doc": "elementwise"
    },
    "Gelu": {
      "doc": "elementwise",
      "attrs": { "approximate": "string" },
      "values": { "approximate": ["none", "tanh"] }
    },
    "Sqrt": {
      "doc": "elementwise",
      "drop": { "consumed_inputs": "any" }
    },
    "Clip": {
      "doc": "bounds as inputs 2 and 3 (opset 11+, constant) or as `min`/`max` attributes (opset 6)",
      "attrs": { "min": "float", "max": "float" },
      "drop": { "consumed_inputs": "any" },
      "attr_inputs": { "min": 1, "max": 2 }
    },
    "Softmax": {
      "doc": "opset 13 semantics: one `axis` (default -1)",
      "attrs": { "axis": "int" }
    },
    "LayerNormalization": {
      "doc": "`axis` (default -1), `epsilon`; scale and optional bias; optional outputs Mean and InvStdDev",
      "attrs": { "axis": "int", "epsilon": "float" },
      "drop": { "stash_type": [1] },
      "outputs": 3
    },
    "BatchNormalization": {
      "doc": "inference mode, `epsilon`; only output 0; folded into a preceding Conv where possible",
      "attrs": { "epsilon": "float" },
      "drop": { "momentum": "any", "is_test": "any", "consumed_inputs": "any", "training_mode": [0], "spatial": [1] }
    },
    "MaxPool": {
      "doc": "2-D; `kernel_shape`, `strides`, `pads`, `auto_pad`, `dilations`, `ceil_mode`; AveragePool `count_include_pad`; MaxPool output 0 only",
      "attrs": { "kernel_shape": "ints", "strides": "ints", "pads": "ints", "auto_pad": "string", "dilations": "ints", "ceil_mode": "int" },
      "values": { "auto_pad": ["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"] },
      "drop": { "storage_order": "any" }
    },
    "AveragePool": {
      "doc": "2-D; `kernel_shape`, `strides`, `pads`, `auto_pad`, `dilations`, `ceil_mode`; AveragePool `count_include_pad`; MaxPool output 0 only",
      "attrs": { "kernel_shape": "ints", "strides": "ints", "pads": "ints", "auto_pad": "string", "dilations": "ints", "ceil_mode": "int", "count_include_pad": "int" },
      "values": { "auto_pad": ["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"] }
    },
    "GlobalAveragePool": {
      "doc": "over all spatial dimensions"
    },
    "ReduceMean": {
      "doc": "`axes` as attribute (opset < 18) or constant input (opset 18), `keepdims`, `noop_with_empty_axes`",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "Concat": {
      "doc": "`axis`",
      "attrs": { "axis": "int" }
    },
    "Reshape": {
      "doc": "target shape as a constant int64 input; `0` copies a dimension (unless `allowzero`), `-1` infers one",
      "attrs": { "allowzero": "int" },
      "drop": { "consumed_inputs": "any" },
      "shape_inputs": [1]
    },
    "Flatten": {
      "doc": "`axis` (default 1)",
      "attrs": { "axis": "int" }
    },
    "Transpose": {
      "doc": "`perm` (default: reversed)",
      "attrs": { "perm": "ints" }
    },
    "Squeeze": {
      "doc": "`axes` as attribute (opset < 13) or constant input (opset 13)",
      "attrs": { "axes": "ints" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "Unsqueeze": {
      "doc": "`axes` as attribute (opset < 13) or constant input (opset 13)",
      "attrs": { "axes": "ints" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "Identity": {
      "doc": ""
    },
    "ConvTranspose": {
      "doc": "2-D; `group`, `strides`, `pads`, `auto_pad`, `dilations`, `output_padding`, `output_shape`, `kernel_shape`; weights `[C, M/group, kH, kW]` and optional bias `[M]` are initializers",
      "attrs": { "kernel_shape": "ints", "strides": "ints", "pads": "ints", "auto_pad": "string", "dilations": "ints", "group": "int", "output_padding": "ints", "output_shape": "ints" },
      "values": { "auto_pad": ["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"] }
    },
    "Resize": {
      "doc": "scales or sizes as constant inputs (`X, roi, scales, sizes`, opset 11+; `roi` unused), optional `axes` (opset 18); `mode` `nearest` or `linear`; `coordinate_transformation_mode` `half_pixel`, `half_pixel_symmetric`, `pytorch_half_pixel`, `align_corners`, `asymmetric`; `nearest_mode` `round_prefer_floor`, `round_prefer_ceil`, `floor`, `ceil`; `keep_aspect_ratio_policy`; `exclude_outside` and `antialias` 0 only",
      "attrs": { "mode": "string", "coordinate_transformation_mode": "string", "nearest_mode": "string", "keep_aspect_ratio_policy": "string", "exclude_outside": "int", "antialias": "int", "axes": "ints" },
      "values": { "mode": ["nearest", "linear"], "coordinate_transformation_mode": ["half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric"], "nearest_mode": ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"], "keep_aspect_ratio_policy": ["stretch", "not_larger", "not_smaller"], "exclude_outside": [0], "antialias": [0] },
      "drop": { "cubic_coeff_a": "any", "extrapolation_value": "any" },
      "shape_inputs": [3]
    },
    "Slice": {
      "doc": "`starts`, `ends` and optional `axes`, `steps` as constant int inputs (opset 10+), negative indices and steps, clamped as ONNX specifies",
      "shape_inputs": [1, 2, 3, 4]
    },
    "Gather": {
      "doc": "constant int64/int32 `indices` (any shape, negative allowed), `axis`",
      "attrs": { "axis": "int" },
      "shape_inputs": [1]
    },
    "Cast": {
      "doc": "`to` = 1 (FLOAT) only",
      "attrs": { "to": "int" },
      "values": { "to": [1] },
      "drop": { "saturate": "any" }
    },
    "ReduceSum": {
      "doc": "like ReduceMean",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "ReduceMax": {
      "doc": "like ReduceMean",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "ReduceMin": {
      "doc": "like ReduceMean",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "ReduceProd": {
      "doc": "like ReduceMean",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "ReduceL1": {
      "doc": "like ReduceMean",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "ReduceL2": {
      "doc": "like ReduceMean",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "ReduceLogSum": {
      "doc": "like ReduceMean",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "ReduceLogSumExp": {
      "doc": "like ReduceMean",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "ReduceSumSquare": {
      "doc": "like ReduceMean",
      "attrs": { "axes": "ints", "keepdims": "int", "noop_with_empty_axes": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "axes": 1 }
    },
    "Pad": {
      "doc": "`pads`, optional `constant_value` and `axes` as constant inputs (opset 11+); `mode` `constant`, `reflect`, `edge`",
      "attrs": { "mode": "string" },
      "values": { "mode": ["constant", "reflect", "edge"] },
      "shape_inputs": [1, 3]
    },
    "Split": {
      "doc": "`axis`; sizes as constant input `split` (opset 13+), attribute `split` (older) or `num_outputs` (opset 18); one Tessera node per output internally",
      "attrs": { "axis": "int", "split": "ints", "num_outputs": "int" },
      "shape_inputs": [1],
      "outputs": "variadic",
      "attr_inputs": { "split": 1 }
    },
    "Expand": {
      "doc": "target `shape` as a constant int input",
      "shape_inputs": [1]
    }
  }
};
