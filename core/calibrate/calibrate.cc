// Runs every calibration microbenchmark and gathers the profile.
#include "core/calibrate/calibrate.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <string>

#include "core/kernels/peak/peak.h"
#include "core/ops/spatial.h"
#include "core/ops/unary.h"

namespace tessera::calibration {

namespace {

constexpr kernels::UnaryOp kUnaryOps[] = {
    kernels::UnaryOp::kRelu,  kernels::UnaryOp::kLeakyRelu,   kernels::UnaryOp::kClip,       kernels::UnaryOp::kSigmoid,
    kernels::UnaryOp::kTanh,  kernels::UnaryOp::kHardSigmoid, kernels::UnaryOp::kHardSwish,  kernels::UnaryOp::kErf,
    kernels::UnaryOp::kGelu,  kernels::UnaryOp::kGeluTanh,    kernels::UnaryOp::kSqrt,       kernels::UnaryOp::kExp,
    kernels::UnaryOp::kNeg,   kernels::UnaryOp::kAbs,         kernels::UnaryOp::kReciprocal, kernels::UnaryOp::kSin,
    kernels::UnaryOp::kCos,   kernels::UnaryOp::kLog,         kernels::UnaryOp::kFloor,      kernels::UnaryOp::kCeil,
    kernels::UnaryOp::kRound, kernels::UnaryOp::kSign,        kernels::UnaryOp::kSoftplus,   kernels::UnaryOp::kElu,
    kernels::UnaryOp::kSelu,  kernels::UnaryOp::kMish,        kernels::UnaryOp::kCopy};

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

// A microbenchmark that could not run (0) leaves a profile no cost can come from.
Status require(double value, const char* what) {
  if (value > 0 && std::isfinite(value)) return {};
  return Status::error(std::string("calibrate: measuring ") + what +
                       " failed (out of memory, or an ISA not supported here)");
}

// The depthwise kernel's two rates, from a 3x3 and a 5x5 layer of one image (same padding):
// the time per FLOP of the taps inside the image, and per output element besides.
struct DepthwiseRates {
  double gflops = 0, output_ns = 0;
};
DepthwiseRates measure_depthwise(Isa isa, double point) {
  constexpr size_t kSide = 28, kChannels = 96;
  const kernels::DwConvKernel& kernel = kernels::best_dwconv_kernel(isa);
  double seconds[2], flops[2];
  for (int i = 0; i < 2; ++i) {
    const size_t k = i == 0 ? 3 : 5, pad = k / 2;
    const kernels::DwConvGeometry g{kSide, kSide, kChannels, kSide, kSide, k, k, 1, 1, 1, 1, pad, pad};
    const auto side = static_cast<int64_t>(kSide);
    const int64_t taps =
        ops::window_taps_inside(0, side, 1, static_cast<int64_t>(pad), static_cast<int64_t>(k), 1, side);
    seconds[i] = kernels::measure_dwconv_seconds(kernel, g, point);
    flops[i] = 2.0 * kChannels * static_cast<double>(taps * taps);
  }
  if (seconds[0] <= 0 || seconds[1] <= 0) return {};
  const double elements = kSide * kSide * kChannels;
  const double per_flop = (seconds[1] - seconds[0]) / (flops[1] - flops[0]);
  const double per_element = (seconds[0] - flops[0] * per_flop) / elements;
  // Noise that makes either part negative leaves one rate for both layers.
  if (per_flop <= 0 || per_element < 0) return {(flops[0] + flops[1]) / (seconds[0] + seconds[1]) * 1e-9, 0};
  return {1e-9 / per_flop, per_element * 1e9};
}

}  // namespace

std::string build_flavor() {
#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
  return "wasm-threads";
#elif defined(__EMSCRIPTEN__)
  return "wasm-single";
#else
  return "native";
#endif
}

std::string cpu_model() {
#if !defined(__EMSCRIPTEN__)
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
  }
#endif
  return "unknown";
}

