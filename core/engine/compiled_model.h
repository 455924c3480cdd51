// CompiledModel: the Model implementation, owning the graph (constants) and tile graph.
#pragma once

#include <memory>

#include "core/graph/graph.h"
#include "core/runtime/executor.h"
#include "core/tiles/tile_graph.h"
#include "tessera/engine.h"

namespace tessera {

class CompiledModel final : public Model {
 public:
  // The whole pipeline: load -> graph passes -> tiling plan -> tile graph.
  static Result<std::shared_ptr<const Model>> compile(const std::string& json_text, AlignedBuffer weights,
                                                      const CompileOptions& options);

  const ModelInfo& info() const override { return info_; }
  const tiles::TileGraph& tile_graph() const { return tile_graph_; }

 private:
  graph::Graph graph_;  // owns the constants the kernels point into
  tiles::TileGraph tile_graph_;
  ModelInfo info_;
};

// The Executor implementation: a runtime pool behind the public handle.
class ExecutorImpl final : public Executor {
 public:
  explicit ExecutorImpl(int threads) : pool_(threads) {}
  int threads() const override { return pool_.threads(); }
  runtime::Executor& pool() { return pool_; }

 private:
  runtime::Executor pool_;
};

}  // namespace tessera
