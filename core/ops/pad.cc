// Pad: inputs and modes, the source-hull footprint, and the copy kernel: line by line along
// the innermost memory dimension, the interior as one strided copy and the margins mapped.
#include "core/ops/pad.h"

#include <algorithm>
#include <cstdlib>

#include "core/base/checked_math.h"
#include "core/ops/element_type.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

using PadMode = PadAttrs::Mode;

Result<ParsedOp> parse_pad(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 4));
  const Shape& in = p.shape(0);
  const int rank = static_cast<int>(in.size());
  if (rank == 0) return p.error("cannot pad a scalar");
  PadAttrs a;
  TESSERA_ASSIGN_OR_RETURN(std::string mode, p.get_string("mode", "constant"));
  if (mode == "constant") {
    a.mode = PadMode::kConstant;
  } else if (mode == "reflect") {
    a.mode = PadMode::kReflect;
  } else if (mode == "edge") {
    a.mode = PadMode::kEdge;
  } else if (mode == "wrap") {
    return p.error("mode \"wrap\" is not supported (constant, reflect and edge are)");
  } else {
    return p.error("attribute \"mode\" has unknown value \"" + mode + "\"");
  }
  if (a.mode == PadMode::kConstant && p.dtype(0) != DType::kFloat32) {
    return p.error(std::string("mode \"constant\" pads float32 data only, input 0 is ") + dtype_name(p.dtype(0)) +
                   " (reflect and edge take any dtype)");
  }
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> pads, p.constant_ints(1, "pads"));
  if (p.has_input(2)) {
    TESSERA_ASSIGN_OR_RETURN(a.value, p.constant_scalar(2, "constant_value"));
  }
  std::vector<int> axes;
  if (p.has_input(3)) {
    TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> listed, p.constant_ints(3, "axes"));
    std::vector<bool> seen(rank, false);
    for (int64_t axis : listed) {
      TESSERA_ASSIGN_OR_RETURN(int d, normalize_axis(p, axis, rank, "axis"));
      if (seen[d]) return p.error("axis " + std::to_string(axis) + " is repeated");
      seen[d] = true;
      axes.push_back(d);
    }
  } else {
    for (int d = 0; d < rank; ++d) axes.push_back(d);
  }
  if (pads.size() != 2 * axes.size()) {
    return p.error("pads must hold " + std::to_string(2 * axes.size()) + " values, got " + std::to_string(pads.size()));
  }
  a.begin.assign(rank, 0);
  Shape out = in;
  for (size_t i = 0; i < axes.size(); ++i) {
    const int d = axes[i];
    const int64_t before = pads[i], after = pads[i + axes.size()];
    if (std::abs(before) > kMaxTensorElements || std::abs(after) > kMaxTensorElements) {
      return p.error("pads must be within " + std::to_string(kMaxTensorElements));
    }
    // Reflection mirrors once, without repeating the edge: at most size - 1 on each side.
    if (a.mode == PadMode::kReflect && (before > in[d] - 1 || after > in[d] - 1)) {
      return p.error("reflect pads on axis " + std::to_string(d) + " must be below its size " + std::to_string(in[d]));
    }
    out[d] = in[d] + before + after;
    if (out[d] < 1 || -before >= in[d] || -after >= in[d]) {
      return p.error("pads on axis " + std::to_string(d) + " leave no input or no output");
    }
    a.begin[d] = before;
  }
  return ParsedOp{a, out, {}, p.dtype(0)};
}

int64_t pad_source_index(PadMode mode, int64_t o, int64_t begin, int64_t size) {
  const int64_t i = o - begin;
  if (i >= 0 && i < size) return i;
  switch (mode) {
    case PadMode::kConstant: return -1;
    case PadMode::kEdge: return i < 0 ? 0 : size - 1;
    case PadMode::kReflect: return i < 0 ? -i : 2 * (size - 1) - i;
  }
  return -1;
}

OpCost cost(const PadAttrs&, const OpShapes&, const Region& out) {
  return {0, 8.0 * static_cast<double>(out.element_count())};
}

std::optional<Region> footprint(const PadAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input != 0) return std::nullopt;  // pads, constant_value and axes are constants
  const Shape& in = s.inputs[0];
  Region r = out;
  for (int d = 0; d < r.rank; ++d) {
    const int64_t first = out.begin[d] - a.begin[d], last = out.end[d] - 1 - a.begin[d];  // unmapped
    if (a.mode == PadMode::kConstant) {
      r.begin[d] = std::clamp<int64_t>(first, 0, in[d]);
      r.end[d] = std::clamp<int64_t>(last + 1, r.begin[d], in[d]);
      continue;
    }
    // Edge and reflect map [first, last] piecewise monotonically, turning at 0 and size - 1.
    const int64_t a0 = pad_source_index(a.mode, out.begin[d], a.begin[d], in[d]);
    const int64_t a1 = pad_source_index(a.mode, out.end[d] - 1, a.begin[d], in[d]);
    r.begin[d] = first <= 0 && last >= 0 ? 0 : std::min(a0, a1);
    r.end[d] = (first <= in[d] - 1 && last >= in[d] - 1 ? in[d] - 1 : std::max(a0, a1)) + 1;
  }
  return r;
}

