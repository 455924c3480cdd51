// Model loading and compilation: the data flow of DESIGN.md, one function per arrow.
#include "core/engine/compiled_model.h"

#include <chrono>
#include <cstring>

#include "core/base/cpu_features.h"
#include "core/graph/build.h"
#include "core/model/load.h"
#include "core/plan/default_tiling.h"
#include "core/tiles/compile.h"

namespace tessera {

namespace {

Result<Isa> resolve_isa(const std::string& text) {
  if (text == "auto") return detected_isa();
  Isa isa;
  if (!parse_isa(text, &isa)) return Status::error("unknown ISA \"" + text + "\" (auto, avx512, avx2, scalar)");
  if (!isa_supported(isa)) return Status::error("ISA \"" + text + "\" is not supported by this CPU");
  return isa;
}

ModelInfo describe(const graph::Graph& g, const tiles::TileGraph& tg, Isa isa) {
  ModelInfo info;
  info.name = g.name;
  for (const tiles::CompiledNode& n : tg.nodes) {
    info.nodes.push_back({n.name, n.op, n.kernel->kernel_name(), n.fused, n.fused_nodes, n.shape, n.layout.name(),
                          n.grid, n.task_count, n.in_edges, n.flops});
  }
  for (const tiles::IoBinding& b : tg.inputs) info.inputs.push_back({b.name, b.shape, {}});
  for (const tiles::IoBinding& b : tg.outputs) info.outputs.push_back({b.name, b.shape, {}});
  info.tiles = tg.tasks.size();
  info.data_edges = tg.data_edges;
  info.reuse_edges = tg.reuse_edges;
  info.flops = tg.total_flops;
  const tiles::CriticalPath path = tiles::critical_path(tg);
  info.critical_path_flops = path.flops;
  info.critical_path_tiles = path.tasks;
  info.arena_bytes = tg.arena_bytes;
  info.tensor_bytes = tg.tensor_bytes;
  for (const graph::Tensor& t : g.tensors) {
    if (t.is_constant()) info.weight_bytes += 4 * ops::element_count(t.shape);
  }
  info.isa = std::string(isa_name(isa));
  return info;
}

}  // namespace

Result<std::shared_ptr<const Model>> CompiledModel::compile(const std::string& json_text, AlignedBuffer weights,
                                                            const CompileOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  TESSERA_ASSIGN_OR_RETURN(Isa isa, resolve_isa(options.isa));
  if (options.threads < 1) return Status::error("threads must be at least 1");
  if (!(options.tile_flops >= 1.0 && options.tile_flops <= 1e15)) {
    return Status::error("tile_flops must be a number from 1 to 1e15");
  }
  TESSERA_ASSIGN_OR_RETURN(model::ModelDesc desc, model::load_model(json_text, std::move(weights)));
  auto model = std::shared_ptr<CompiledModel>(new CompiledModel());
  TESSERA_ASSIGN_OR_RETURN(model->graph_, graph::build_graph(desc));
  TESSERA_RETURN_IF_ERROR(graph::optimize(model->graph_));
  plan::TilingOptions tiling;
  tiling.threads = options.threads;
  tiling.target_tile_flops = options.tile_flops;
  const tiles::TilingPlan plan = plan::default_tiling(model->graph_, tiling);
  tiles::CompileOptions compile_options;
  compile_options.reuse_memory = options.reuse_memory;
  compile_options.max_isa = isa;
  TESSERA_ASSIGN_OR_RETURN(model->tile_graph_, tiles::compile(model->graph_, plan, compile_options));
  model->info_ = describe(model->graph_, model->tile_graph_, isa);
  model->info_.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return std::shared_ptr<const Model>(std::move(model));
}

Result<std::shared_ptr<const Model>> Model::load(const std::string& json_text, std::vector<uint8_t> weights,
                                                 const CompileOptions& options) {
  AlignedBuffer aligned = AlignedBuffer::allocate(weights.size());
  if (!weights.empty() && aligned.data() == nullptr) return Status::error("out of memory for the weights");
  if (!weights.empty()) std::memcpy(aligned.data(), weights.data(), weights.size());
  return CompiledModel::compile(json_text, std::move(aligned), options);
}

Result<std::shared_ptr<const Model>> Model::load_file(const std::string& path, const CompileOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(model::ModelFiles files, model::read_model_files(path));
  return CompiledModel::compile(files.json, std::move(files.weights), options);
}

std::shared_ptr<Executor> Executor::create(int threads) {
  return std::make_shared<ExecutorImpl>(threads < 1 ? 1 : threads);
}

}  // namespace tessera
