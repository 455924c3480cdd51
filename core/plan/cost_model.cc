// Tile prices from a profile, and whole-graph predictions through the simulator.
#include "core/plan/cost_model.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/base/cpu_features.h"
#include "core/kernels/dwconv/dwconv.h"
#include "core/kernels/gemm/gemm.h"
#include "core/kernels/winograd/winograd.h"
#include "core/ops/unary.h"
#include "core/tiles/schedule_policy.h"

namespace tessera::plan {

namespace {

// Where x falls between two grid points, in log space: the lower index and the weight of
// the upper one (held at the ends).
struct Bracket {
  size_t index = 0;
  double weight = 0;
};
Bracket bracket(const std::vector<int64_t>& points, double x) {
  if (points.size() < 2 || x <= static_cast<double>(points.front())) return {0, 0};
  if (x >= static_cast<double>(points.back())) return {points.size() - 2, 1};
  size_t i = 0;
  while (static_cast<double>(points[i + 1]) < x) ++i;
  const double lo = std::log(static_cast<double>(points[i]));
  const double hi = std::log(static_cast<double>(points[i + 1]));
  return {i, (std::log(x) - lo) / (hi - lo)};
}

bool is_shared(const MemoryLevel& level) { return level.name == "L3" || level.name == "DRAM"; }

// A core's last own cache level, the first shared level, and that one if it is a cache (not
// DRAM); null where the profile has none.
const MemoryLevel* own_cache_level(const Profile& profile) {
  const MemoryLevel* own = nullptr;
  for (const MemoryLevel& level : profile.memory) {
    if (is_shared(level)) break;
    own = &level;
  }
  return own;
}
const MemoryLevel* first_shared_level(const Profile& profile) {
  for (const MemoryLevel& level : profile.memory) {
    if (is_shared(level)) return &level;
  }
  return nullptr;
}
const MemoryLevel* shared_cache_level(const Profile& profile) {
  const MemoryLevel* shared = first_shared_level(profile);
  return shared != nullptr && shared->bytes > 0 ? shared : nullptr;
}

// Half a level's capacity, where data stay (source_level); 0 for none.
double half_capacity(const MemoryLevel* level) { return level ? 0.5 * static_cast<double>(level->bytes) : 0; }

// What one fetch from beyond L1 brings: two 64-byte lines (the adjacent-line prefetchers of
// x86 and Arm cores alike).
constexpr double kFetchBytes = 128;

double round_up(double x, int multiple) { return std::ceil(x / multiple) * multiple; }

// How many GEMMs of shape c.gemm a GEMM task runs (0 for an empty shape).
double gemm_count(const ops::OpCost& c) {
  const ops::GemmShape& g = c.gemm;
  if (g.rows <= 0 || g.columns <= 0 || g.depth <= 0) return 0;
  if (g.count > 0) return static_cast<double>(g.count);
  const double one = 2.0 * static_cast<double>(g.rows) * static_cast<double>(g.columns) * static_cast<double>(g.depth);
  return std::max(1.0, c.flops / one);
}

// The GEMMs of Winograd's transform points, with their transforms.
bool winograd_points(const ops::OpCost& c) {
  return c.kind == ops::WorkKind::kGemm && (c.transforms.input > 0 || c.transforms.output > 0);
}

// Bytes of a GEMM's packed weight panels for its columns (depth x columns), one batch's.
double panel_bytes(const ops::GemmShape& g) {
  return 4.0 * static_cast<double>(g.depth) * static_cast<double>(g.columns);
}

}  // namespace

const char* work_kind_name(ops::WorkKind kind) {
  using ops::WorkKind;
  switch (kind) {
    case WorkKind::kCopy: return "copy";
    case WorkKind::kPermute: return "permute";
    case WorkKind::kElementwise: return "elementwise";
    case WorkKind::kUnary: return "unary";
    case WorkKind::kGemm: return "gemm";
    case WorkKind::kDepthwise: return "depthwise";
    case WorkKind::kPool: return "pool";
    case WorkKind::kSoftmax: return "softmax";
    case WorkKind::kNormalize: return "normalize";
  }
  return "copy";
}

const char* fit_class_name(const ops::OpCost& cost) {
  return winograd_points(cost) ? "winograd" : work_kind_name(cost.kind);
}

const MemoryLevel& source_level(const Profile& profile, double bytes) {
  for (const MemoryLevel& level : profile.memory) {
    if (level.bytes == 0 || bytes <= 0.5 * static_cast<double>(level.bytes)) return level;
  }
  return profile.memory.back();
}

double thread_bandwidth(const Profile& profile, const MemoryLevel& level, int threads, Traffic traffic) {
  const double one_thread = traffic == Traffic::kCopy ? level.copy_gbps : level.read_gbps;
  const double single = one_thread * 1e9;
  if (!is_shared(level) || threads <= 1) return single;
  // shared_gbps was read with every core at once; copies move read and write bytes at the
  // same ratio to reads as on one thread. Past this machine's cores, L3 grows with the
  // cores (one slice each) and DRAM does not.
  const double ratio = one_thread / level.read_gbps;
  double total = level.shared_gbps * 1e9 * ratio;
  if (level.name == "L3" && threads > profile.cores) total *= static_cast<double>(threads) / profile.cores;
  return std::min(single, total / threads);
}

double gemm_gflops(const GemmCurve& curve, double rows, double columns, double depth) {
  const Bracket r = bracket(curve.rows, rows);
  const Bracket c = bracket(curve.columns, columns);
  const Bracket d = bracket(curve.depths, depth);
  const size_t nc = curve.columns.size();
  const size_t nd = curve.depths.size();
  double rate = 0;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 2; ++k) {
        const double w = (i ? r.weight : 1 - r.weight) * (j ? c.weight : 1 - c.weight) * (k ? d.weight : 1 - d.weight);
        if (w == 0) continue;
        const size_t ri = std::min(r.index + i, curve.rows.size() - 1);
        const size_t ci = std::min(c.index + j, nc - 1);
        const size_t di = std::min(d.index + k, nd - 1);
        rate += w * curve.gflops[(ri * nc + ci) * nd + di];
      }
    }
  }
  return rate;
}

