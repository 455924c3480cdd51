// The contract every op kind fulfils: the types its functions take and return.
// An op kind X (attributes struct XAttrs) provides, as overloads in its own file:
//   OpCost cost(const XAttrs&, const OpShapes&, const Region& out)
//   std::optional<Region> footprint(const XAttrs&, const OpShapes&, const Region& out, int input)
//   TilingHints tiling_hints(const XAttrs&, const OpShapes&, const TilingQuery&)
//   LayoutChoice choose_layout(const XAttrs&, const OpShapes&, const LayoutQuery&)
//   void reference(const XAttrs&, const OpShapes&, std::span<const void* const> in, void* out)
// reference() reads and writes elements of the dtypes in OpShapes (null for omitted inputs).
//   Result<std::unique_ptr<TileKernel>> bind(const XAttrs&, const BindArgs&)
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/base/constant_store.h"
#include "core/base/cpu_features.h"
#include "core/base/weights_file.h"
#include "core/kernels/activation.h"
#include "core/kernels/elementwise/elementwise.h"
#include "core/ops/geometry.h"
#include "tessera/status.h"
#include "tessera/tensor.h"

namespace tessera::ops {

// Logical shapes and element types of a node's inputs (empty shape for omitted optional
// inputs) and of its output.
struct OpShapes {
  std::vector<Shape> inputs;
  Shape output;
  std::vector<DType> input_dtypes = {};
  DType output_dtype = DType::kFloat32;
  bool operator==(const OpShapes&) const = default;
};

// A float op's reference inputs, read as float32 (the op's parser checked the dtypes).
class FloatInputs {
 public:
  explicit FloatInputs(std::span<const void* const> in) : in_(in) {}
  const float* operator[](size_t i) const { return static_cast<const float*>(in_[i]); }
  size_t size() const { return in_.size(); }

 private:
  std::span<const void* const> in_;
};

// Which calibrated rate prices a region's work (core/plan/cost_model.h). Every kind but
// kCopy is priced by its compute and by its memory traffic, whichever takes longer.
enum class WorkKind : uint8_t {
  kCopy,         // moves bytes (Concat, Slice, Gather, ...): `bytes` alone
  kPermute,      // a strided copy (Transpose, Relayout): `bytes` at the permute rate
  kElementwise,  // arithmetic per output element
  kUnary,        // the function `unary` per output element
  kGemm,         // matrix products of shape `gemm`, `flops` in all
  kDepthwise,    // depthwise convolution: `depthwise`, and a cost per output
  kPool,         // a window per output: `flops` = taps visited
  kSoftmax,      // rows
  kNormalize,    // layer or group normalisation rows
};

// One GEMM a region runs (a batch of them when flops exceed 2 * rows * columns * depth).
// A convolution's depth runs as `taps` kernel taps of depth / taps input channels each.
// `count` says how many GEMMs of this shape run where the flops do not (Winograd's 36 do
// the work of fewer multiplies than its flops count). `panel_columns` (the whole GEMM's
// columns) and `row_bytes` (between two of A's rows) choose the micro-kernel the op binds
// (kernels::gemm_kernel_for); 0 columns: the best kernel. `interleaved`: the `count` GEMMs
// run together one block of rows at a time (Winograd's points), each block reading the
// weights of all of them.
struct GemmShape {
  int64_t rows = 0;
  int64_t columns = 0;
  int64_t depth = 0;
  int64_t taps = 1;
  int64_t count = 0;  // 0: as many as the flops make
  int64_t panel_columns = 0;
  int64_t row_bytes = 0;
  bool interleaved = false;
  bool operator==(const GemmShape&) const = default;
};

// What a depthwise tile computes: its channels, which the kernel pads to whole vectors, and
// its window taps inside the image summed over its pixels. The kernel skips the taps in the
// padding, which the convolution's FLOPs count (on a small image, most of a 5x5 window's).
struct DepthwiseShape {
  int64_t channels = 0;  // 0: not described; the FLOPs stand for the work
  int64_t taps = 0;
  bool operator==(const DepthwiseShape&) const = default;
};

// What a Winograd tile transforms besides its points' GEMMs, in tiles x channels: its input
// channels through the input transform, its output channels through the output one, on
// Winograd tiles of `side` outputs per side (kernels::WinogradTile).
struct TransformShape {
  int64_t input = 0;
  int64_t output = 0;
  int side = 0;
  bool operator==(const TransformShape&) const = default;
};

// Work of one output region: what the cost model and tile sizing weigh.
struct OpCost {
  double flops = 0;
  double bytes = 0;  // bytes read + written, counting each tensor region once
  WorkKind kind = WorkKind::kCopy;
  GemmShape gemm = {};
  kernels::UnaryOp unary = kernels::UnaryOp::kCopy;  // kUnary's function, or another kind's fused activation
  int affine_passes = 0;                             // a fused scale and shift: one pass over the outputs each
  // A tile reading a block of its main input's NHWC channels (depthwise, pooling): the bytes
  // of each contiguous run, and of the whole pixel the runs lie in; 0: whole pixels.
  int64_t input_run_bytes = 0;
  int64_t input_pixel_bytes = 0;
  DepthwiseShape depthwise = {};
  TransformShape transforms = {};
  bool operator==(const OpCost&) const = default;
};

// Which output dimensions a tiling may split, best first, and the granularity of each cut
// (e.g. channel blocks in multiples of the GEMM panel width). A dimension marked
// `only_for_threads` is split only as far as needed to give every thread work: splitting it
// further costs more than it brings (e.g. rows of a weight-bound layer re-read the weights).
struct SplitDim {
  int dim = 0;
  int64_t alignment = 1;
  bool only_for_threads = false;
};
struct TilingHints {
  std::vector<SplitDim> dims;
};
// What tiling hints depend on besides the shapes: the output's layout, and the ISA the
// model's kernels run (its GEMM micro-kernel's panel width and row block set the granularity
// of cuts; a model capped to AVX2 on an AVX-512 machine is cut for AVX2's kernels).
struct TilingQuery {
  Layout output_layout;
  Isa isa = Isa::kScalar;
};

// Input layouts as they stand, and which inputs are constants. Constants stay row-major:
// kernels read them in that order or pack them (a node fed only by constants is folded
// before layouts are assigned, so no kernel needs a constant in another layout).
struct LayoutQuery {
  std::vector<Layout> inputs;
  std::vector<bool> constant;
};
// What the op requires of each input (nullopt: any layout) and the layout it produces.
struct LayoutChoice {
  std::vector<std::optional<Layout>> inputs;
  Layout output;
};

// Ops that compute through a GEMM or elementwise store can absorb what follows them:
// y = activation(clamp(acc + bias + residual)) * scale + shift. The graph's fusion pass
// fills this in (scale and shift: a constant Mul / Add after the activation).
struct Epilogue {
  int residual_input = -1;  // node input added elementwise (same shape and layout), or -1
  kernels::MinMax clamp;
  kernels::UnaryOp activation = kernels::UnaryOp::kCopy;
  kernels::UnaryParams activation_params;
  float scale = 1.0f;
  float shift = 0.0f;

