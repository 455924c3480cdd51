// MatMul / Gemm bound to the GEMM micro-kernel: constant B is packed once at bind time,
// run-time B (attention) is packed per tile into scratch, for the tile's columns only.
#include <algorithm>
#include <vector>

#include "core/base/aligned_buffer.h"
#include "core/kernels/gemm/gemm.h"
#include "core/ops/binary.h"
#include "core/ops/epilogue.h"
#include "core/ops/matmul.h"
#include "core/ops/packed_weights.h"

namespace tessera::ops {

namespace {

// Element offset of each output batch index into an operand whose matrices hold
// `matrix_elements` each (0 along broadcast dimensions).
std::vector<int64_t> batch_strides(const Shape& operand, const Shape& batch, int64_t matrix_elements) {
  std::vector<int64_t> strides(batch.size(), 0);
  const int operand_batch = static_cast<int>(operand.size()) - 2;
  int64_t stride = matrix_elements;
  for (int i = operand_batch - 1; i >= 0; --i) {
    const int out_dim = i + static_cast<int>(batch.size()) - operand_batch;
    if (operand[i] != 1) strides[out_dim] = stride;
    stride *= operand[i];
  }
  return strides;
}

class MatMulKernel final : public TileKernel {
 public:
  MatMulKernel(const MatMulAttrs& a, const BindArgs& args)
      : attrs_(a),
        d_(matmul_dims(a, args.shapes)),
        a_(args.inputs[0]),
        b_(args.inputs[1]),
        out_(args.output),
        gemm_(kernels::gemm_kernel_for(args.max_isa, static_cast<size_t>(d_.n), static_cast<size_t>(d_.a_row_bytes()))),
        elementwise_(kernels::best_elementwise_kernels(args.max_isa)) {
    const Shape& A = args.shapes.inputs[0];
    const Shape& B = args.shapes.inputs[1];
    a_batch_strides_ = batch_strides(A, d_.batch, d_.m * d_.k);
    b_batch_strides_ = batch_strides(B, d_.batch, d_.k * d_.n);
    // B[k][n] = b[k * b_k_stride_ + n * b_n_stride_]
    b_k_stride_ = d_.b_is_vector ? 1 : (a.trans_b ? 1 : d_.n);
    b_n_stride_ = d_.b_is_vector ? 1 : (a.trans_b ? d_.k : 1);
    if (a.bias_input >= 0) {
      const float* c = args.inputs[a.bias_input].constant_floats();
      const bool scalar = element_count(args.shapes.inputs[a.bias_input]) == 1;
      bias_.resize(d_.n);
      for (int64_t n = 0; n < d_.n; ++n) bias_[n] = a.bias_scale * (scalar ? c[0] : c[n]);
    }
    if (a.epilogue.residual_input >= 0) bind_residual(args);
    panel_floats_ = kernels::packed_gemm_weights_floats(gemm_.nr, d_.k, 1, d_.n);
    if (b_.constant != nullptr) pack_constant_b(args);
  }

  bool valid() const { return b_.constant == nullptr || packed_b_ != nullptr; }
  // A constant B is packed; the bias and a constant residual are copied. A constant A is read.
  std::vector<int> copied_inputs() const override {
    std::vector<int> copied;
    if (b_.constant != nullptr) copied.push_back(1);
    if (attrs_.bias_input >= 0) copied.push_back(attrs_.bias_input);
    if (!residual_storage_.empty()) copied.push_back(attrs_.epilogue.residual_input);
    return copied;
  }

