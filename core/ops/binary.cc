// Elementwise binary ops with numpy broadcasting; any operand layout is read through strides.
#include "core/ops/binary.h"

#include <algorithm>

#include "core/ops/epilogue.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"
#include "core/ops/typed_elementwise.h"

namespace tessera::ops {

using kernels::BinaryOp;

bool broadcast_shapes(const Shape& a, const Shape& b, Shape* out) {
  const size_t rank = std::max(a.size(), b.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    result[i] = std::max(da, db);
  }
  *out = result;
  return true;
}

Region broadcast_footprint(const Shape& input_shape, const Shape& output_shape, const Region& out) {
  const int offset = static_cast<int>(output_shape.size() - input_shape.size());
  Region r = Region::whole(input_shape);
  for (int d = 0; d < r.rank; ++d) {
    if (input_shape[d] != 1) {
      r.begin[d] = out.begin[d + offset];
      r.end[d] = out.end[d + offset];
    }
  }
  return r;
}

Strides broadcast_strides(const Shape& input, const Strides& input_strides, const Shape& output) {
  Strides s{};
  const size_t offset = output.size() - input.size();
  for (size_t d = 0; d < input.size(); ++d) {
    if (input[d] != 1) s[d + offset] = input_strides[d];
  }
  return s;
}

std::vector<float> broadcast_to(const float* data, const Shape& from, const Shape& to) {
  const Layout identity = Layout::identity(static_cast<int>(to.size()));
  const Strides src =
      broadcast_strides(from, logical_strides(from, Layout::identity(static_cast<int>(from.size()))), to);
  std::vector<float> out(static_cast<size_t>(element_count(to)));
  walk_region(Region::whole(to), identity, std::array<Strides, 2>{src, logical_strides(to, identity)},
              [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
                for (int64_t i = 0; i < count; ++i) out[off[1] + i * step[1]] = data[off[0] + i * step[0]];
              });
  return out;
}

Result<ParsedOp> parse_binary(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(2, 2));
  BinaryAttrs a;
  ElementwiseOp typed = ElementwiseOp::kAdd;
  const std::string& name = p.desc().op;
  if (name == "Add") {
    a.op = BinaryOp::kAdd;
    typed = ElementwiseOp::kAdd;
  } else if (name == "Sub") {
    a.op = BinaryOp::kSub;
    typed = ElementwiseOp::kSub;
  } else if (name == "Mul") {
    a.op = BinaryOp::kMul;
    typed = ElementwiseOp::kMul;
  } else if (name == "Div") {
    a.op = BinaryOp::kDiv;
    typed = ElementwiseOp::kDiv;
  } else if (name == "Pow") {
    a.op = BinaryOp::kPow;
    typed = ElementwiseOp::kPow;
  } else {
    return p.error("is not a binary op");
  }
  // Only float32 arithmetic is a BinaryAttrs (SIMD kernels, fusable epilogues); the fusion
  // passes rely on it. Integer operands (and Pow's mixed dtypes) take the typed path.
  const bool is_float = p.dtype(0) == DType::kFloat32 && p.dtype(1) == DType::kFloat32;
  if (!is_float) TESSERA_RETURN_IF_ERROR(expect_typed_arithmetic_dtypes(p, typed));
  Shape out;
  if (!broadcast_shapes(p.shape(0), p.shape(1), &out)) {
    return p.error("cannot broadcast " + shape_string(p.shape(0)) + " with " + shape_string(p.shape(1)));
  }
  if (!is_float) return ParsedOp{ElementwiseAttrs{typed}, out, {}, p.dtype(0)};
  return ParsedOp{a, out};
}

OpCost cost(const BinaryAttrs&, const OpShapes& s, const Region& out) {
  const double n = static_cast<double>(out.element_count());
  double bytes = 4 * n;
  for (const Shape& in : s.inputs) bytes += 4.0 * broadcast_footprint(in, s.output, out).element_count();
  return {.flops = n, .bytes = bytes, .kind = WorkKind::kElementwise};
}

std::optional<Region> footprint(const BinaryAttrs&, const OpShapes& s, const Region& out, int input) {
  return broadcast_footprint(s.inputs[input], s.output, out);
}

TilingHints tiling_hints(const BinaryAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const BinaryAttrs&, const OpShapes& s, const LayoutQuery& q) {
  // Follow a full-rank run-time operand's layout so the common case stays contiguous.
  Layout output = Layout::identity(static_cast<int>(s.output.size()));
  for (size_t i = 0; i < q.inputs.size(); ++i) {
    if (!q.constant[i] && s.inputs[i] == s.output) {
      output = q.inputs[i];
      break;
    }
  }
  return {{std::nullopt, std::nullopt}, output};
}

void reference(const BinaryAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  const int rank = static_cast<int>(s.output.size());
  const Layout identity = Layout::identity(rank);
  auto strides_of = [&](const Shape& shape) {
    return broadcast_strides(shape, logical_strides(shape, Layout::identity(static_cast<int>(shape.size()))), s.output);
  };
  const Strides sa = strides_of(s.inputs[0]);
  const Strides sb = strides_of(s.inputs[1]);
  const Strides so = logical_strides(s.output, identity);
  walk_region(Region::whole(s.output), identity, std::array<Strides, 3>{sa, sb, so},
              [&](const std::array<int64_t, 3>& off, int64_t count, const std::array<int64_t, 3>& step) {
                for (int64_t i = 0; i < count; ++i) {
                  out[off[2] + i * step[2]] =
                      kernels::binary_reference(a.op, in[0][off[0] + i * step[0]], in[1][off[1] + i * step[1]]);
                }
              });
}

