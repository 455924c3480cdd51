// The cost model: a profile (profile.h) prices every tile of a compiled graph, and the
// simulator (simulator.h) schedules the priced tiles on P threads. Plain data in and out.
//
// A tile's kernel time is its compute at the rate calibrated for its kind of work
// (ops::WorkKind) and its memory traffic at the bandwidth of the level its node's data
// probably come from: whichever is longer when that level is the core's own (L1, L2), their
// sum when it is shared (L3, DRAM); or the node's weights read once from the level that
// holds all the model's weights, if that takes longer. On P threads a tile takes at least
// its shared-level bytes at a P-th of what all cores reach there: threads slow each other
// only where their demand exceeds it. Then scaled and offset by the profile's in-model fit.
// The executor's per-task and per-edge costs come on top, in the simulation.
// docs/cost-model.md gives the formulas and their errors.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "core/base/cpu_features.h"
#include "core/plan/profile.h"
#include "core/plan/simulator.h"
#include "core/tiles/tile_graph.h"

namespace tessera::plan {

// "gemm", "depthwise", ...: how profiles name each kind of work.
const char* work_kind_name(ops::WorkKind kind);
// The class of a task's work that the in-model fit scales (the profile's `in_model` key): its
// kind's name, but "winograd" for the GEMMs of Winograd's transform points (both tiles'),
// which run interleaved with their transforms and cost more than direct GEMMs of their shape
// (a profile without the class prices them as "gemm").
const char* fit_class_name(const ops::OpCost& cost);

// The memory level data of `bytes` are read from: the first whose half holds them (where
// calibration measured each level; data filling a cache do not stay there next to everything
// else a run touches). For a node, the activations it reads and writes; for weights, all of
// a model's next to its arena. The shared last-level cache counts for all threads.
const MemoryLevel& source_level(const Profile& profile, double bytes);

// Bytes per second one of `threads` busy threads gets from `level`, copying (bytes read and
// written) or only reading. Private levels give every thread the single-thread rate; shared
// ones (L3, DRAM) divide what all cores reached.
enum class Traffic { kCopy, kRead };
double thread_bandwidth(const Profile& profile, const MemoryLevel& level, int threads,
                        Traffic traffic = Traffic::kCopy);

// GFLOP/s of the GEMM micro-kernel on one block of rows x columns x depth (counting padded
// work), interpolated in log space over the profile's grid and held at its edges.
double gemm_gflops(const GemmCurve& curve, double rows, double columns, double depth);

// The micro-kernel block (rows x columns) the ops bind for a GEMM shape
// (kernels::gemm_kernel_for: a narrower panel for few columns, fewer rows where A's rows
// share an L1 set), and the depthwise kernel's vector width, where the profile measured this
// build's kernels (its GEMM kernel is this build's best); else the profile's GEMM block and
// no depthwise padding. Resolves the profile once and keeps the last shape's block: a node's
// tiles are priced in a row. One per pricer (not shared between threads).
class KernelBlocks {
 public:
  struct Block {
    int mr = 0, nr = 0;
  };
  explicit KernelBlocks(const Profile& profile);
  Block of(const ops::GemmShape& g) const;
  // Channels per vector of the depthwise kernel (1, no padding, for another build's profile).
  int depthwise_lanes() const { return depthwise_lanes_; }

 private:
  Block profile_block_;
  int depthwise_lanes_ = 1;
  bool this_build_ = false;
  Isa isa_ = Isa::kScalar;
  mutable int64_t last_columns_ = -1, last_row_bytes_ = -1;
  mutable Block last_;
};

// GEMM micro-kernel calls x kernel taps of one task (0 for other kinds): the loop setups a
// convolution pays per tap.
double gemm_tap_blocks(const KernelBlocks& blocks, const ops::OpCost& cost);

// Prices tiles one at a time, when `threads` threads run at once (bandwidth shared) in a
// model whose weights and arena take `model_bytes`: what predict_task_seconds does per task,
// for planners that weigh tilings before any is compiled. No executor overhead. With the
// profile's in-model fit (`in_model` false: the rates alone, what calibration fits against).
class TilePricer {
 public:
  TilePricer(const Profile& profile, int threads, double model_bytes, bool in_model = true);

