// The tile compiler: tasks from the plan's grids, data edges from footprints, reuse edges
// from the memory plan, kernels bound to arena offsets.
#include "core/tiles/compile.h"

#include <algorithm>
#include <set>

#include "core/base/check.h"
#include "core/base/constant_store.h"
#include "core/tiles/data_reach.h"
#include "core/tiles/edges.h"
#include "core/tiles/memory_plan.h"

namespace tessera::tiles {

namespace {

using WeightCopies = std::map<int, std::shared_ptr<const AlignedBuffer>>;

ops::TensorBinding binding_of(const graph::Graph& g, const MemoryPlan& memory, const WeightCopies& copies, int tensor) {
  const graph::Tensor& t = g.tensors[tensor];
  ops::TensorBinding b;
  b.shape = t.shape;
  b.layout = t.layout;
  b.dtype = t.dtype;
  if (t.is_constant()) {
    b.layout = ops::Layout::identity(static_cast<int>(t.shape.size()));
    const auto copy = copies.find(tensor);
    b.constant = copy != copies.end() ? copy->second->data() : t.constant;
  } else {
    b.arena_offset = memory.storages[memory.storage_index[tensor]].offset;
  }
  b.strides = ops::logical_strides(b.shape, b.layout);
  return b;
}

Result<std::unique_ptr<ops::TileKernel>> bind_node(const graph::Graph& g, int n, const MemoryPlan& memory,
                                                   const WeightCopies& copies, const CompileOptions& options) {
  const graph::Node& node = g.nodes[n];
  const ops::OpShapes shapes = g.shapes_of(node);
  ops::BindArgs args{shapes,           {},        binding_of(g, memory, copies, node.output),
                     options.max_isa,  g.path(n), options.store,
                     g.weights().get()};
  for (int input : node.inputs) {
    args.inputs.push_back(input >= 0 ? binding_of(g, memory, copies, input) : ops::TensorBinding());
  }
  auto kernel = ops::op_bind(node.attrs, args);
  // Its weights are packed now: the pages they came from go until a run reads them again
  // (small constants some kernels read as they are, or a gathered table's rows).
  if (const WeightsFile* weights = g.weights().get()) {
    for (int input : node.inputs) {
      if (input >= 0 && g.tensors[input].is_constant())
        weights->release_pages(g.tensors[input].constant, g.tensors[input].bytes());
    }
  }
  return kernel;
}

// Gives constant `t` a copy in the store when it lies in the weights file, is smaller than
// copy_read_in_place_below and has none yet; whether it made one.
bool copy_off_weights(const graph::Graph& g, int t, WeightCopies& copies, const CompileOptions& options) {
  if (g.tensors[t].bytes() >= options.copy_read_in_place_below || !g.in_weights_file(t) || copies.count(t)) {
    return false;
  }
  copies[t] = options.store->intern(g.tensors[t].constant, static_cast<size_t>(g.tensors[t].bytes()));
  return true;
}

// Node `n` bound; with copy_read_in_place_below, bound again to copies of the constants its
// kernel reads in place from the weights file (its packed weights found in the store).
Result<std::unique_ptr<ops::TileKernel>> bind_off_weights(const graph::Graph& g, int n, const MemoryPlan& memory,
                                                          WeightCopies& copies, const CompileOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(std::unique_ptr<ops::TileKernel> kernel, bind_node(g, n, memory, copies, options));
  if (options.copy_read_in_place_below == 0) return kernel;
  const std::vector<int> copied = kernel->copied_inputs();
  const std::vector<int>& inputs = g.nodes[n].inputs;
  bool moved = false;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    if (inputs[i] < 0 || std::count(copied.begin(), copied.end(), i)) continue;
    moved = copy_off_weights(g, inputs[i], copies, options) || moved;
  }
  if (!moved) return kernel;
  return bind_node(g, n, memory, copies, options);
}

// With kCopyAllConstants, a piecewise weights file gives back each stretch once the
// last node reading it is bound (nothing reads it after that), so the packed copies take the
// place of the weights as they are made instead of sitting beside all of them.
class StretchRelease {
 public:
  StretchRelease(const graph::Graph& g, const CompileOptions& options) : g_(g), store_(options.store) {
    const WeightsFile* file = g.weights().get();
    if (options.copy_read_in_place_below != kCopyAllConstants || !options.bind_kernels || !file || !file->piecewise()) {
      return;
    }
    file_ = file;
    readers_.assign(static_cast<size_t>(file->segments()), 0);
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      if (!owns_tiles(g, n)) continue;
      for (int input : g.nodes[n].inputs) count(input, +1);
    }
    for (int output : g.outputs) count(output, +1);
    for (int s = 0; s < file->segments(); ++s) {
      if (readers_[s] == 0) free(s);  // folded away, or read by no kernel
    }
  }
  // One reading of `tensor` done (a node bound, an output copied).
  void read(int tensor) { count(tensor, -1); }

 private:
  void count(int tensor, int by) {
    if (!file_ || tensor < 0 || !g_.tensors[tensor].is_constant()) return;
    const int s = file_->segment_of(g_.tensors[tensor].constant);
    if (s < 0) return;
    readers_[s] += by;
    if (readers_[s] == 0) free(s);
  }
  void free(int s) {
    store_->forget_packed_from(file_->segment(s).data(), file_->segment(s).size());
    file_->free_segment(s);
  }

  const graph::Graph& g_;
  ConstantStore* store_;
  const WeightsFile* file_ = nullptr;
  std::vector<int> readers_;  // per segment: readings still to come
};

}  // namespace