namespace {

// Contiguous runs of one short length in which each input either continues where the last
// run ended or repeats it (a per-channel gate over NHWC pixels walks one run per pixel): one
// kernel call for all of them, against copies of a repeating input laid end to end.
struct RunBatch {
  std::array<int64_t, 3> first{};  // the first run's offsets: a, b, y
  int64_t length = 0;              // of each run
  int64_t runs = 0;
  std::array<bool, 2> repeats{};  // per input, decided by the second run
};

// Which run of an input the scratch holds copies of (the same gate serves a tile's pixels).
struct RunCopies {
  int64_t offset = -1;
  int64_t length = 0;
};

class BinaryKernel final : public TileKernel {
 public:
  // Runs with an operand stride other than 0 or 1 are gathered in chunks of this size; runs
  // shorter than kShortRun, where a kernel call per run costs more than the run, are batched
  // up to the same size.
  static constexpr int64_t kGatherChunk = 1024;
  static constexpr int64_t kShortRun = 64;

  BinaryKernel(const BinaryAttrs& a, const BindArgs& args)
      : attrs_(a),
        a_(args.inputs[0]),
        b_(args.inputs[1]),
        out_(args.output),
        kernels_(kernels::best_elementwise_kernels(args.max_isa)) {
    strides_ = {broadcast_strides(a_.shape, a_.strides, out_.shape),
                broadcast_strides(b_.shape, b_.strides, out_.shape), out_.strides};
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    const std::array<const float*, 2> in = {input_data(a_, ctx), input_data(b_, ctx)};
    float* y = tensor_data(out_, ctx);
    RunBatch batch;
    std::array<RunCopies, 2> copies;
    walk_region(region, out_.layout, strides_,
                [&](const std::array<int64_t, 3>& off, int64_t count, const std::array<int64_t, 3>& step) {
                  if (step[0] == 1 && step[1] == 1 && step[2] == 1 && count < kShortRun) {
                    if (extend(batch, off, count)) return;
                    flush(batch, in, y, ctx.scratch, copies);
                    batch = {off, count, 1, {}};
                    return;
                  }
                  flush(batch, in, y, ctx.scratch, copies);
                  if (step[0] <= 1 && step[1] <= 1 && step[2] == 1) {
                    kernels_.binary(attrs_.op, count, in[0] + off[0], step[0], in[1] + off[1], step[1], y + off[2]);
                    apply_epilogue_activation(kernels_, attrs_.epilogue, y + off[2], count);
                    return;
                  }
                  for (int64_t done = 0; done < count; done += kGatherChunk) {
                    const int64_t n = std::min(kGatherChunk, count - done);
                    float* ga = ctx.scratch;
                    float* gb = ctx.scratch + kGatherChunk;
                    for (int64_t i = 0; i < n; ++i) {
                      ga[i] = in[0][off[0] + (done + i) * step[0]];
                      gb[i] = in[1][off[1] + (done + i) * step[1]];
                    }
                    kernels_.binary(attrs_.op, n, ga, 1, gb, 1, ga);
                    apply_epilogue_activation(kernels_, attrs_.epilogue, ga, n);
                    for (int64_t i = 0; i < n; ++i) y[off[2] + (done + i) * step[2]] = ga[i];
                  }
                  copies = {};  // the gathers took the scratch
                });
    flush(batch, in, y, ctx.scratch, copies);
  }
  size_t scratch_floats(const Region&) const override { return 2 * kGatherChunk; }
  std::string kernel_name() const override { return kernels_.name; }

 private:
  // Adds the run to the batch if it fits its pattern and its size.
  static bool extend(RunBatch& batch, const std::array<int64_t, 3>& off, int64_t count) {
    const int64_t at = batch.runs * batch.length;
    if (batch.runs == 0 || count != batch.length || at + count > kGatherChunk || off[2] != batch.first[2] + at)
      return false;
    std::array<bool, 2> repeats{};
    for (int k = 0; k < 2; ++k) {
      repeats[k] = off[k] == batch.first[k];
      const bool continues = off[k] == batch.first[k] + at;
      if (batch.runs == 1 ? !repeats[k] && !continues : batch.repeats[k] != repeats[k] || !(repeats[k] || continues))
        return false;
    }
    if (batch.runs == 1) batch.repeats = repeats;
    ++batch.runs;
    return true;
  }

  void flush(RunBatch& batch, const std::array<const float*, 2>& in, float* y, float* scratch,
             std::array<RunCopies, 2>& copies) const {
    if (batch.runs == 0) return;
    const int64_t n = batch.runs * batch.length;
    std::array<const float*, 2> operand{};
    for (int k = 0; k < 2; ++k) {
      operand[k] = in[k] + batch.first[k];
      if (!batch.repeats[k]) continue;
      float* filled = scratch + k * kGatherChunk;
      if (copies[k].offset != batch.first[k] || copies[k].length != batch.length) {
        for (int64_t r = 0; r + batch.length <= kGatherChunk; r += batch.length)
          std::copy_n(operand[k], batch.length, filled + r);
        copies[k] = {batch.first[k], batch.length};
      }
      operand[k] = filled;
    }
    kernels_.binary(attrs_.op, n, operand[0], 1, operand[1], 1, y + batch.first[2]);
    apply_epilogue_activation(kernels_, attrs_.epilogue, y + batch.first[2], n);
    batch.runs = 0;
  }

  BinaryAttrs attrs_;
  TensorBinding a_, b_, out_;
  std::array<Strides, 3> strides_;
  const kernels::ElementwiseKernels& kernels_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const BinaryAttrs& a, const BindArgs& args) {
  TESSERA_CHECK(args.output.dtype == DType::kFloat32);  // other dtypes parse to ElementwiseAttrs
  return std::unique_ptr<TileKernel>(new BinaryKernel(a, args));
}

}  // namespace tessera::ops