  bool has_activation() const { return activation != kernels::UnaryOp::kCopy; }
  bool has_clamp() const;
  bool has_affine() const { return scale != 1.0f || shift != 0.0f; }
  int affine_passes() const { return (scale != 1.0f ? 1 : 0) + (shift != 0.0f ? 1 : 0); }
  // What runs after the store's clamp: the activation and the affine.
  bool has_tail() const { return has_activation() || has_affine(); }
  std::string describe() const;  // "+residual, clamp[0,6], Sigmoid, *0.5+1"
  bool operator==(const Epilogue&) const = default;
};

// Where one tensor lives while a compiled model runs.
struct TensorBinding {
  Shape shape;
  Layout layout;
  DType dtype = DType::kFloat32;
  std::array<int64_t, kMaxRank> strides{};  // element strides per logical dimension
  const void* constant = nullptr;           // constants: data owned by the graph
  int64_t arena_offset = -1;                // run-time values: byte offset in the arena

  const float* constant_floats() const { return static_cast<const float*>(constant); }
};

struct BindArgs {
  const OpShapes& shapes;
  std::vector<TensorBinding> inputs;  // one per node input (absent inputs: default)
  TensorBinding output;
  Isa max_isa = Isa::kAvx512;
  std::string path;                // for messages
  ConstantStore* store = nullptr;  // shares packed weights across specialisations; may be null
  // The model's weights file (may be null): a kernel may release the pages it has packed as
  // it goes, so that a large matrix is not resident twice.
  const WeightsFile* weights = nullptr;
};

// What an executor thread hands a kernel: the arena base and its private scratch space.
struct ExecContext {
  std::byte* arena = nullptr;
  float* scratch = nullptr;
};

// Floats of scratch that hold `pointers` pointers (a GEMM micro-kernel's row pointers, kept
// first in the scratch, where they stay aligned).
inline size_t pointer_scratch_floats(size_t pointers) {
  return (sizeof(const float*) * pointers + sizeof(float) - 1) / sizeof(float);
}

// A bound op: packed constants and fixed pointers, ready to compute any output region.
// run() is called concurrently from several threads on disjoint regions.
class TileKernel {
 public:
  virtual ~TileKernel() = default;
  virtual void run(const Region& out, const ExecContext& ctx) const = 0;
  // Floats of per-thread scratch one run() call on region `tile` uses.
  virtual size_t scratch_floats(const Region& /*tile*/) const { return 0; }
  // Which kernel does the work, for inspect ("f32_gemm_14x32_avx512").
  virtual std::string kernel_name() const = 0;
  // The constant inputs it copied when bound (packed weights, a bias) and never reads again;
  // it reads its other constant inputs in place while it runs.
  virtual std::vector<int> copied_inputs() const { return {}; }
};

// A tensor's elements as T (float for the float ops; any element type for the typed ones).
template <class T = float>
T* tensor_data(const TensorBinding& t, const ExecContext& ctx) {
  return reinterpret_cast<T*>(ctx.arena + t.arena_offset);
}
template <class T = float>
const T* input_data(const TensorBinding& t, const ExecContext& ctx) {
  return t.constant != nullptr ? static_cast<const T*>(t.constant) : tensor_data<T>(t, ctx);
}

}  // namespace tessera::ops