KernelBlocks::KernelBlocks(const Profile& p) : profile_block_{p.gemm.mr, p.gemm.nr} {
  this_build_ = parse_isa(p.isa, &isa_) && p.gemm.kernel == kernels::best_gemm_kernel(isa_).name;
  if (this_build_) depthwise_lanes_ = static_cast<int>(kernels::best_dwconv_kernel(isa_).lanes);
}

KernelBlocks::Block KernelBlocks::of(const ops::GemmShape& g) const {
  if (!this_build_ || g.panel_columns <= 0) return profile_block_;
  if (g.panel_columns != last_columns_ || g.row_bytes != last_row_bytes_) {
    const kernels::GemmKernel& kernel =
        kernels::gemm_kernel_for(isa_, static_cast<size_t>(g.panel_columns), static_cast<size_t>(g.row_bytes));
    last_ = {kernel.mr, kernel.nr};
    last_columns_ = g.panel_columns;
    last_row_bytes_ = g.row_bytes;
  }
  return last_;
}

double gemm_tap_blocks(const KernelBlocks& blocks, const ops::OpCost& c) {
  const ops::GemmShape& g = c.gemm;
  if (c.kind != ops::WorkKind::kGemm) return 0;
  const KernelBlocks::Block block = blocks.of(g);
  return std::ceil(static_cast<double>(g.rows) / block.mr) * std::ceil(static_cast<double>(g.columns) / block.nr) *
         static_cast<double>(g.taps) * gemm_count(c);
}

TilePricer::TilePricer(const Profile& profile, int threads, double model_bytes, bool in_model)
    : profile_(profile), blocks_(profile), threads_(threads) {
  // An op calibration did not reach costs what the dearest measured one costs.
  double dearest = profile.elementwise_ns;
  for (const auto& [name, ns] : profile.unary_ns) dearest = std::max(dearest, ns);
  for (size_t op = 0; op < kUnaryOps; ++op) {
    const auto it = profile.unary_ns.find(ops::unary_op_name(static_cast<kernels::UnaryOp>(op)));
    unary_ns_[op] = it != profile.unary_ns.end() ? it->second : dearest;
  }
  for (size_t kind = 0; kind < kWorkKinds && in_model; ++kind) {
    const auto it = profile.in_model.find(work_kind_name(static_cast<ops::WorkKind>(kind)));
    if (it != profile.in_model.end()) in_model_[kind] = it->second;
  }
  const auto winograd = profile.in_model.find("winograd");
  in_model_[kWinogradFit] = in_model && winograd != profile.in_model.end()
                                ? winograd->second
                                : in_model_[static_cast<size_t>(ops::WorkKind::kGemm)];
  // Weights come from the level that holds all of them next to the activations (a run
  // passes through both): each node's once per run, spread over its tiles (a GEMM's row
  // blocks after the first read them again from a closer level: TilePricer::node).
  weight_level_ = &source_level(profile, model_bytes);
  weight_rate_ = rate(*weight_level_, Traffic::kRead);
  own_cache_ = own_cache_level(profile);
  shared_cache_ = shared_cache_level(profile);
  if (const MemoryLevel* shared = first_shared_level(profile)) restream_rate_ = rate(*shared, Traffic::kRead);
}