  // Bytes per second one thread gets from a level: reading alone, and when every one of the
  // `threads` threads reads it at once.
  struct Rate {
    double alone = 0;
    double all = 0;
  };
  // What a node's tiles share: where its data come from, its weights' time per tile.
  struct Node {
    const MemoryLevel* level = nullptr;
    Rate bandwidth;                    // from `level`
    double weight_seconds = 0;         // the first read of the node's weights, spread over its tiles
    double weight_again_seconds = 0;   // the reads after the first (below), spread over its tiles
    bool again_in_own_cache = false;   // whether those come from a core's own cache
    double weight_shared_seconds = 0;  // the shared-level part of both at the `all` rate
    double weight_bytes = 0;           // the node's weights (priced_weight_bytes)
  };
  // `reach_bytes`: what the caches must hold for the node to find its inputs
  // (tiles::data_reach_bytes); its data come from the level whose half holds them.
  // `weight_reads`: the weight bytes all its tiles read (tile_weight_bytes summed). The first
  // read of each weight comes from the level that holds all the model's weights; the others
  // (the row blocks of a GEMM after the first, each reading the same panels) from the level
  // that holds the node's own weights. From a core's own cache those overlap the compute, as
  // its activations do there; from a shared level they stall it.
  Node node(double reach_bytes, double weight_bytes, uint32_t tiles, double weight_reads) const;

  // Input bytes of a tile still in a cache closer than its node's level, `level`: a producer
  // ran just before (on the same core, for a core's own cache).
  struct Warm {
    double bytes = 0;
    const MemoryLevel* level = nullptr;
  };
  // Seconds of one tile's kernel: `cost` of its region, `elements` in it, `warm` of its
  // inputs from a closer cache: from a core's own they overlap the compute.
  double seconds(const Node& node, const ops::OpCost& cost, double elements, Warm warm) const;
  double seconds(const Node& node, const ops::OpCost& cost, double elements) const;
  // Seconds of writing `bytes` over lines last touched a run ago: they come from the level
  // that holds the model (its weights' level), beyond what the node's own level charges
  // them. A model whose data outgrow the shared cache pays DRAM for every such line.
  double stale_write_seconds(const Node& node, double bytes) const;
  // Where warm inputs can be: a core's last own cache, and the first shared one (or null).
  const MemoryLevel* own_cache() const { return own_cache_; }
  const MemoryLevel* shared_cache() const { return shared_cache_; }

 private:
  static constexpr size_t kUnaryOps = static_cast<size_t>(kernels::UnaryOp::kMish) + 1;
  static constexpr size_t kWorkKinds = static_cast<size_t>(ops::WorkKind::kNormalize) + 1;
  static constexpr size_t kWinogradFit = kWorkKinds;  // the in-model fit's one class past the kinds

  double unary_ns(kernels::UnaryOp op) const { return unary_ns_[static_cast<size_t>(op)]; }
  // Compute with the data in L1, without a fused activation; then with it, and with the
  // scale and shift a GEMM or depthwise convolution applies to each output (one pass each).
  double kernel_seconds(const ops::OpCost& cost, double elements) const;
  double compute_seconds(const ops::OpCost& cost, double elements) const;
  // The GEMM micro-kernel streams a tile's packed weights (depth x columns) once per block of
  // rows: when they overflow the core's private caches, every pass after the first reads them
  // from the shared level again (these bytes). Interleaved GEMMs stream all theirs per block.
  double restream_bytes(const ops::OpCost& cost) const;
  Rate rate(const MemoryLevel& level, Traffic traffic) const;