Result<TileGraph> compile(const graph::Graph& g, const TilingPlan& plan, const CompileOptions& options) {
  TESSERA_CHECK(options.copy_read_in_place_below == 0 || options.store != nullptr);
  TESSERA_RETURN_IF_ERROR(validate_plan(g, plan, options.max_isa));
  TileGraph out;
  const MemoryPlan memory = plan_memory(g, options.reuse_memory);
  out.arena_bytes = memory.arena_bytes;
  out.tensor_bytes = memory.tensor_bytes;

  // Tasks, node by node in topological order.
  std::vector<int> compiled_index(g.nodes.size(), -1);
  std::set<int> counted_constants;
  WeightCopies copies;
  StretchRelease release(g, options);
  const std::vector<int64_t> reach = data_reach_bytes(g);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const graph::Node& node = g.nodes[n];
    if (!owns_tiles(g, n)) continue;
    std::unique_ptr<ops::TileKernel> kernel;
    if (options.bind_kernels) {
      TESSERA_ASSIGN_OR_RETURN(kernel, bind_off_weights(g, static_cast<int>(n), memory, copies, options));
      for (int input : node.inputs) release.read(input);
    }
    CompiledNode c;
    c.name = node.name;
    c.op = node.op;
    if (const ops::Epilogue* e = ops::op_epilogue(node.attrs)) c.fused = e->describe();
    c.fused_nodes = node.fused_nodes;
    for (int input : node.inputs) {
      if (input < 0 || !g.tensors[input].is_constant()) continue;
      c.weight_bytes += g.tensors[input].bytes();
      if (counted_constants.insert(input).second) out.weight_bytes += g.tensors[input].bytes();
    }
    c.reach_bytes = reach[n];
    c.shape = g.tensors[node.output].shape;
    c.layout = g.tensors[node.output].layout;
    c.output_offset = memory.storages[memory.storage_index[node.output]].offset;
    c.first_task = static_cast<uint32_t>(out.tasks.size());
    c.kernel = std::move(kernel);
    const NodeTiling& tiling = plan.nodes[n];
    for (const auto& cuts : tiling.cuts) c.grid.push_back(static_cast<int64_t>(cuts.size()) - 1);
    const ops::OpShapes shapes = g.shapes_of(node);
    for_each_tile(tiling, [&](const ops::Region& region) {
      Task task;
      task.node = static_cast<uint32_t>(out.nodes.size());
      task.region = region;
      task.cost = ops::op_cost(node.attrs, shapes, region);
      if (c.kernel) out.scratch_floats = std::max<int64_t>(out.scratch_floats, c.kernel->scratch_floats(region));
      c.flops += task.cost.flops;
      out.tasks.push_back(task);
    });
    c.task_count = static_cast<uint32_t>(out.tasks.size()) - c.first_task;
    out.total_flops += c.flops;
    compiled_index[n] = static_cast<int>(out.nodes.size());
    out.nodes.push_back(std::move(c));
  }

  TESSERA_ASSIGN_OR_RETURN(EdgeLists edges, build_edges(g, plan, memory, compiled_index, out));
  out.data_edges = edges.data_edges;
  out.reuse_edges = edges.reuse_edges;

  // Children in CSR form; parents counted per task, in-edges per node.
  out.children.reserve(edges.data_edges + edges.reuse_edges);
  for (size_t t = 0; t < out.tasks.size(); ++t) {
    out.tasks[t].children_begin = static_cast<uint32_t>(out.children.size());
    for (uint32_t child : edges.children[t]) {
      out.children.push_back(child);
      ++out.tasks[child].parents;
      ++out.nodes[out.tasks[child].node].in_edges;
    }
    out.tasks[t].children_end = static_cast<uint32_t>(out.children.size());
    out.tasks[t].overwrites_begin = static_cast<uint32_t>(out.overwrites.size());
    out.overwrites.insert(out.overwrites.end(), edges.overwrites[t].begin(), edges.overwrites[t].end());
    out.tasks[t].overwrites_end = static_cast<uint32_t>(out.overwrites.size());
    out.tasks[t].stale_share = edges.stale_share[t];
  }

  for (int input : g.inputs) {
    const graph::Tensor& t = g.tensors[input];
    out.inputs.push_back({t.name, t.shape, t.dtype, memory.storages[memory.storage_index[input]].offset});
  }
  for (int output : g.outputs) {
    const graph::Tensor& t = g.tensors[output];
    if (t.is_constant()) {
      copy_off_weights(g, output, copies, options);
      out.outputs.push_back({t.name, t.shape, t.dtype, -1, binding_of(g, memory, copies, output).constant});
      release.read(output);
    } else {
      out.outputs.push_back({t.name, t.shape, t.dtype, memory.storages[memory.storage_index[output]].offset});
    }
  }
  out.weight_copies = std::move(copies);
  return out;
}

CriticalPath critical_path(const TileGraph& graph) {
  // Tasks are numbered in a topological order, so one forward sweep suffices.
  std::vector<CriticalPath> best(graph.tasks.size());
  CriticalPath overall;
  for (size_t t = 0; t < graph.tasks.size(); ++t) {
    best[t].flops += graph.tasks[t].cost.flops;
    best[t].tasks += 1;
    if (best[t].flops > overall.flops) overall = best[t];
    for (uint32_t i = graph.tasks[t].children_begin; i < graph.tasks[t].children_end; ++i) {
      CriticalPath& child = best[graph.children[i]];
      if (best[t].flops > child.flops) child = best[t];
    }
  }
  return overall;
}

}  // namespace tessera::tiles
