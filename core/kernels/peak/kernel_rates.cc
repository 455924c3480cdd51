// Per-element rates of the elementwise, row, pool and Winograd transform kernels, for the cost
// model.
#include <random>

#include "core/kernels/peak/peak.h"
#include "core/kernels/peak/timing.h"
#include "core/kernels/pool/pool.h"
#include "core/kernels/rows/rows.h"
#include "core/kernels/winograd/winograd.h"

namespace tessera::kernels {

namespace {

// 64 Ki floats in and out: 512 KiB, resident in a 1 MiB L2, large enough that a call's
// fixed cost does not count.
constexpr size_t kElements = 64 * 1024;

}  // namespace

double measure_unary_ns(Isa isa, UnaryOp op, double seconds) {
  if (!isa_supported(isa)) return 0;
  const ElementwiseKernels& k = best_elementwise_kernels(isa);
  std::mt19937 rng(1);
  AlignedBuffer x = random_buffer(kElements, rng);
  AlignedBuffer y = AlignedBuffer::allocate(kElements * sizeof(float));
  if (x.data() == nullptr || y.data() == nullptr) return 0;
  const UnaryParams params{0.1f, 0.5f};
  const double t = median_seconds_of(seconds, [&] { k.unary(op, params, kElements, x.as<float>(), y.as<float>()); });
  return t / kElements * 1e9;
}

double measure_binary_ns(Isa isa, double seconds) {
  if (!isa_supported(isa)) return 0;
  const ElementwiseKernels& k = best_elementwise_kernels(isa);
  std::mt19937 rng(1);
  AlignedBuffer a = random_buffer(kElements, rng);
  AlignedBuffer b = random_buffer(kElements, rng);
  AlignedBuffer y = AlignedBuffer::allocate(kElements * sizeof(float));
  if (a.data() == nullptr || b.data() == nullptr || y.data() == nullptr) return 0;
  const double t = median_seconds_of(
      seconds, [&] { k.binary(BinaryOp::kAdd, kElements, a.as<float>(), 1, b.as<float>(), 1, y.as<float>()); });
  return t / kElements * 1e9;
}

double measure_softmax_ns(Isa isa, size_t row, double seconds) {
  if (!isa_supported(isa) || row == 0) return 0;
  const RowKernels& k = best_row_kernels(isa);
  const size_t rows = kElements / row + 1;
  std::mt19937 rng(1);
  AlignedBuffer x = random_buffer(rows * row, rng);
  AlignedBuffer y = AlignedBuffer::allocate(rows * row * sizeof(float));
  if (x.data() == nullptr || y.data() == nullptr) return 0;
  const double t = median_seconds_of(seconds, [&] { k.softmax(rows, row, x.as<float>(), row, y.as<float>(), row); });
  return t / static_cast<double>(rows * row) * 1e9;
}

double measure_layer_norm_ns(Isa isa, size_t row, double seconds) {
  if (!isa_supported(isa) || row == 0) return 0;
  const RowKernels& k = best_row_kernels(isa);
  const size_t rows = kElements / row + 1;
  std::mt19937 rng(1);
  AlignedBuffer x = random_buffer(rows * row, rng);
  AlignedBuffer scale = random_buffer(row, rng);
  AlignedBuffer bias = random_buffer(row, rng);
  AlignedBuffer y = AlignedBuffer::allocate(rows * row * sizeof(float));
  if (x.data() == nullptr || scale.data() == nullptr || bias.data() == nullptr || y.data() == nullptr) return 0;
  const double t = median_seconds_of(seconds, [&] {
    k.layer_norm(rows, row, x.as<float>(), row, scale.as<float>(), bias.as<float>(), 1e-5f, y.as<float>(), row);
  });
  return t / static_cast<double>(rows * row) * 1e9;
}

double measure_pool_tap_ns(Isa isa, double seconds) {
  if (!isa_supported(isa)) return 0;
  const PoolKernels& k = best_pool_kernels(isa);
  PoolGeometry g{};
  g.in_h = g.in_w = 56;
  g.channels = 64;
  g.out_h = g.out_w = 28;
  g.kernel_h = g.kernel_w = 3;
  g.stride_h = g.stride_w = 2;
  g.dilation_h = g.dilation_w = 1;
  g.pad_bottom = g.pad_right = 1;
  std::mt19937 rng(1);
  AlignedBuffer x = random_buffer(g.in_h * g.in_w * g.channels, rng);
  AlignedBuffer y = AlignedBuffer::allocate(g.out_h * g.out_w * g.channels * sizeof(float));
  if (x.data() == nullptr || y.data() == nullptr) return 0;
  const double t =
      median_seconds_of(seconds, [&] { k.max_pool(g, x.as<float>(), y.as<float>(), 0, g.out_h, 0, g.channels); });
  return t / static_cast<double>(g.out_h * g.out_w * g.channels * 9) * 1e9;
}

WinogradTransformRates measure_winograd_transforms(Isa isa, WinogradTile tile, double seconds) {
  if (!isa_supported(isa)) return {};
  const WinogradKernels& k = best_winograd_kernels(isa, tile);
  const GemmKernel& gemm = best_gemm_kernel(isa);
  // One row block of tiles (the GEMM's rows) along a strip of the image one tile high.
  const size_t side = tile.output, n = tile.input(), points = tile.points();
  const size_t channels = 64, tiles = gemm.mr, width = tiles * side + 2;
  const size_t v_row = winograd_row_floats(channels), panel = gemm.nr;
  std::mt19937 rng(1);
  AlignedBuffer image = random_buffer(n * width * channels, rng);
  AlignedBuffer v = AlignedBuffer::allocate(points * tiles * v_row * sizeof(float));
  AlignedBuffer m = random_buffer(points * tiles * panel, rng);
  AlignedBuffer bias = random_buffer(panel, rng);
  AlignedBuffer y = AlignedBuffer::allocate(side * width * panel * sizeof(float));
  if (image.data() == nullptr || v.data() == nullptr || m.data() == nullptr || bias.data() == nullptr ||
      y.data() == nullptr) {
    return {};
  }
  std::vector<const float*> pixels(tiles * points);
  for (size_t t = 0; t < tiles; ++t) {
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        pixels[t * points + i * n + j] = image.as<float>() + (i * width + t * side + j) * channels;
      }
    }
  }
  const double input = median_seconds_of(seconds / 2, [&] {
    for (size_t t = 0; t < tiles; ++t) k.input(channels, &pixels[t * points], v.as<float>() + t * v_row, tiles * v_row);
  });
  const MinMax clamp{0.0f, 6.0f};
  const double output = median_seconds_of(seconds / 2, [&] {
    for (size_t t = 0; t < tiles; ++t) {
      k.output(panel, m.as<float>() + t * panel, tiles * panel, bias.as<float>(), y.as<float>() + t * side * panel,
               width * panel, panel, nullptr, 0, side, side, clamp);
    }
  });
  const auto per_channel = [&](double t, size_t c) { return t / static_cast<double>(tiles * c) * 1e9; };
  return {per_channel(input, channels), per_channel(output, panel)};
}

}  // namespace tessera::kernels