TilePricer::Rate TilePricer::rate(const MemoryLevel& level, Traffic traffic) const {
  return {thread_bandwidth(profile_, level, 1, traffic), thread_bandwidth(profile_, level, threads_, traffic)};
}

// Seconds of compute of one task, its data in L1, without a fused activation.
double TilePricer::kernel_seconds(const ops::OpCost& c, double elements) const {
  using ops::WorkKind;
  const Profile& p = profile_;
  switch (c.kind) {
    case WorkKind::kCopy: return 0;
    case WorkKind::kPermute: return c.bytes * p.permute_ns * 1e-9;
    case WorkKind::kElementwise: return std::max(elements, c.flops) * p.elementwise_ns * 1e-9;
    case WorkKind::kUnary: return elements * unary_ns(c.unary) * 1e-9;
    case WorkKind::kDepthwise: {
      const ops::DepthwiseShape& d = c.depthwise;
      if (d.channels <= 0) return c.flops / (p.depthwise_gflops * 1e9) + elements * p.depthwise_output_ns * 1e-9;
      const double channels = static_cast<double>(d.channels);
      const double padded = round_up(channels, blocks_.depthwise_lanes());
      return 2.0 * padded * static_cast<double>(d.taps) / (p.depthwise_gflops * 1e9) +
             elements * padded / channels * p.depthwise_output_ns * 1e-9;
    }
    case WorkKind::kPool: return c.flops * p.pool_tap_ns * 1e-9;
    case WorkKind::kSoftmax: return elements * p.softmax_ns * 1e-9;
    case WorkKind::kNormalize: return elements * p.normalize_ns * 1e-9;
    case WorkKind::kGemm: {
      const ops::GemmShape& g = c.gemm;
      const double count = gemm_count(c);
      if (count == 0) return 0;
      const KernelBlocks::Block block = blocks_.of(g);
      const double rows = p.gemm.short_blocks ? static_cast<double>(kernels::gemm_rows_computed(
                                                    static_cast<size_t>(g.rows), static_cast<size_t>(block.mr)))
                                              : round_up(static_cast<double>(g.rows), block.mr);
      const double padded =
          2.0 * rows * round_up(static_cast<double>(g.columns), block.nr) * static_cast<double>(g.depth) * count;
      const double rate = gemm_gflops(p.gemm, static_cast<double>(g.rows), static_cast<double>(g.columns),
                                      static_cast<double>(g.depth));
      const ops::TransformShape& t = c.transforms;
      const bool f2 = t.side == kernels::kWinogradF2.output;
      const double transforms = static_cast<double>(t.input) * (f2 ? p.winograd_f2_input_ns : p.winograd_input_ns) +
                                static_cast<double>(t.output) * (f2 ? p.winograd_f2_output_ns : p.winograd_output_ns);
      return padded / (rate * 1e9) + transforms * 1e-9;
    }
  }
  return 0;
}

double TilePricer::restream_bytes(const ops::OpCost& c) const {
  const ops::GemmShape& g = c.gemm;
  if (c.kind != ops::WorkKind::kGemm || restream_rate_.alone <= 0) return 0;
  const double count = gemm_count(c);
  const double panels = panel_bytes(g) * (g.interleaved ? count : 1);  // what one block of rows reads
  // The panels stay in the core's caches only beside the rows of A a block reads with them.
  const int mr = blocks_.of(g).mr;
  const double a_rows = 4.0 * mr * static_cast<double>(g.depth) * (g.interleaved ? count : 1);
  if (panels + a_rows <= (own_cache_ != nullptr ? static_cast<double>(own_cache_->bytes) : 0)) return 0;
  const double passes = std::ceil(static_cast<double>(g.rows) / mr) - 1;
  return (g.interleaved ? 1 : count) * passes * panels;
}