TilingHints tiling_hints(const PadAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const PadAttrs&, const OpShapes& s, const LayoutQuery& q) {
  // The input is read through its strides: keep its layout (padding H and W of an NHWC map
  // between convolutions needs no relayout).
  LayoutChoice c;
  c.inputs.assign(s.inputs.size(), std::nullopt);
  c.output = q.constant[0] ? Layout::identity(static_cast<int>(s.output.size())) : q.inputs[0];
  return c;
}

namespace {

template <class T>
void pad_reference(const PadAttrs& a, const OpShapes& s, const T* in, T* out) {
  // Element by element; reflect as numpy's periodic mirror (equal to one mirror for the
  // pads allowed), edge as a clamp.
  const Shape& xs = s.inputs[0];
  const Shape& ys = s.output;
  const int rank = static_cast<int>(xs.size());
  std::vector<int64_t> index(rank, 0);
  const int64_t count = element_count(ys);
  for (int64_t e = 0; e < count; ++e) {
    int64_t offset = 0;
    bool inside = true;
    for (int d = 0; d < rank; ++d) {
      int64_t i = index[d] - a.begin[d];
      const int64_t n = xs[d];
      if (a.mode == PadMode::kEdge) i = std::clamp<int64_t>(i, 0, n - 1);
      if (a.mode == PadMode::kReflect && n > 1) {
        const int64_t period = 2 * (n - 1);
        i = ((i % period) + period) % period;
        if (i >= n) i = period - i;
      }
      inside = inside && i >= 0 && i < n;
      offset = offset * n + std::clamp<int64_t>(i, 0, n - 1);
    }
    out[e] = inside ? in[offset] : static_cast<T>(a.value);
    for (int d = rank - 1; d >= 0 && ++index[d] == ys[d]; --d) index[d] = 0;
  }
}

}  // namespace

void reference(const PadAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out) {
  visit_dtype(s.output_dtype, [&](auto zero) {
    using T = decltype(zero);
    pad_reference(a, s, static_cast<const T*>(in[0]), static_cast<T*>(out));
  });
}

namespace {

// Constant mode runs on float32 only (the parser says so), so the value converts exactly.
template <class T>
class PadKernel final : public TileKernel {
 public:
  PadKernel(const PadAttrs& a, const BindArgs& args) : attrs_(a), in_(args.inputs[0]), out_(args.output) {}

  void run(const Region& r, const ExecContext& ctx) const override {
    const T* x = input_data<T>(in_, ctx);
    T* y = tensor_data<T>(out_, ctx);
    const int rank = r.rank;
    const int inner = out_.layout.perm[rank - 1];  // the line runs along the innermost memory dim
    const int64_t size = in_.shape[inner], begin = attrs_.begin[inner];
    const int64_t from = in_.strides[inner], to = out_.strides[inner];
    // Output indices whose source along the line is the input itself.
    const int64_t lo = std::clamp(begin, r.begin[inner], r.end[inner]);
    const int64_t hi = std::clamp(begin + size, lo, r.end[inner]);
    std::array<int64_t, kMaxRank> index = r.begin;
    while (true) {
      int64_t src = 0, dst = 0;
      bool constant = false;
      for (int d = 0; d < rank; ++d) {
        if (d == inner) continue;
        const int64_t i = pad_source_index(attrs_.mode, index[d], attrs_.begin[d], in_.shape[d]);
        constant = constant || i < 0;
        src += i * in_.strides[d];
        dst += index[d] * out_.strides[d];
      }
      for (int64_t o = r.begin[inner]; o < r.end[inner]; ++o) {
        if (o == lo && lo < hi && !constant) {
          const T* s = x + src + (lo - begin) * from;
          T* t = y + dst + lo * to;
          if (from == 1 && to == 1) {
            std::copy(s, s + (hi - lo), t);
          } else {
            for (int64_t k = 0; k < hi - lo; ++k) t[k * to] = s[k * from];
          }
          o = hi - 1;
          continue;
        }
        const int64_t i = constant ? -1 : pad_source_index(attrs_.mode, o, begin, size);
        y[dst + o * to] = i < 0 ? static_cast<T>(attrs_.value) : x[src + i * from];
      }
      int p = rank - 1;
      for (; p >= 0; --p) {
        const int d = out_.layout.perm[p];
        if (d == inner) continue;
        if (++index[d] < r.end[d]) break;
        index[d] = r.begin[d];
      }
      if (p < 0) return;
    }
  }
  std::string kernel_name() const override { return typed_kernel_name<T>("pad_copy"); }

 private:
  PadAttrs attrs_;
  TensorBinding in_, out_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const PadAttrs& a, const BindArgs& args) {
  return visit_dtype(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<PadKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
