// Calibration: microbenchmarks of Tessera's own kernels and runtime on this machine, gathered
// into a profile (core/plan/profile.h) for the cost model. Measuring lives here, outside
// core/plan; each part runs for a time budget (quick mode: a tenth of it).
#pragma once

#include <map>
#include <string>

#include "core/base/cpu_features.h"
#include "core/plan/profile.h"
#include "tessera/status.h"

namespace tessera::calibration {

struct Budget {
  bool quick = false;
  // Seconds per measured point: quick mode trades precision for a run under 10 s.
  double point() const { return quick ? 0.02 : 0.3; }
};

// GFLOP/s of the best GEMM kernel up to `isa` over a grid of tile shapes.
plan::GemmCurve measure_gemm_curve(Isa isa, const Budget& budget);

// Read, copy and all-core bandwidth at working sets inside each cache level and in DRAM.
std::vector<plan::MemoryLevel> measure_memory(int cores, const Budget& budget);

// Read bandwidth of one core over data another core has just written (half an L2's worth),
// 0 with one core.
double measure_cross_core_read(int cores);

// What writing over lines another core has just read adds to writing a core's own (a quarter
// of an L2), as bytes per second of that extra time; 0 with one core, or if it adds nothing.
double measure_shared_overwrite(int cores);

// The executor's per-task, per-edge, steal and wake-up costs, from synthetic tile graphs of
// empty and fixed-length tiles run on `threads` threads.
plan::ExecutorCosts measure_executor(int threads, const Budget& budget);

// A run's fixed cost through the public API on `threads` threads: a one-tile model run
// back to back.
Result<double> measure_run_overhead(Isa isa, int threads, const Budget& budget);

// A tensor handed from one worker of an engine to another natively: the message and the
// receiver's copy into its own memory (one thread copying when `cores` is 1). Zeros in wasm,
// whose workers are separate instances that the JS side measures.
plan::TransferRates measure_transfer(int cores, const Budget& budget);

// Nanoseconds per byte of the Transpose kernel, timed on a compiled one-node model.
Result<double> measure_permute_ns(Isa isa, const Budget& budget);

// Calibration networks compiled like any model (at several tile sizes), every tile timed,
// `profile` holding every rate above: per kind of work, measured against predicted tile
// times; and the executor's seconds per tile in those runs (taking a tile, releasing its
// children), beyond what `profile.executor.edge` charges per edge.
struct InModelFit {
  std::map<std::string, plan::InModel> kinds;
  double task = 0;
};
Result<InModelFit> fit_in_model(const plan::Profile& profile, Isa isa, const Budget& budget);

// The cost of handing work between cores that the simulator does not otherwise see
// (plan::ExecutorCosts::remote_input): the calibration networks run whole on one thread and on
// every core, their measured speed-up against the simulator's with `profile` (every other rate
// in it, the in-model fit too). 0 on one core, or when predicted speed-ups are not higher
// than measured without it.
Result<double> fit_remote_input(const plan::Profile& profile, Isa isa, const Budget& budget);

// "native", "wasm-threads" or "wasm-single": which build's runtime a profile describes.
std::string build_flavor();
// The CPU's model name ("AMD EPYC 9R14 96-Core Processor"), or "unknown" (e.g. in a browser).
std::string cpu_model();

// Everything above, plus the per-element rates of the other kernel families.
Result<plan::Profile> calibrate_machine(Isa isa, int threads, const Budget& budget);

}  // namespace tessera::calibration
