// Typed elementwise ops: which element function each op and dtype runs (written once, as a
// program over a walker), the plain reference walker, the tile walker and the bound kernel.
#include "core/ops/typed_elementwise.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/ops/binary.h"
#include "core/ops/element_functions.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

namespace {

using enum DType;
using Op = ElementwiseOp;

// A step's operand that is the output itself: variadic ops accumulate in it.
constexpr int kOutput = -1;

template <class Tag>
using tag_t = element_t<Tag::value>;

template <class Fn>
void numeric(DType d, Fn&& fn) {
  with_dtype<kFloat32, kInt64, kInt32, kUInt8>(d, fn);
}
template <class Fn>
void any_dtype(DType d, Fn&& fn) {
  with_dtype<kFloat32, kInt64, kInt32, kBool, kUInt8>(d, fn);
}

// out = in0 op in1 op ... in(n-1), left to right (a fixed order: bitwise reproducible).
template <class T, class Walker, class Fn>
void fold_inputs(const Walker& w, int n, Fn fn) {
  if (n == 1) {
    w.template map<T, T>([](T x) { return x; }, {0});
    return;
  }
  w.template map<T, T, T>(fn, {0, 1});
  for (int k = 2; k < n; ++k) w.template map<T, T, T>(fn, {kOutput, k});
}

template <class Walker, class Compare>
void compare(const Walker& w, DType d, Compare cmp) {
  numeric(d, [&](auto t) {
    using T = tag_t<decltype(t)>;
    w.template map<uint8_t, T, T>([cmp](T a, T b) { return static_cast<uint8_t>(cmp(a, b)); }, {0, 1});
  });
}

template <class Walker, class Logic>
void logic(const Walker& w, Logic fn) {
  w.template map<uint8_t, uint8_t, uint8_t>(
      [fn](uint8_t a, uint8_t b) { return static_cast<uint8_t>(fn(a != 0, b != 0)); }, {0, 1});
}

// The whole op as a sequence of walker.map<Out, In...>(element function, input sources)
// steps. Both walkers run this one program, so its dtype dispatch is written once.
template <class Walker>
void compute(Op op, const OpShapes& s, const Walker& w) {
  const DType d0 = s.input_dtypes[0];
  const int n = static_cast<int>(s.inputs.size());
  switch (op) {
    case Op::kAdd:
      return numeric(d0, [&](auto t) {
        using T = tag_t<decltype(t)>;
        w.template map<T, T, T>([](T a, T b) { return elem::add(a, b); }, {0, 1});
      });
    case Op::kSub:
      return numeric(d0, [&](auto t) {
        using T = tag_t<decltype(t)>;
        w.template map<T, T, T>([](T a, T b) { return elem::sub(a, b); }, {0, 1});
      });
    case Op::kMul:
      return numeric(d0, [&](auto t) {
        using T = tag_t<decltype(t)>;
        w.template map<T, T, T>([](T a, T b) { return elem::mul(a, b); }, {0, 1});
      });
    case Op::kDiv:
      return numeric(d0, [&](auto t) {
        using T = tag_t<decltype(t)>;
        w.template map<T, T, T>([](T a, T b) { return elem::div(a, b); }, {0, 1});
      });
    case Op::kPow:
      return with_dtype<kFloat32, kInt64, kInt32>(d0, [&](auto base) {
        with_dtype<kFloat32, kInt64, kInt32>(s.input_dtypes[1], [&](auto exponent) {
          using T = tag_t<decltype(base)>;
          using E = tag_t<decltype(exponent)>;
          w.template map<T, T, E>([](T x, E y) { return elem::pow(x, y); }, {0, 1});
        });
      });
    case Op::kMod:
      return with_dtype<kInt64, kInt32, kUInt8>(d0, [&](auto t) {
        using T = tag_t<decltype(t)>;
        w.template map<T, T, T>([](T a, T b) { return elem::mod(a, b); }, {0, 1});
      });
    case Op::kFmod:
      return numeric(d0, [&](auto t) {
        using T = tag_t<decltype(t)>;
        w.template map<T, T, T>([](T a, T b) { return elem::fmod(a, b); }, {0, 1});
      });
    case Op::kMin:
      return numeric(d0, [&](auto t) {
        using T = tag_t<decltype(t)>;
        fold_inputs<T>(w, n, [](T a, T b) { return elem::min(a, b); });
      });
    case Op::kMax:
      return numeric(d0, [&](auto t) {
        using T = tag_t<decltype(t)>;
        fold_inputs<T>(w, n, [](T a, T b) { return elem::max(a, b); });
      });
    case Op::kSum:
    case Op::kMean:
      fold_inputs<float>(w, n, [](float a, float b) { return a + b; });
      if (op == Op::kMean) {
        const auto count = static_cast<float>(n);
        w.template map<float, float>([count](float x) { return x / count; }, {kOutput});
      }
      return;
    case Op::kPRelu:
      w.template map<float, float, float>([](float x, float slope) { return x < 0.0f ? slope * x : x; }, {0, 1});
      return;
    case Op::kEqual:
      if (d0 == kBool) return logic(w, [](bool a, bool b) { return a == b; });
      return compare(w, d0, [](auto a, auto b) { return a == b; });
    case Op::kLess: return compare(w, d0, [](auto a, auto b) { return a < b; });
    case Op::kLessOrEqual: return compare(w, d0, [](auto a, auto b) { return a <= b; });
    case Op::kGreater: return compare(w, d0, [](auto a, auto b) { return a > b; });
    case Op::kGreaterOrEqual: return compare(w, d0, [](auto a, auto b) { return a >= b; });
    case Op::kNot:
      w.template map<uint8_t, uint8_t>([](uint8_t x) { return static_cast<uint8_t>(x == 0); }, {0});
      return;
    case Op::kAnd: return logic(w, [](bool a, bool b) { return a && b; });
    case Op::kOr: return logic(w, [](bool a, bool b) { return a || b; });
    case Op::kXor: return logic(w, [](bool a, bool b) { return a != b; });
    case Op::kWhere:
      return any_dtype(s.output_dtype, [&](auto t) {
        using T = tag_t<decltype(t)>;
        w.template map<T, uint8_t, T, T>([](uint8_t c, T x, T y) { return c != 0 ? x : y; }, {0, 1, 2});
      });
    case Op::kCast:
      return any_dtype(d0, [&](auto from) {
        any_dtype(s.output_dtype, [&](auto to) {
          constexpr DType From = decltype(from)::value, To = decltype(to)::value;
          w.template map<element_t<To>, element_t<From>>([](element_t<From> x) { return elem::cast<To, From>(x); },
                                                         {0});
        });
      });
  }
}

template <class... In, class Fn, size_t... K>
auto apply(Fn& fn, const std::array<const void*, sizeof...(In)>& data, const std::array<int64_t, sizeof...(In)>& off,
           std::index_sequence<K...>) {
  return fn(static_cast<const In*>(data[K])[off[K]]...);
}

// The oracle: the whole output element by element in row-major order, each operand's
// element found from its own shape by numpy's rule (dims align from the right; a dim of 1
// reads index 0). Independent of region_walk's stride merging.
class ReferenceWalker {
 public:
  ReferenceWalker(const OpShapes& s, std::span<const void* const> in, void* out) : s_(s), in_(in), out_(out) {}

