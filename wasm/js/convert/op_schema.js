// The operator schema: one entry per ONNX op Tessera runs, with its attributes, supported
// values, the ONNX attributes the converter may drop, its shape-like inputs, the inputs it
// reads as constants (weights, folded parameters) and its outputs.
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
      "values": { "auto_pad": ["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"] },
      "constant_inputs": [1, 2]
    },
    "ConvTranspose": {
      "doc": "2-D; `group`, `strides`, `pads`, `auto_pad`, `dilations`, `output_padding`, `output_shape`, `kernel_shape`; weights `[C, M/group, kH, kW]` and optional bias `[M]` are initializers",
      "attrs": { "kernel_shape": "ints", "strides": "ints", "pads": "ints", "auto_pad": "string", "dilations": "ints", "group": "int", "output_padding": "ints", "output_shape": "ints" },
      "values": { "auto_pad": ["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"] },
      "constant_inputs": [1, 2]
    },
    "Gemm": {
      "doc": "`alpha`, `beta`, `transA`, `transB`; `C` broadcast to the output",
      "attrs": { "alpha": "float", "beta": "float", "transA": "int", "transB": "int" },
      "drop": { "broadcast": "any" },
      "constant_inputs": [2]
    },
    "MatMul": {
      "doc": "1-D, 2-D and batched with numpy broadcasting of batch dimensions"
    },
    "Einsum": {
      "doc": "`equation`: explicit (`->`) or implicit output, `...` for broadcast dimensions",
      "since": 2,
      "attrs": { "equation": "string" }
    },
    "Add": {
      "doc": "numpy (multidirectional) broadcasting; float32, int64 and int32 data (integer Div truncates toward zero)",
      "drop": { "consumed_inputs": "any" }
    },
    "Sub": {
      "doc": "numpy (multidirectional) broadcasting; float32, int64 and int32 data (integer Div truncates toward zero)",
      "drop": { "consumed_inputs": "any" }
    },
    "Mul": {
      "doc": "numpy (multidirectional) broadcasting; float32, int64 and int32 data (integer Div truncates toward zero)",
      "drop": { "consumed_inputs": "any" }
    },
    "Div": {
      "doc": "numpy (multidirectional) broadcasting; float32, int64 and int32 data (integer Div truncates toward zero)",
      "drop": { "consumed_inputs": "any" }
    },
    "Pow": {
      "doc": "numpy (multidirectional) broadcasting"
    },
    "Mod": {
      "doc": "`fmod` 0 (integers; the result takes the divisor's sign) or 1 (like C `fmod`); numpy broadcasting",
      "since": 2,
      "attrs": { "fmod": "int" }
    },
    "Min": {
      "doc": "any number of inputs, numpy broadcasting; Min, Max and Sum also on int64 and int32",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Max": {
      "doc": "any number of inputs, numpy broadcasting; Min, Max and Sum also on int64 and int32",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Sum": {
      "doc": "any number of inputs, numpy broadcasting; Min, Max and Sum also on int64 and int32",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Mean": {
      "doc": "any number of inputs, numpy broadcasting; Min, Max and Sum also on int64 and int32",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
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
    "Sin": {
      "doc": "elementwise",
      "since": 2
    },
    "Cos": {
      "doc": "elementwise",
      "since": 2
    },
    "Exp": {
      "doc": "elementwise",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Log": {
      "doc": "elementwise",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Reciprocal": {
      "doc": "elementwise",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Floor": {
      "doc": "elementwise",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Ceil": {
      "doc": "elementwise",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Round": {
      "doc": "elementwise",
      "since": 2
    },
    "Sign": {
      "doc": "elementwise",
      "since": 2
    },
    "Softplus": {
      "doc": "elementwise",
      "since": 2
    },
    "Elu": {
      "doc": "elementwise",
      "since": 2,
      "attrs": { "alpha": "float" },
      "drop": { "consumed_inputs": "any" }
    },
    "Selu": {
      "doc": "elementwise",
      "since": 2,
      "attrs": { "alpha": "float", "gamma": "float" },
      "drop": { "consumed_inputs": "any" }
    },
    "Mish": {
      "doc": "elementwise",
      "since": 2
    },
    "Neg": {
      "doc": "elementwise; float32, int64 and int32 data",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Abs": {
      "doc": "elementwise; float32, int64 and int32 data",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "PRelu": {
      "doc": "`slope` broadcast to the input (unidirectional)",
      "since": 2,
      "drop": { "consumed_inputs": "any" }
    },
    "Clip": {
      "doc": "bounds as inputs 2 and 3 (opset 11+, constant) or as `min`/`max` attributes (opset 6)",
      "attrs": { "min": "float", "max": "float" },
      "drop": { "consumed_inputs": "any" },
      "constant_inputs": [1, 2],
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
      "constant_inputs": [1, 2],
      "outputs": 3
    },
    "BatchNormalization": {
      "doc": "inference mode, `epsilon`; only output 0; folded into a preceding Conv where possible",
      "attrs": { "epsilon": "float" },
      "drop": { "momentum": "any", "is_test": "any", "consumed_inputs": "any", "training_mode": [0], "spatial": [1] },
      "constant_inputs": [1, 2, 3, 4]
    },
    "InstanceNormalization": {
      "doc": "`epsilon`; scale and bias per channel",
      "since": 2,
      "attrs": { "epsilon": "float" },
      "drop": { "consumed_inputs": "any" },
      "constant_inputs": [1, 2]
    },
    "GroupNormalization": {
      "doc": "`epsilon`, `num_groups`; scale and bias per channel (opset 21; the converter expands opset 18's per-group ones)",
      "since": 2,
      "attrs": { "epsilon": "float", "num_groups": "int" },
      "drop": { "stash_type": [1] },
      "constant_inputs": [1, 2]
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
    "ArgMax": {
      "doc": "`axis`, `keepdims`, `select_last_index`; int64 indices",
      "since": 2,
      "attrs": { "axis": "int", "keepdims": "int", "select_last_index": "int" }
    },
    "ArgMin": {
      "doc": "`axis`, `keepdims`, `select_last_index`; int64 indices",
      "since": 2,
      "attrs": { "axis": "int", "keepdims": "int", "select_last_index": "int" }
    },
    "CumSum": {
      "doc": "`exclusive`, `reverse`; `axis` as a scalar input known at specialisation",
      "since": 2,
      "attrs": { "exclusive": "int", "reverse": "int" },
      "shape_inputs": [1]
    },
    "TopK": {
      "doc": "`axis`, `largest`, `sorted`; `k` as an input known at specialisation; outputs Values and int64 Indices",
      "since": 2,
      "attrs": { "axis": "int", "largest": "int", "sorted": "int" },
      "shape_inputs": [1],
      "outputs": 2
    },
    "Equal": {
      "doc": "numpy broadcasting; bool output",
      "since": 2
    },
    "Less": {
      "doc": "numpy broadcasting; bool output",
      "since": 2
    },
    "LessOrEqual": {
      "doc": "numpy broadcasting; bool output",
      "since": 2
    },
    "Greater": {
      "doc": "numpy broadcasting; bool output",
      "since": 2
    },
    "GreaterOrEqual": {
      "doc": "numpy broadcasting; bool output",
      "since": 2
    },
    "Not": {
      "doc": "bool data, numpy broadcasting",
      "since": 2
    },
    "And": {
      "doc": "bool data, numpy broadcasting",
      "since": 2
    },
    "Or": {
      "doc": "bool data, numpy broadcasting",
      "since": 2
    },
    "Xor": {
      "doc": "bool data, numpy broadcasting",
      "since": 2
    },
    "Where": {
      "doc": "bool condition; numpy broadcasting of condition, X and Y",
      "since": 2
    },
    "Concat": {
      "doc": "`axis`",
      "attrs": { "axis": "int" }
    },
    "Reshape": {
      "doc": "target shape as an int64 input known at specialisation; `0` copies a dimension (unless `allowzero`), `-1` infers one",
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
    "Expand": {
      "doc": "target `shape` as an int input known at specialisation",
      "shape_inputs": [1]
    },
    "Tile": {
      "doc": "`repeats` as an int input known at specialisation",
      "since": 2,
      "shape_inputs": [1]
    },
    "Slice": {
      "doc": "`starts`, `ends` and optional `axes`, `steps` as int inputs known at specialisation (opset 10+), negative indices and steps, clamped as ONNX specifies",
      "shape_inputs": [1, 2, 3, 4]
    },
    "Split": {
      "doc": "`axis`; sizes as input `split` (opset 13+, known at specialisation), attribute `split` (older) or `num_outputs` (opset 18); one Tessera node per output internally",
      "attrs": { "axis": "int", "split": "ints", "num_outputs": "int" },
      "shape_inputs": [1],
      "attr_inputs": { "split": 1 },
      "outputs": "variadic"
    },
    "Pad": {
      "doc": "`pads`, optional `constant_value` and `axes` as inputs (opset 11+; `pads` and `axes` known at specialisation); `mode` `constant`, `reflect`, `edge`",
      "attrs": { "mode": "string" },
      "values": { "mode": ["constant", "reflect", "edge"] },
      "shape_inputs": [1, 3],
      "constant_inputs": [2]
    },
    "Gather": {
      "doc": "`axis`; `indices` of any int type and shape (constant or computed at run time), negative allowed",
      "attrs": { "axis": "int" }
    },
    "GatherElements": {
      "doc": "`axis`; int `indices` of the output's shape",
      "since": 2,
      "attrs": { "axis": "int" }
    },
    "GatherND": {
      "doc": "`batch_dims`; int64 `indices`",
      "since": 2,
      "attrs": { "batch_dims": "int" }
    },
    "ScatterND": {
      "doc": "`reduction` (`none`, `add`, `mul`, `max`, `min`); int64 `indices`",
      "since": 2,
      "attrs": { "reduction": "string" },
      "values": { "reduction": ["none", "add", "mul", "max", "min"] }
    },
    "ScatterElements": {
      "doc": "`axis`, `reduction` (`none`, `add`, `mul`, `max`, `min`); int `indices`",
      "since": 2,
      "attrs": { "axis": "int", "reduction": "string" },
      "values": { "reduction": ["none", "add", "mul", "max", "min"] }
    },
    "DepthToSpace": {
      "doc": "`blocksize`, `mode` (`DCR`, `CRD`)",
      "since": 2,
      "attrs": { "blocksize": "int", "mode": "string" },
      "values": { "mode": ["DCR", "CRD"] }
    },
    "SpaceToDepth": {
      "doc": "`blocksize`",
      "since": 2,
      "attrs": { "blocksize": "int" }
    },
    "Trilu": {
      "doc": "`upper`; optional `k` as a scalar input known at specialisation",
      "since": 2,
      "attrs": { "upper": "int" },
      "shape_inputs": [1]
    },
    "Resize": {
      "doc": "scales or sizes as inputs known at specialisation (`X, roi, scales, sizes`, opset 11+; `roi` unused), optional `axes` (opset 18); `mode` `nearest` or `linear`; `coordinate_transformation_mode` `half_pixel`, `half_pixel_symmetric`, `pytorch_half_pixel`, `align_corners`, `asymmetric`; `nearest_mode` `round_prefer_floor`, `round_prefer_ceil`, `floor`, `ceil`; `keep_aspect_ratio_policy`; `exclude_outside` and `antialias` 0 only",
      "attrs": { "mode": "string", "coordinate_transformation_mode": "string", "nearest_mode": "string", "keep_aspect_ratio_policy": "string", "exclude_outside": "int", "antialias": "int", "axes": "ints" },
      "values": { "mode": ["nearest", "linear"], "coordinate_transformation_mode": ["half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric"], "nearest_mode": ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"], "keep_aspect_ratio_policy": ["stretch", "not_larger", "not_smaller"], "exclude_outside": [0], "antialias": [0] },
      "drop": { "cubic_coeff_a": "any", "extrapolation_value": "any" },
      "shape_inputs": [2, 3]
    },
    "Cast": {
      "doc": "`to` = 1 (FLOAT), 2 (UINT8), 6 (INT32), 7 (INT64) or 9 (BOOL)",
      "attrs": { "to": "int" },
      "values": { "to": [1, 2, 6, 7, 9] },
      "drop": { "saturate": "any" }
    },
    "Shape": {
      "doc": "`start`, `end` (opset 15); int64 output",
      "since": 2,
      "attrs": { "start": "int", "end": "int" }
    },
    "Size": {
      "doc": "int64 scalar output",
      "since": 2
    },
    "Range": {
      "doc": "`start`, `limit`, `delta` as scalar inputs known at specialisation",
      "since": 2,
      "shape_inputs": [0, 1, 2]
    },
    "ConstantOfShape": {
      "doc": "`value`: a one-element tensor attribute (default float32 0); `shape` as an int64 input known at specialisation",
      "since": 2,
      "attrs": { "value": "tensor" },
      "shape_inputs": [0]
    },
    "NonZero": {
      "doc": "int64 indices `[rank, count]`; the input must be known at specialisation (the count depends on its values)",
      "since": 2,
      "shape_inputs": [0]
    },
    "OneHot": {
      "doc": "`axis`; `depth` as a scalar input known at specialisation; `values` is [off, on]",
      "since": 2,
      "attrs": { "axis": "int" },
      "shape_inputs": [1]
    }
  }
};
