// What both fast convolution paths and Winograd's share: the geometry of a convolution in
// NHWC and a tile kernel base with its bindings, epilogue and residual.
#pragma once

#include "core/kernels/elementwise/elementwise.h"
#include "core/ops/conv.h"
#include "core/ops/conv_weights.h"

namespace tessera::ops {

struct ConvGeometry {
  int64_t batch, in_h, in_w, in_c, out_h, out_w, out_c;
  int64_t group, in_per_group, out_per_group;
};

inline ConvGeometry geometry(const ConvAttrs& a, const OpShapes& s) {
  const Shape& x = s.inputs[0];
  const Shape& y = s.output;
  return {x[0], x[2], x[3], x[1], y[2], y[3], y[1], a.group, x[1] / a.group, y[1] / a.group};
}

// Base class of both paths: bindings, epilogue and the per-element residual pointer.
class ConvKernelBase : public TileKernel {
 protected:
  ConvKernelBase(const ConvAttrs& a, const BindArgs& args)
      : attrs_(a),
        g_(geometry(a, args.shapes)),
        in_(args.inputs[0]),
        out_(args.output),
        elementwise_(kernels::best_elementwise_kernels(args.max_isa)) {
    if (a.epilogue.residual_input >= 0) residual_ = args.inputs[a.epilogue.residual_input];
  }

  // NHWC offset of (n, row, col, channel) in the output (and residual).
  int64_t out_offset(int64_t n, int64_t row, int64_t col, int64_t c) const {
    return ((n * g_.out_h + row) * g_.out_w + col) * g_.out_c + c;
  }
  // Weights, bias and weight scale: packed or copied by every path.
  std::vector<int> copied_inputs() const override {
    std::vector<int> copied{1};
    if (attrs_.has_bias) copied.push_back(2);
    if (attrs_.weight_scale_input >= 0) copied.push_back(attrs_.weight_scale_input);
    return copied;
  }
  const float* residual_data(const ExecContext& ctx) const {
    return attrs_.epilogue.residual_input >= 0 ? input_data(residual_, ctx) : nullptr;
  }

  ConvAttrs attrs_;
  ConvGeometry g_;
  TensorBinding in_, out_, residual_;
  const kernels::ElementwiseKernels& elementwise_;
};

// The Winograd path (conv_winograd.cc) for a convolution winograd_allowed accepts; null when
// memory runs out packing its weights.
std::unique_ptr<TileKernel> bind_winograd(const ConvAttrs& a, const BindArgs& args, const ConvWeights& weights,
                                          const float* bias);

}  // namespace tessera::ops
