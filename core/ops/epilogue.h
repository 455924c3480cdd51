// Applying the parts of a fused epilogue that follow the accumulation to a run of outputs.
#pragma once

#include "core/kernels/elementwise/elementwise.h"
#include "core/ops/op_contract.h"

namespace tessera::ops {

// y = activation(clamp(y)) * scale + shift in place, for the parts of `e` that are set.
void apply_epilogue_activation(const kernels::ElementwiseKernels& k, const Epilogue& e, float* y, int64_t n);

// The same without the clamp, for kernels whose store already clamped (the GEMM family).
void apply_epilogue_tail(const kernels::ElementwiseKernels& k, const Epilogue& e, float* y, int64_t n);

// Floats of scratch apply_epilogue_tail_rows gathers narrow runs into.
inline constexpr int64_t kTailScratchFloats = 2048;

// apply_epilogue_tail on `rows` runs of `cols` values, `stride` apart: a GEMM micro-kernel's
// block, or a channel block of a tile's pixels. Rows that touch (cols == stride) go in one
// call. Given `scratch` (kTailScratchFloats floats), runs too narrow to be worth a call each
// are gathered into it, sent in long calls and scattered back: the tail is elementwise and
// an element's value does not depend on where in a call it sits.
void apply_epilogue_tail_rows(const kernels::ElementwiseKernels& k, const Epilogue& e, float* y, int64_t rows,
                              int64_t cols, int64_t stride, float* scratch = nullptr);

// The same on one value, with the reference functions (for reference kernels).
float reference_epilogue_activation(const Epilogue& e, float y);

}  // namespace tessera::ops