  void run(const Region& r, const ExecContext& ctx) const override {
    const int batch_rank = static_cast<int>(d_.batch.size());
    const int64_t m0 = d_.m_dim >= 0 ? r.begin[d_.m_dim] : 0, m1 = d_.m_dim >= 0 ? r.end[d_.m_dim] : 1;
    const int64_t n0 = d_.n_dim >= 0 ? r.begin[d_.n_dim] : 0, n1 = d_.n_dim >= 0 ? r.end[d_.n_dim] : 1;
    TESSERA_CHECK(n0 % gemm_.nr == 0);  // column tiles are aligned to panels
    const float* a = input_data(a_, ctx);
    const float* b = input_data(b_, ctx);
    float* y = tensor_data(out_, ctx);
    const float* residual = attrs_.epilogue.residual_input >= 0 ? input_data(residual_, ctx) : nullptr;

    float* packed_tile = ctx.scratch;                                        // run-time B panels
    float* a_rows = packed_tile + (b_.constant ? 0 : tile_panel_floats(r));  // transposed A rows
    const float** a_ptrs = reinterpret_cast<const float**>(a_rows + (attrs_.trans_a ? gemm_.mr * d_.k : 0));

    std::array<int64_t, kMaxRank> index = r.begin;
    while (true) {
      int64_t a_off = 0, b_off = 0, out_batch = 0;
      for (int i = 0; i < batch_rank; ++i) {
        a_off += index[i] * a_batch_strides_[i];
        b_off += index[i] * b_batch_strides_[i];
        out_batch = out_batch * d_.batch[i] + index[i];
      }
      const float* panels;
      if (b_.constant) {
        panels = packed_b_->as<float>() + (b_off / (d_.k * d_.n)) * panel_floats_ +
                 kernels::packed_gemm_panel_offset(gemm_.nr, d_.k, 1, n0 / gemm_.nr);
      } else {
        kernels::pack_gemm_weights(gemm_.nr, d_.k, 1, n1 - n0, b + b_off + n0 * b_n_stride_, b_k_stride_, b_n_stride_,
                                   bias_.empty() ? nullptr : bias_.data() + n0, packed_tile);
        scale_packed(packed_tile, n1 - n0);
        panels = packed_tile;
      }
      const float* a_matrix = a + a_off;
      float* y_matrix = y + out_batch * d_.m * d_.n;
      const float* r_matrix = residual ? residual + out_batch * d_.m * d_.n : nullptr;
      for (int64_t m = m0; m < m1; m += gemm_.mr) {
        const int64_t rows = std::min<int64_t>(gemm_.mr, m1 - m);
        for (int64_t i = 0; i < gemm_.mr; ++i) {
          const int64_t row = m + std::min(i, rows - 1);
          if (attrs_.trans_a) {
            float* dst = a_rows + i * d_.k;
            for (int64_t k = 0; k < d_.k; ++k) dst[k] = a_matrix[k * d_.m + row];
            a_ptrs[i] = dst;
          } else {
            a_ptrs[i] = a_matrix + row * d_.k;
          }
        }
        for (int64_t n = n0; n < n1; n += gemm_.nr) {
          const int64_t cols = std::min<int64_t>(gemm_.nr, n1 - n);
          const float* w = panels + kernels::packed_gemm_panel_offset(gemm_.nr, d_.k, 1, (n - n0) / gemm_.nr);
          // The first of several row blocks asks for the next panel (most often the next
          // tile's) as it reads this one.
          const bool prefetch_next = m == m0 && m1 - m0 > gemm_.mr && n + gemm_.nr < (b_.constant ? d_.n : n1);
          const float* next = prefetch_next ? w + kernels::packed_gemm_panel_offset(gemm_.nr, d_.k, 1, 1) : nullptr;
          const int64_t o = m * d_.n + n;
          gemm_.ukernel(rows, cols, d_.k, 1, a_ptrs, w, next, y_matrix + o, d_.n, r_matrix ? r_matrix + o : nullptr,
                        d_.n, attrs_.epilogue.clamp);
          if (attrs_.epilogue.has_tail()) {
            apply_epilogue_tail_rows(elementwise_, attrs_.epilogue, y_matrix + o, rows, cols, d_.n);
          }
        }
      }
      int i = batch_rank - 1;
      for (; i >= 0; --i) {
        if (++index[i] < r.end[i]) break;
        index[i] = r.begin[i];
      }
      if (i < 0) break;
    }
  }

  size_t scratch_floats(const Region& tile) const override {
    const size_t pointers = pointer_scratch_floats(gemm_.mr);
    return (b_.constant ? 0 : tile_panel_floats(tile)) + (attrs_.trans_a ? gemm_.mr * d_.k : 0) + pointers;
  }
  std::string kernel_name() const override { return gemm_.name; }

