// A machine profile: the rates calibration measured of Tessera's own kernels and runtime on
// one machine, for one instruction set and one build. The cost model (cost_model.h) prices
// tiles with it. Plain data; JSON in and out (docs/cost-model.md documents the format).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tessera/status.h"

namespace tessera::plan {

inline constexpr int kProfileVersion = 1;

// GFLOP/s of the GEMM micro-kernel over tile shapes: a grid of rows x columns x depth.
// Rates count padded work (columns rounded up to nr; rows as the kernel computes them), which
// varies smoothly between grid points where the real work jumps at every partial block.
struct GemmCurve {
  std::string kernel;  // e.g. "f32_gemm_14x32_avx512"
  int mr = 1;
  int nr = 1;
  std::vector<int64_t> rows, columns, depths;  // ascending
  std::vector<double> gflops;                  // [rows][columns][depths], row-major
  // Rows count as the kernel's block instances compute them (kernels::gemm_rows_computed: a
  // short block runs a one-row or half-height instance); false in profiles measured before
  // those existed, whose rows were rounded up to mr.
  bool short_blocks = true;
};

// Bandwidth of one thread with its data in one level of the memory hierarchy, and of every
// core at once (the shared levels divide it).
struct MemoryLevel {
  std::string name;        // "L1", "L2", "L3", "DRAM"
  int64_t bytes = 0;       // capacity (per core for private levels); 0 for DRAM
  double read_gbps = 0;    // one thread
  double copy_gbps = 0;    // one thread, bytes read + written
  double shared_gbps = 0;  // reads of all cores at once
};

// What the executor adds to every tile (seconds).
struct ExecutorCosts {
  double task = 0;   // dispatch and dependency counting, per task
  double edge = 0;   // per dependency edge into a task
  double steal = 0;  // taking a task from another thread's deque
  double wake = 0;   // waking an idle thread that went to sleep
  double spin = 0;   // how long an idle thread spins for work before it sleeps
  // What a tile pays when a tile it reads ran on another thread, beyond the cross-core bytes:
  // fitted on calibration networks run whole on every core (0: one core, or not measured).
  double remote_input = 0;
  // A run's fixed cost through the public API (inputs in, threads woken, outputs out), runs
  // back to back: on one thread, and on all cores.
  double run = 0;
  double run_all = 0;
};

// Moving one tensor between workers (placement.h): a hand-over message, and copies at a rate
// (both 0 in profiles made before it was measured).
struct TransferRates {
  double message = 0;  // seconds
  double copy_gbps = 0;
};

// A tile's time in a model = scale * its time from the rates + tile
//                            + tap * (GEMM micro-kernel calls x kernel taps, for GEMM tiles).
struct InModel {
  double scale = 1;
  double tile = 0;
  double tap = 0;
};

struct Profile {
  int version = kProfileVersion;
  bool calibrated = false;  // false: built-in guesses, every prediction says so
  std::string cpu;          // CPU model name
  std::string isa;          // instruction set of the kernels measured ("avx512", "wasm_simd128")
  std::string build;        // "native", "wasm-threads" or "wasm-single"
  int cores = 1;
  std::string date;  // ISO 8601, when calibrated
  bool quick = false;

  GemmCurve gemm;
  // A depthwise convolution: FLOPs of the taps inside the image at this rate, plus a cost per
  // output element (bias, store, a pixel's setup), channels padded to the kernel's vectors.
  double depthwise_gflops = 0;
  double depthwise_output_ns = 0;
  double elementwise_ns = 0;               // per output element of a binary op, data in L1
  std::map<std::string, double> unary_ns;  // per element, by ONNX op name ("Relu")
  double softmax_ns = 0;                   // per element of a row
  double normalize_ns = 0;                 // per element of a layer-norm row
  double pool_tap_ns = 0;                  // per window tap of a pool
  // Winograd F(4x4, 3x3) and F(2x2, 3x3) transforms, per tile and channel: the input one (per
  // input channel) and the output one (per output channel), beside the GEMMs of its points.
  double winograd_input_ns = 0;
  double winograd_output_ns = 0;
  double winograd_f2_input_ns = 0;
  double winograd_f2_output_ns = 0;
  double permute_ns = 0;            // per byte moved by a strided copy, data in L1
  std::vector<MemoryLevel> memory;  // L1 first, DRAM last
  double cross_core_gbps = 0;       // reading what another core just wrote (0: not measured)
  // Writing over lines another core has just read: bytes per second of what that adds to
  // writing the core's own lines (0: not measured).
  double shared_overwrite_gbps = 0;
  ExecutorCosts executor;
  TransferRates transfer;
  // Per class of work (by fit_class_name), what the microbenchmarks do not see inside a
  // model: inputs arriving from another op rather than a warm cache (a scale), each tile's
  // setup, and a convolution's row pointers per kernel tap (what makes a 3-channel stem
  // slow). Fitted on a calibration network; absent kinds take scale 1 and nothing else.
  std::map<std::string, InModel> in_model;
};

// Profiles as JSON. Reading checks the format name, the version and every field, naming the
// one at fault.
std::string profile_to_json(const Profile& profile);
Result<Profile> profile_from_json(const std::string& text);

// Refuses a profile made for another instruction set or build than the kernels that will
// run, saying which of each and how to calibrate for them.
Status check_profile_matches(const Profile& profile, const std::string& isa, const std::string& build);

// Round guesses for a machine nobody calibrated (calibrated = false): the shape of a
// profile so predictions still run, labelled as uncalibrated wherever they are shown.
Profile uncalibrated_profile(const std::string& isa, const std::string& build);

}  // namespace tessera::plan