double TilePricer::compute_seconds(const ops::OpCost& c, double elements) const {
  const bool fused = c.kind != ops::WorkKind::kUnary && c.unary != kernels::UnaryOp::kCopy;
  return kernel_seconds(c, elements) + (fused ? elements * unary_ns(c.unary) * 1e-9 : 0) +
         elements * c.affine_passes * profile_.elementwise_ns * 1e-9;
}

double priced_weight_bytes(const ops::OpCost& cost, double weight_bytes) {
  const ops::GemmShape& g = cost.gemm;
  if (cost.kind != ops::WorkKind::kGemm || !g.interleaved || weight_bytes <= 0) return weight_bytes;
  const double all_columns = 4.0 * static_cast<double>(g.depth) * static_cast<double>(g.panel_columns);
  return std::max(weight_bytes, all_columns * gemm_count(cost));
}

double tile_weight_bytes(const ops::OpCost& cost, double weight_bytes, uint32_t tiles) {
  const ops::GemmShape& g = cost.gemm;
  if (cost.kind != ops::WorkKind::kGemm || weight_bytes <= 0) return weight_bytes / std::max(1u, tiles);
  const double panels = panel_bytes(g) * gemm_count(cost);
  return std::min(weight_bytes, panels);
}

TilePricer::Node TilePricer::node(double reach_bytes, double weight_bytes, uint32_t tiles, double weight_reads) const {
  // The level whose half holds what the node reaches is where its data come from; its weights
  // stream in order, prefetched.
  const MemoryLevel& level = source_level(profile_, reach_bytes);
  const double again = std::max(0.0, weight_reads - weight_bytes);
  const MemoryLevel& again_level = source_level(profile_, weight_bytes);
  const Rate again_rate = rate(again_level, Traffic::kRead);
  const double per_tile = 1.0 / std::max(1u, tiles);
  Node out{&level, rate(level, Traffic::kCopy)};
  out.weight_bytes = weight_bytes;
  out.weight_seconds = weight_bytes / weight_rate_.alone * per_tile;
  out.weight_again_seconds = again / again_rate.alone * per_tile;
  out.again_in_own_cache = !is_shared(again_level);
  // The shared levels' part when every thread reads its share at once.
  out.weight_shared_seconds = ((is_shared(*weight_level_) ? weight_bytes / weight_rate_.all : 0) +
                               (is_shared(again_level) ? again / again_rate.all : 0)) *
                              per_tile;
  return out;
}

double TilePricer::seconds(const Node& node, const ops::OpCost& cost, double elements, Warm warm) const {
  const InModel& fit = in_model_[winograd_points(cost) ? kWinogradFit : static_cast<size_t>(cost.kind)];
  const double restream = restream_bytes(cost);
  const double compute = compute_seconds(cost, elements) + (restream > 0 ? restream / restream_rate_.alone : 0);
  // A GEMM tile's bytes count its weight panels once (B's footprint, every interleaved GEMM's);
  // they are the node's weight reads (weight_seconds), the rest its activations.
  const double panels =
      cost.kind == ops::WorkKind::kGemm
          ? std::min(node.weight_bytes, panel_bytes(cost.gemm) * (cost.gemm.interleaved ? gemm_count(cost) : 1))
          : 0;
  const double bytes = std::max(0.0, cost.bytes - panels);
  // A tile whose own bytes overflow the level its node's data come from works out of the
  // next one: it evicts what it read before it reads it again.
  const MemoryLevel& tile_level = source_level(profile_, cost.bytes);
  const bool overflows = &tile_level > node.level;
  const MemoryLevel& level = overflows ? tile_level : *node.level;
  // Caches fetch lines in pairs: runs shorter than a pair bring in bytes nobody reads. From
  // the shared levels the prefetchers bring whole pixels: a block of channels costs what all
  // of them do (ResNet-50's max pool in two blocks of 32 channels: 0.12-0.13 ms against 0.064).
  const double run = static_cast<double>(cost.input_run_bytes);
  const double pixel = static_cast<double>(std::max(cost.input_pixel_bytes, cost.input_run_bytes));
  const double fetched = run <= 0            ? bytes
                         : is_shared(level)  ? bytes * pixel / run
                         : run < kFetchBytes ? bytes * kFetchBytes / run
                                             : bytes;
  const Rate bandwidth = overflows ? rate(level, Traffic::kCopy) : node.bandwidth;
  // Inputs a producer left in a closer cache come from there.
  const bool closer = is_shared(level) && warm.level != nullptr && warm.level < &level && bytes > 0;
  const double warm_fetched = closer ? std::min(warm.bytes, bytes) / bytes * fetched : 0;
  const Rate warm_rate = closer ? rate(*warm.level, Traffic::kRead) : Rate{1, 1};
  const double warm_seconds = warm_fetched / warm_rate.alone;
  const double memory = (fetched - warm_fetched) / bandwidth.alone;
  // Within a core's own caches, loads overlap the compute; misses to the shared levels
  // stall it (what the 112 x 112 layers of MobileNetV2 show), activations and weights
  // alike. Only a weight-bound layer (VGG-16's 400 MB fully-connected one) is all stall.
  const bool warm_stalls = closer && is_shared(*warm.level);
  const double activations = !is_shared(level) ? std::max(compute, memory)
                             : warm_stalls     ? compute + warm_seconds + memory
                                               : std::max(compute, warm_seconds) + memory;
  const double again = node.again_in_own_cache ? std::max(activations, node.weight_again_seconds)
                                               : activations + node.weight_again_seconds;
  const double alone = is_shared(*weight_level_) ? again + node.weight_seconds : std::max(again, node.weight_seconds);
  // Threads share a level's bandwidth only when their demand exceeds it: a tile takes at
  // least its shared-level bytes at its share of what all cores reach (BERT-base's matmuls
  // stream their weights from DRAM far below it and lose nothing on two threads).
  const double shared = (is_shared(level) ? (fetched - warm_fetched) / bandwidth.all : 0) +
                        (warm_stalls ? warm_fetched / warm_rate.all : 0) + node.weight_shared_seconds +
                        (restream > 0 ? restream / restream_rate_.all : 0);
  const double kernel = std::max(alone, shared);
  return kernel * fit.scale + fit.tile + fit.tap * gemm_tap_blocks(blocks_, cost);
}

