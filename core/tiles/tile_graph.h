// TileGraph: the compiled, immutable form of a model. Tasks (tiles), their exact
// dependencies, bound kernels and the arena plan; the runtime only reads it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ops/op_contract.h"

namespace tessera::tiles {

// A task that read bytes of the arena another task then writes over (a reuse edge between
// them), and how many: a core must take lines another core has read from its cache before it
// can write them.
struct Overwrite {
  uint32_t reader = 0;
  int64_t bytes = 0;
};

struct Task {
  uint32_t node = 0;            // index into TileGraph::nodes
  uint32_t parents = 0;         // tasks that must finish first
  uint32_t children_begin = 0;  // range in TileGraph::children
  uint32_t children_end = 0;
  uint32_t overwrites_begin = 0;  // range in TileGraph::overwrites: the readers of what it writes over
  uint32_t overwrites_end = 0;
  // The share of its output's bytes (of their hull) that no earlier occupant wrote this run
  // (arena reuse): last touched a run ago. 1 without reuse.
  float stale_share = 1;
  ops::Region region;  // the output region this task computes
  ops::OpCost cost;    // its work, as the cost model prices it
};

struct CompiledNode {
  std::string name;
  std::string op;     // ONNX op (or Relayout)
  std::string fused;  // epilogue description, e.g. "+residual, clamp[0,inf]"
  std::vector<std::string> fused_nodes;
  std::unique_ptr<ops::TileKernel> kernel;
  ops::Shape shape;           // output, logical
  ops::Layout layout;         // output, physical
  int64_t output_offset = 0;  // where the output's bytes start in the arena
  uint32_t first_task = 0;
  uint32_t task_count = 0;
  std::vector<int64_t> grid;  // tiles per output dimension
  double flops = 0;
  uint64_t in_edges = 0;     // edges into this node's tasks (data + reuse)
  int64_t weight_bytes = 0;  // constants it reads (weights, as given), each once
  int64_t reach_bytes = 0;   // what the caches must hold for it to find its inputs (data_reach.h)
};

// A graph input or output: where its row-major bytes sit in the arena, or for an output
// computed from constants only, the constant itself.
struct IoBinding {
  std::string name;
  ops::Shape shape;
  DType dtype = DType::kFloat32;
  int64_t arena_offset = 0;
  const void* constant = nullptr;
};

struct TileGraph {
  std::vector<Task> tasks;  // grouped by node, nodes in topological order
  std::vector<uint32_t> children;
  std::vector<Overwrite> overwrites;
  std::vector<CompiledNode> nodes;
  std::vector<IoBinding> inputs, outputs;

  int64_t arena_bytes = 0;     // planned peak
  int64_t tensor_bytes = 0;    // sum of all tensors the arena holds, without reuse
  int64_t scratch_floats = 0;  // per executor thread
  uint64_t data_edges = 0;     // producer -> consumer tile edges
  uint64_t reuse_edges = 0;    // write-after-read / write-after-write edges added for reuse
  double total_flops = 0;
  int64_t weight_bytes = 0;  // constants all nodes read, each tensor once
  // CompileOptions::copy_read_in_place_below: each graph tensor a run would read in place from
  // the weights file (a kernel did not copy it, or it is an output), and the copy read instead.
  std::map<int, std::shared_ptr<const AlignedBuffer>> weight_copies;
};

// The longest dependency chain, weighted by FLOPs: the time no thread count can beat.
struct CriticalPath {
  double flops = 0;
  uint32_t tasks = 0;
};
CriticalPath critical_path(const TileGraph& graph);

}  // namespace tessera::tiles