  template <class Out, class... In, class Fn>
  void map(Fn fn, const std::array<int, sizeof...(In)>& sources) const {
    constexpr size_t N = sizeof...(In);
    std::array<const void*, N> data{};
    std::array<const Shape*, N> shapes{};
    for (size_t k = 0; k < N; ++k) {
      data[k] = sources[k] == kOutput ? out_ : in_[sources[k]];
      shapes[k] = sources[k] == kOutput ? &s_.output : &s_.inputs[sources[k]];
    }
    const Shape& ys = s_.output;
    Out* y = static_cast<Out*>(out_);
    std::vector<int64_t> index(ys.size(), 0);
    const int64_t count = element_count(ys);
    for (int64_t e = 0; e < count; ++e) {
      std::array<int64_t, N> off{};
      for (size_t k = 0; k < N; ++k) {
        const Shape& xs = *shapes[k];
        const size_t shift = ys.size() - xs.size();
        for (size_t d = 0; d < xs.size(); ++d) off[k] = off[k] * xs[d] + (xs[d] == 1 ? 0 : index[d + shift]);
      }
      y[e] = apply<In...>(fn, data, off, std::index_sequence_for<In...>{});
      for (int d = static_cast<int>(ys.size()) - 1; d >= 0 && ++index[d] == ys[d]; --d) index[d] = 0;
    }
  }