double TilePricer::stale_write_seconds(const Node& node, double bytes) const {
  if (bytes <= 0 || !is_shared(*weight_level_)) return 0;
  const double stale = 1 / rate(*weight_level_, Traffic::kRead).all;
  // A node priced at a shared level already pays for its output lines there.
  const double paid = is_shared(*node.level) ? 1 / node.bandwidth.all : 0;
  return bytes * std::max(0.0, stale - paid);
}

namespace {

// Prices every task of `graph` in order, each node's share once: price(task index, the
// node's share, the task).
template <class Price>
void price_tasks(const tiles::TileGraph& graph, const TilePricer& pricer, Price&& price) {
  for (const tiles::CompiledNode& node : graph.nodes) {
    if (node.task_count == 0) continue;
    const double weights =
        priced_weight_bytes(graph.tasks[node.first_task].cost, static_cast<double>(node.weight_bytes));
    double reads = 0;
    for (uint32_t t = node.first_task; t < node.first_task + node.task_count; ++t) {
      reads += tile_weight_bytes(graph.tasks[t].cost, weights, node.task_count);
    }
    const TilePricer::Node priced = pricer.node(static_cast<double>(node.reach_bytes), weights, node.task_count, reads);
    for (uint32_t t = node.first_task; t < node.first_task + node.task_count; ++t) price(t, priced, graph.tasks[t]);
  }
}

double model_bytes(const tiles::TileGraph& graph) {
  return static_cast<double>(graph.weight_bytes + graph.arena_bytes);
}

}  // namespace

double TilePricer::seconds(const Node& node, const ops::OpCost& cost, double elements) const {
  return seconds(node, cost, elements, Warm{});
}

std::vector<double> predict_task_seconds(const tiles::TileGraph& graph, const Profile& profile, int threads,
                                         bool in_model) {
  std::vector<double> seconds(graph.tasks.size(), 0.0);
  const TilePricer pricer(profile, threads, model_bytes(graph), in_model);
  price_tasks(graph, pricer, [&](uint32_t t, const TilePricer::Node& node, const tiles::Task& task) {
    seconds[t] = pricer.seconds(node, task.cost, static_cast<double>(task.region.element_count()));
  });
  return seconds;
}