Result<plan::Profile> calibrate_machine(Isa isa, int threads, const Budget& budget) {
  if (!isa_supported(isa)) return Status::error("calibrate: " + std::string(isa_name(isa)) + " is not supported here");
  plan::Profile p;
  p.calibrated = true;
  p.cpu = cpu_model();
  p.isa = std::string(isa_name(isa));
  p.build = build_flavor();
  p.cores = threads < 1 ? 1 : threads;
  p.date = utc_now();
  p.quick = budget.quick;
  const double point = budget.point();

  p.gemm = measure_gemm_curve(isa, budget);
  for (double g : p.gemm.gflops) TESSERA_RETURN_IF_ERROR(require(g, "the GEMM kernel"));
  const DepthwiseRates depthwise = measure_depthwise(isa, point);
  p.depthwise_gflops = depthwise.gflops;
  p.depthwise_output_ns = depthwise.output_ns;
  p.elementwise_ns = kernels::measure_binary_ns(isa, point);
  for (kernels::UnaryOp op : kUnaryOps) {
    const double ns = kernels::measure_unary_ns(isa, op, point / 4);
    TESSERA_RETURN_IF_ERROR(require(ns, ops::unary_op_name(op)));
    p.unary_ns[ops::unary_op_name(op)] = ns;
  }
  p.softmax_ns = kernels::measure_softmax_ns(isa, 128, point);
  p.normalize_ns = kernels::measure_layer_norm_ns(isa, 768, point);
  p.pool_tap_ns = kernels::measure_pool_tap_ns(isa, point);
  const kernels::WinogradTransformRates f4 = kernels::measure_winograd_transforms(isa, kernels::kWinogradF4, point);
  p.winograd_input_ns = f4.input_ns;
  p.winograd_output_ns = f4.output_ns;
  const kernels::WinogradTransformRates f2 = kernels::measure_winograd_transforms(isa, kernels::kWinogradF2, point);
  p.winograd_f2_input_ns = f2.input_ns;
  p.winograd_f2_output_ns = f2.output_ns;
  TESSERA_ASSIGN_OR_RETURN(p.permute_ns, measure_permute_ns(isa, budget));
  TESSERA_RETURN_IF_ERROR(require(p.depthwise_gflops, "the depthwise kernel"));
  TESSERA_RETURN_IF_ERROR(require(p.elementwise_ns, "the elementwise kernel"));
  TESSERA_RETURN_IF_ERROR(require(p.softmax_ns * p.normalize_ns, "the row kernels"));
  TESSERA_RETURN_IF_ERROR(require(p.pool_tap_ns * p.permute_ns, "the pool and permute kernels"));
  TESSERA_RETURN_IF_ERROR(
      require(p.winograd_input_ns * p.winograd_output_ns * p.winograd_f2_input_ns * p.winograd_f2_output_ns,
              "the Winograd transforms"));

  p.memory = measure_memory(p.cores, budget);
  if (p.memory.empty()) return Status::error("calibrate: out of memory for the bandwidth working set");
  for (const plan::MemoryLevel& level : p.memory) {
    TESSERA_RETURN_IF_ERROR(require(level.read_gbps * level.copy_gbps * level.shared_gbps, "memory bandwidth"));
  }
  p.cross_core_gbps = measure_cross_core_read(p.cores);
  p.shared_overwrite_gbps = measure_shared_overwrite(p.cores);
  p.executor = measure_executor(p.cores, budget);
  TESSERA_ASSIGN_OR_RETURN(p.executor.run, measure_run_overhead(isa, 1, budget));
  p.executor.run_all = p.executor.run;
  if (p.cores > 1) {
    TESSERA_ASSIGN_OR_RETURN(p.executor.run_all, measure_run_overhead(isa, p.cores, budget));
  }
  p.transfer = measure_transfer(p.cores, budget);
  TESSERA_ASSIGN_OR_RETURN(InModelFit fit, fit_in_model(p, isa, budget));
  p.in_model = std::move(fit.kinds);
  p.executor.task = fit.task;
  TESSERA_ASSIGN_OR_RETURN(p.executor.remote_input, fit_remote_input(p, isa, budget));
  return p;
}

}  // namespace tessera::calibration
