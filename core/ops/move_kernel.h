// A kernel whose whole work is one data-moving function of the op's attributes, from input 0
// to the output over a region (Gather, Slice): the binding boilerplate in one place.
#pragma once

#include <memory>
#include <string>

#include "core/ops/op_contract.h"
#include "core/ops/region_walk.h"

namespace tessera::ops {

template <class Attrs>
using MoveFn = void (*)(const Attrs&, const Region& region, const Layout& order, const Strides& in_strides,
                        const float* x, const Strides& out_strides, float* y);

template <class Attrs, MoveFn<Attrs> Move>
class MoveKernel final : public TileKernel {
 public:
  MoveKernel(const Attrs& a, const BindArgs& args, const char* name)
      : attrs_(a), in_(args.inputs[0]), out_(args.output), name_(name) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    Move(attrs_, region, out_.layout, in_.strides, input_data(in_, ctx), out_.strides, tensor_data(out_, ctx));
  }
  std::string kernel_name() const override { return name_; }

 private:
  Attrs attrs_;
  TensorBinding in_, out_;
  const char* name_;
};

template <class Attrs, MoveFn<Attrs> Move>
Result<std::unique_ptr<TileKernel>> bind_move(const Attrs& a, const BindArgs& args, const char* name) {
  return std::unique_ptr<TileKernel>(new MoveKernel<Attrs, Move>(a, args, name));
}

}  // namespace tessera::ops