std::vector<SimTask> sim_tasks(const tiles::TileGraph& graph, std::span<const double> seconds, const Profile& profile,
                               int threads) {
  TESSERA_CHECK(seconds.size() == graph.tasks.size());
  std::vector<SimTask> tasks(graph.tasks.size());
  const TilePricer pricer(profile, threads, model_bytes(graph));
  price_tasks(graph, pricer, [&](uint32_t t, const TilePricer::Node& priced, const tiles::Task& task) {
    SimTask& out = tasks[t];
    out.node = task.node;
    out.seconds = seconds[t];
    out.children.assign(graph.children.begin() + task.children_begin, graph.children.begin() + task.children_end);
    const tiles::CompiledNode& node = graph.nodes[task.node];
    out.defers_depth_first = tiles::policy::defers_depth_first(node.weight_bytes);
    const auto elements = static_cast<double>(task.region.element_count());
    out.output_bytes = elements * 4;
    out.bytes = task.cost.bytes;
    for (uint32_t i = task.overwrites_begin; i < task.overwrites_end; ++i) {
      out.overwrites.push_back({graph.overwrites[i].reader, static_cast<double>(graph.overwrites[i].bytes)});
    }
    // What no earlier occupant wrote this run: a first occupant's bytes, or every output of
    // a model run without reuse.
    out.stale_write_seconds = pricer.stale_write_seconds(priced, out.output_bytes * task.stale_share);
    const double weights = tile_weight_bytes(task.cost, priced.weight_bytes, node.task_count);
    const double inputs = std::max(0.0, task.cost.bytes - out.output_bytes - weights);
    if (!is_shared(*priced.level)) {
      out.input_bytes = inputs;
      return;
    }
    const double cold = pricer.seconds(priced, task.cost, elements);
    const auto saving = [&](const MemoryLevel* cache) {
      return cache ? std::clamp(cold - pricer.seconds(priced, task.cost, elements, {inputs, cache}), 0.0, seconds[t])
                   : 0.0;
    };
    out.saving_in_own_cache = saving(pricer.own_cache());
    out.saving_in_shared_cache = saving(pricer.shared_cache());
  });
  return tasks;
}

SimCosts sim_costs(const tiles::TileGraph& graph, const Profile& profile) {
  const double edges = static_cast<double>(graph.data_edges + graph.reuse_edges);
  const double per_task_edges = graph.tasks.empty() ? 0 : edges / static_cast<double>(graph.tasks.size());
  return {profile.executor.task + per_task_edges * profile.executor.edge,
          profile.executor.steal,
          profile.executor.wake,
          profile.executor.spin,
          cross_core_byte_seconds(profile),
          profile.executor.remote_input,
          overwrite_byte_seconds(profile),
          half_capacity(own_cache_level(profile)),
          half_capacity(shared_cache_level(profile))};
}

bool reads_shared_level(const Profile& profile, double reach_bytes) {
  return is_shared(source_level(profile, reach_bytes));
}

double cross_core_byte_seconds(const Profile& profile) {
  if (profile.cross_core_gbps <= 0 || profile.memory.size() < 2) return 0;
  // Tiles price their inputs as read from a core's own caches; from another core's they come
  // at the cross-core rate instead.
  return std::max(0.0, 1 / (profile.cross_core_gbps * 1e9) - 1 / (profile.memory[1].read_gbps * 1e9));
}

double overwrite_byte_seconds(const Profile& profile) {
  return profile.shared_overwrite_gbps > 0 ? 1 / (profile.shared_overwrite_gbps * 1e9) : 0;
}

std::vector<double> node_seconds(const tiles::TileGraph& graph, std::span<const double> seconds) {
  std::vector<double> out(graph.nodes.size(), 0.0);
  for (size_t t = 0; t < graph.tasks.size(); ++t) out[graph.tasks[t].node] += seconds[t];
  return out;
}

Prediction predict(const tiles::TileGraph& graph, const Profile& profile, int threads, SimScheduler scheduler) {
  Prediction out;
  out.calibrated = profile.calibrated;
  out.threads = threads;
  out.scheduler = scheduler;
  const std::vector<double> seconds = predict_task_seconds(graph, profile, threads);
  const std::vector<SimTask> tasks = sim_tasks(graph, seconds, profile, threads);
  const SimResult sim = simulate(tasks, {threads, scheduler, sim_costs(graph, profile)});
  std::vector<double> as_run = seconds;
  for (size_t t = 0; t < as_run.size(); ++t) as_run[t] += sim.locality[t];
  out.node_seconds = node_seconds(graph, as_run);
  out.latency = sim.latency + (threads > 1 ? profile.executor.run_all : profile.executor.run);
  out.critical_path = sim.critical_path;
  out.idle = sim.idle;
  return out;
}

}  // namespace tessera::plan