 private:
  void pack_constant_b(const BindArgs& args) {
    const Shape& B = args.shapes.inputs[1];
    const int64_t matrices = B.size() > 2 ? element_count(Shape(B.begin(), B.end() - 2)) : 1;
    const void* bias = attrs_.bias_input >= 0 ? args.inputs[attrs_.bias_input].constant : nullptr;
    const PackKey key =
        pack_key("gemm_b", {b_.constant, bias},
                 {static_cast<double>(gemm_.nr), static_cast<double>(d_.k), static_cast<double>(d_.n),
                  static_cast<double>(matrices), static_cast<double>(b_k_stride_), static_cast<double>(b_n_stride_),
                  attrs_.alpha, attrs_.bias_scale,
                  static_cast<double>(element_count(bias ? args.shapes.inputs[attrs_.bias_input] : Shape{}))});
    // A transposed B's panels come from consecutive rows: each group's pages of the weights
    // file go as soon as it is packed, so a large matrix is never resident twice.
    const bool rows_in_order = b_n_stride_ != 1;
    const int64_t group = rows_in_order ? std::max<int64_t>(1, kPackGroupFloats / (d_.k * gemm_.nr)) * gemm_.nr : d_.n;
    packed_b_ = packed_weights(args, key, panel_floats_ * matrices, [&](float* packed) {
      for (int64_t i = 0; i < matrices; ++i) {
        const float* b = b_.constant_floats() + i * d_.k * d_.n;
        float* dst = packed + i * panel_floats_;
        for (int64_t n0 = 0; n0 < d_.n; n0 += group) {
          const int64_t n1 = std::min(d_.n, n0 + group);
          kernels::pack_gemm_weights(gemm_.nr, d_.k, 1, n1 - n0, b + n0 * b_n_stride_, b_k_stride_, b_n_stride_,
                                     bias_.empty() ? nullptr : bias_.data() + n0,
                                     dst + kernels::packed_gemm_panel_offset(gemm_.nr, d_.k, 1, n0 / gemm_.nr));
          if (rows_in_order && args.weights) {
            args.weights->release_pages(b + n0 * b_n_stride_, sizeof(float) * (n1 - n0) * b_n_stride_);
          }
        }
        scale_packed(dst, d_.n);
      }
    });
  }

  static constexpr int64_t kPackGroupFloats = int64_t{1} << 20;  // 4 MiB of B per group

  // Floats of the packed panels of B covering `tile`'s columns.
  size_t tile_panel_floats(const Region& tile) const {
    const int64_t columns = d_.n_dim >= 0 ? tile.extent(d_.n_dim) : 1;
    return kernels::packed_gemm_weights_floats(gemm_.nr, d_.k, 1, columns);
  }

  // Folds alpha into packed weights (not into the bias row of each panel).
  void scale_packed(float* packed, int64_t columns) const {
    if (attrs_.alpha == 1.0f) return;
    const int64_t panels = (columns + gemm_.nr - 1) / gemm_.nr;
    for (int64_t p = 0; p < panels; ++p) {
      float* w = packed + kernels::packed_gemm_panel_offset(gemm_.nr, d_.k, 1, p) + gemm_.nr;
      for (int64_t i = 0; i < d_.k * gemm_.nr; ++i) w[i] *= attrs_.alpha;
    }
  }

  // A constant or broadcast residual (Gemm's C) is materialised at full size, scaled.
  void bind_residual(const BindArgs& args) {
    const int input = attrs_.epilogue.residual_input;
    residual_ = args.inputs[input];
    const Shape& shape = args.shapes.inputs[input];
    if (residual_.constant == nullptr && shape == out_.shape && attrs_.residual_scale == 1.0f) return;
    TESSERA_CHECK(residual_.constant != nullptr);  // the parser only allows constant ones here
    residual_storage_ = broadcast_to(residual_.constant_floats(), shape, out_.shape);
    for (float& v : residual_storage_) v *= attrs_.residual_scale;
    residual_.constant = residual_storage_.data();
  }

  MatMulAttrs attrs_;
  MatMulDims d_;
  TensorBinding a_, b_, out_, residual_;
  const kernels::GemmKernel& gemm_;
  const kernels::ElementwiseKernels& elementwise_;
  std::vector<int64_t> a_batch_strides_, b_batch_strides_;
  int64_t b_k_stride_ = 1, b_n_stride_ = 1;
  std::vector<float> bias_;
  std::vector<float> residual_storage_;
  size_t panel_floats_ = 0;
  std::shared_ptr<const AlignedBuffer> packed_b_;
};

}  // namespace

Result<std::unique_ptr<TileKernel>> bind(const MatMulAttrs& a, const BindArgs& args) {
  auto kernel = std::make_unique<MatMulKernel>(a, args);
  if (!kernel->valid()) return Status::error(args.path + ": out of memory packing weights");
  return std::unique_ptr<TileKernel>(std::move(kernel));
}

}  // namespace tessera::ops
