// A kernel whose whole work is one data-moving function of the op's attributes, from input 0
// to the output over a region (Slice): the binding boilerplate in one place, for
// elements of any type.
#pragma once

#include <memory>
#include <string>

#include "core/ops/element_type.h"
#include "core/ops/op_contract.h"
#include "core/ops/region_walk.h"

namespace tessera::ops {

// `Move` is a class with
//   template <class T> static void copy(const Attrs&, const Region& region, const Layout& order,
//                                       const Strides& in_strides, const T* x, const Strides& out_strides, T* y);
// The element type T is fixed when the kernel is bound.
template <class Attrs, class Move, class T>
class MoveKernel final : public TileKernel {
 public:
  MoveKernel(const Attrs& a, const BindArgs& args, std::string name)
      : attrs_(a), in_(args.inputs[0]), out_(args.output), name_(std::move(name)) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    Move::copy(attrs_, region, out_.layout, in_.strides, input_data<T>(in_, ctx), out_.strides,
               tensor_data<T>(out_, ctx));
  }
  std::string kernel_name() const override { return name_; }

 private:
  Attrs attrs_;
  TensorBinding in_, out_;
  std::string name_;
};

// Binds Move for the output's element type; `what` names the kernel ("gather_copy").
template <class Attrs, class Move>
Result<std::unique_ptr<TileKernel>> bind_move(const Attrs& a, const BindArgs& args, const char* what) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    using T = decltype(zero);
    return std::make_unique<MoveKernel<Attrs, Move, T>>(a, args, typed_kernel_name<T>(what));
  });
}

}  // namespace tessera::ops