 private:
  const OpShapes& s_;
  std::span<const void* const> in_;
  void* out_;
};

// One input of a tile: its data and its strides on the output's dimensions (0 where it
// broadcasts).
struct Operand {
  const void* data = nullptr;
  Strides strides{};
};

template <class Out, class... In, class Fn, size_t... K>
void map_run(Fn& fn, int64_t count, Out* y, const std::array<const void*, sizeof...(In)>& data,
             const std::array<int64_t, sizeof...(In) + 1>& off, const std::array<int64_t, sizeof...(In) + 1>& step,
             std::index_sequence<K...>) {
  const std::tuple<const In*...> x{static_cast<const In*>(data[K]) + off[K + 1]...};
  y += off[0];
  if (step[0] == 1 && ((step[K + 1] == 1) && ...)) {  // contiguous: a loop the compiler vectorises
    for (int64_t i = 0; i < count; ++i) y[i] = fn(std::get<K>(x)[i]...);
    return;
  }
  for (int64_t i = 0; i < count; ++i) y[i * step[0]] = fn(std::get<K>(x)[i * step[K + 1]]...);
}

// One output region of a bound kernel, run by run in the output's memory order.
class TileWalker {
 public:
  TileWalker(const Region& region, const Layout& order, std::span<const Operand> in, void* out,
             const Strides& out_strides)
      : region_(region), order_(order), in_(in), out_(out), out_strides_(out_strides) {}

  template <class Out, class... In, class Fn>
  void map(Fn fn, const std::array<int, sizeof...(In)>& sources) const {
    constexpr size_t N = sizeof...(In);
    std::array<Strides, N + 1> strides{};
    std::array<const void*, N> data{};
    strides[0] = out_strides_;
    for (size_t k = 0; k < N; ++k) {
      const bool own = sources[k] == kOutput;
      data[k] = own ? out_ : in_[sources[k]].data;
      strides[k + 1] = own ? out_strides_ : in_[sources[k]].strides;
    }
    Out* y = static_cast<Out*>(out_);
    walk_region(region_, order_, strides,
                [&](const std::array<int64_t, N + 1>& off, int64_t count, const std::array<int64_t, N + 1>& step) {
                  map_run<Out, In...>(fn, count, y, data, off, step, std::index_sequence_for<In...>{});
                });
  }

 private:
  const Region& region_;
  const Layout& order_;
  std::span<const Operand> in_;
  void* out_;
  const Strides& out_strides_;
};

const char* short_dtype_name(DType d) {
  switch (d) {
    case kFloat32: return "f32";
    case kInt64: return "i64";
    case kInt32: return "i32";
    case kBool: return "bool";
    case kUInt8: return "u8";
  }
  return "?";
}

class TypedElementwiseKernel final : public TileKernel {
 public:
  static constexpr size_t kInlineOperands = 4;

  TypedElementwiseKernel(const ElementwiseAttrs& a, const BindArgs& args)
      : attrs_(a), shapes_(args.shapes), inputs_(args.inputs), out_(args.output) {
    for (const TensorBinding& in : inputs_) strides_.push_back(broadcast_strides(in.shape, in.strides, out_.shape));
    // "i64_less_or_equal": the operands' dtype (Where: its values') and the op in snake case.
    const DType in = shapes_.input_dtypes[a.op == ElementwiseOp::kWhere ? 1 : 0];
    name_ = std::string(short_dtype_name(in)) + "_";
    const std::string op = elementwise_op_name(a.op);
    for (size_t i = 0; i < op.size(); ++i) {
      const auto c = static_cast<unsigned char>(op[i]);
      if (i > 0 && std::isupper(c) && std::islower(static_cast<unsigned char>(op[i - 1]))) name_ += '_';
      name_ += static_cast<char>(std::tolower(c));
    }
    if (a.op == ElementwiseOp::kCast) name_ += std::string("_to_") + short_dtype_name(shapes_.output_dtype);
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    // Variadic ops may have many inputs: only those beyond kInlineOperands allocate.
    std::array<Operand, kInlineOperands> inline_operands;
    std::vector<Operand> more_operands;
    if (inputs_.size() > kInlineOperands) more_operands.resize(inputs_.size());
    const std::span<Operand> operands =
        more_operands.empty() ? std::span(inline_operands).first(inputs_.size()) : std::span(more_operands);
    for (size_t k = 0; k < inputs_.size(); ++k) operands[k] = {input_data<std::byte>(inputs_[k], ctx), strides_[k]};
    const TileWalker walker(region, out_.layout, operands, tensor_data<std::byte>(out_, ctx), out_.strides);
    compute(attrs_.op, shapes_, walker);
  }
  std::string kernel_name() const override { return name_; }

