// XnnpackModel: Tessera's optimised graph translated into XNNPACK subgraphs, the
// operator-at-a-time baseline (`tessera bench --engine xnnpack`).
//
// Unlike the rest of native/, this baseline uses the engine's internal libraries (model
// loading, core/graph, core/ops): it translates the same optimised graph Tessera runs, so
// both engines see folded BatchNorm, the same fused epilogues and NHWC layouts.
//
// The graph becomes a sequence of stages: XNNPACK subgraphs, separated by what this vintage of
// XNNPACK has no subgraph node for: the relayouts that move bytes (no transpose), which run as
// plain C++ copies, and concatenations (no concatenate node), which run as XNNPACK's strided
// copy operators, as its later concatenate node does.
// Tensors that cross a stage boundary, and the graph's inputs and outputs, live in buffers
// the runner (xnnpack_runner.h) owns; everything else is XNNPACK's internal memory.
#pragma once

#include <xnnpack.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "native/xnnpack/relayout.h"
#include "tessera/status.h"

namespace tessera::xnnpack {

// A tensor in memory outside the XNNPACK runtimes: graph inputs and outputs (row-major), and
// values passed between stages (in their tensor's layout).
struct BufferSpec {
  std::string name;
  std::vector<int64_t> logical_dims;  // the ONNX shape
  int64_t elements = 0;
};

// One XNNPACK subgraph; `externals[i]` is the buffer bound to external value id i.
struct SubgraphStage {
  xnn_subgraph_t subgraph = nullptr;
  std::vector<int> externals;
};

// A relayout that moves bytes: a permuted copy from one buffer to another, in plain C++.
struct RelayoutStage {
  int input = -1, output = -1;
  PermutedCopy copy;
};

// A Concat, the output seen as `rows` rows of `row_floats` (the physical dims before the
// axis, and from it on): each part copies its input's rows into `columns` of them from `offset`.
struct ConcatStage {
  struct Part {
    int input = -1;
    int64_t columns = 0, offset = 0;
  };
  std::vector<Part> parts;
  int output = -1;
  int64_t rows = 0, row_floats = 0;
};

enum class StageKind { kSubgraph, kRelayout, kConcat };

struct Stage {
  StageKind kind = StageKind::kSubgraph;
  SubgraphStage subgraph;
  RelayoutStage relayout;
  ConcatStage concat;
};

class XnnpackModel {
 public:
  // Reads MODEL.json and its weights file (as tessera::Model::load_file resolves it),
  // builds and optimises Tessera's graph, and translates it. Fails with
  // "xnnpack baseline: unsupported ops: LayerNormalization x25, MatMul (batched) x24" when
  // XNNPACK cannot express some nodes, or with the loader's message for a bad model.
  static Result<std::unique_ptr<XnnpackModel>> load_file(const std::string& path);
  // The same from memory: the JSON text and the weights bytes.
  static Result<std::unique_ptr<XnnpackModel>> load(const std::string& json_text, const std::vector<uint8_t>& weights);
  // Translates an optimised graph (graph::optimize has run on it).
  static Result<std::unique_ptr<XnnpackModel>> translate(graph::Graph graph);

  ~XnnpackModel();
  XnnpackModel(const XnnpackModel&) = delete;
  XnnpackModel& operator=(const XnnpackModel&) = delete;

  const std::string& name() const { return name_; }
  const std::vector<BufferSpec>& buffers() const { return buffers_; }
  const std::vector<int>& input_buffers() const { return inputs_; }    // in the model's input order
  const std::vector<int>& output_buffers() const { return outputs_; }  // in the model's output order
  // Stages in run order. A runner creates its XNNPACK runtimes from the subgraphs once
  // (XNNPACK rewrites a subgraph when it creates a runtime from it).
  const std::vector<Stage>& stages() const { return stages_; }
  // XNNPACK nodes defined, for messages.
  int xnn_node_count() const { return xnn_nodes_; }

 private:
  friend class Translator;
  XnnpackModel() = default;

  std::string name_;
  std::deque<std::vector<float>> static_data_;  // every static value's data; must outlive every runtime
  std::vector<BufferSpec> buffers_;
  std::vector<int> inputs_, outputs_;
  std::vector<Stage> stages_;
  int xnn_nodes_ = 0;
};

// Makes sure xnn_initialize has run (once per process); fails if the CPU is unsupported.
Status initialize_xnnpack();

}  // namespace tessera::xnnpack