  const Profile& profile_;
  KernelBlocks blocks_;
  int threads_ = 1;
  std::array<double, kUnaryOps> unary_ns_{};        // by kernels::UnaryOp, resolved once
  std::array<InModel, kWorkKinds + 1> in_model_{};  // by ops::WorkKind, then Winograd's
  const MemoryLevel* weight_level_ = nullptr;
  Rate weight_rate_;
  const MemoryLevel* own_cache_ = nullptr;     // the last private level
  const MemoryLevel* shared_cache_ = nullptr;  // the first shared one
  Rate restream_rate_;                         // reading the first shared level
};

// The weights a node's kernel reads, from `cost` (any of its tiles') and the weights it is
// given: those, or where its GEMMs run interleaved (Winograd's points), the panels of all its
// columns for every point: F(4x4, 3x3) transforms a 3x3 kernel's 9 taps into 36 points.
double priced_weight_bytes(const ops::OpCost& cost, double weight_bytes);

// Weight bytes one tile of a node with `weight_bytes` of weights (priced_weight_bytes) over
// `tiles` tiles reads: a GEMM tile the packed panels of its columns (depth x columns, for each
// of its GEMMs), any other its share.
double tile_weight_bytes(const ops::OpCost& cost, double weight_bytes, uint32_t tiles);

// Seconds of each task's kernel when `threads` threads run at once (bandwidth shared), in
// task order; no executor overhead. With the profile's in-model fit (`in_model` false: the
// rates alone, what calibration fits against).
std::vector<double> predict_task_seconds(const tiles::TileGraph& graph, const Profile& profile, int threads,
                                         bool in_model = true);

// The tasks of a compiled graph with the given per-task times (seconds, in task order, priced
// for `threads` threads at once). A task's input bytes are its traffic less its output and its
// share of the weights. Where its node's data come from a core's own caches, they are what
// another core's data cost more (from a shared level, data another core made cost what they
// would anyway); where they come from a shared level, what the task saves when they are
// still in its core's own cache, or in the shared one, is priced (TilePricer::seconds) for
// the simulator to grant when its producers ran just before.
std::vector<SimTask> sim_tasks(const tiles::TileGraph& graph, std::span<const double> seconds, const Profile& profile,
                               int threads);

// The executor's costs as the simulator charges them: per task (dispatch plus its edges on
// average), steals and wake-ups; reading another core's data, beyond a read from a core's
// own L2, and writing over what another core read; and how much of a core's own cache and of
// the shared one keeps recent outputs (half the last private level and half the first shared
// cache, as data reach a level: source_level).
SimCosts sim_costs(const tiles::TileGraph& graph, const Profile& profile);

// Whether a node whose data take `reach_bytes` (tiles::data_reach_bytes) reads them from a
// shared level (L3, DRAM): there, data another core made cost what they would anyway.
bool reads_shared_level(const Profile& profile, double reach_bytes);

// What a byte of a tile's input made on another core costs beyond a read from the core's own
// L2, where its node's data sit in a core's own caches (see reads_shared_level).
double cross_core_byte_seconds(const Profile& profile);

// What a byte a tile writes over lines another core has read and still holds costs beyond
// writing the core's own (0 where the profile did not measure it).
double overwrite_byte_seconds(const Profile& profile);

// Per compiled node, the sum of its tasks' `seconds` (in task order).
std::vector<double> node_seconds(const tiles::TileGraph& graph, std::span<const double> seconds);

struct Prediction {
  bool calibrated = false;
  int threads = 1;
  SimScheduler scheduler = SimScheduler::kDynamic;
  double latency = 0;        // seconds, one run (with the profile's fixed cost per run)
  double critical_path = 0;  // seconds
  std::vector<double> idle;  // per thread, seconds
  // Per compiled node: the sum of its tiles' kernel times, with what the simulation found of
  // their inputs (another thread's cost more, its own thread's just made less): what a
  // traced run's tiles measure.
  std::vector<double> node_seconds;
};

Prediction predict(const tiles::TileGraph& graph, const Profile& profile, int threads, SimScheduler scheduler);

}  // namespace tessera::plan