 private:
  ElementwiseAttrs attrs_;
  OpShapes shapes_;
  std::vector<TensorBinding> inputs_;
  std::vector<Strides> strides_;
  TensorBinding out_;
  std::string name_;
};

}  // namespace

const char* elementwise_op_name(ElementwiseOp op) {
  switch (op) {
    case Op::kAdd: return "Add";
    case Op::kSub: return "Sub";
    case Op::kMul: return "Mul";
    case Op::kDiv: return "Div";
    case Op::kPow: return "Pow";
    case Op::kMod:
    case Op::kFmod: return "Mod";
    case Op::kMin: return "Min";
    case Op::kMax: return "Max";
    case Op::kSum: return "Sum";
    case Op::kMean: return "Mean";
    case Op::kPRelu: return "PRelu";
    case Op::kEqual: return "Equal";
    case Op::kLess: return "Less";
    case Op::kLessOrEqual: return "LessOrEqual";
    case Op::kGreater: return "Greater";
    case Op::kGreaterOrEqual: return "GreaterOrEqual";
    case Op::kNot: return "Not";
    case Op::kAnd: return "And";
    case Op::kOr: return "Or";
    case Op::kXor: return "Xor";
    case Op::kWhere: return "Where";
    case Op::kCast: return "Cast";
  }
  return "?";
}

OpCost cost(const ElementwiseAttrs&, const OpShapes& s, const Region& out) {
  const auto n = static_cast<double>(out.element_count());
  double bytes = n * static_cast<double>(dtype_size(s.output_dtype));
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    bytes += static_cast<double>(dtype_size(s.input_dtypes[i]) *
                                 broadcast_footprint(s.inputs[i], s.output, out).element_count());
  }
  return {.flops = n * static_cast<double>(std::max<size_t>(1, s.inputs.size() - 1)),
          .bytes = bytes,
          .kind = WorkKind::kElementwise};
}

std::optional<Region> footprint(const ElementwiseAttrs&, const OpShapes& s, const Region& out, int input) {
  return broadcast_footprint(s.inputs[input], s.output, out);
}

TilingHints tiling_hints(const ElementwiseAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const ElementwiseAttrs&, const OpShapes& s, const LayoutQuery& q) {
  // Inputs are read through their strides in any layout. A float output follows a
  // full-rank run-time float operand's layout (NHWC from a convolution) so that the common
  // case stays contiguous; other dtypes stay row-major, the layout typed tensors keep.
  Layout output = Layout::identity(static_cast<int>(s.output.size()));
  for (size_t i = 0; s.output_dtype == kFloat32 && i < q.inputs.size(); ++i) {
    if (!q.constant[i] && s.input_dtypes[i] == kFloat32 && s.inputs[i] == s.output) {
      output = q.inputs[i];
      break;
    }
  }
  return {std::vector<std::optional<Layout>>(s.inputs.size()), output};
}

void reference(const ElementwiseAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out) {
  compute(a.op, s, ReferenceWalker(s, in, out));
}

Result<std::unique_ptr<TileKernel>> bind(const ElementwiseAttrs& a, const BindArgs& args) {
  return std::unique_ptr<TileKernel>(new TypedElementwiseKernel(a, args));
}

}  // namespace tessera::ops
