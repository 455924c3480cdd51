// Model loading and specialisation: the data flow of DESIGN.md, one function per arrow.
#include "core/engine/compiled_model.h"

#include <malloc.h>

#include <chrono>
#include <cstring>

#include "core/graph/build.h"
#include "core/model/load.h"
#include "core/plan/default_tiling.h"
#include "core/plan/planner.h"
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
    info.nodes.push_back({n.name, n.op, n.kernel ? n.kernel->kernel_name() : "", n.fused, n.fused_nodes, n.shape,
                          n.layout.name(), n.grid, n.task_count, n.in_edges, n.flops});
  }
  for (const tiles::IoBinding& b : tg.inputs) info.inputs.push_back(Tensor::spec(b.name, b.shape, b.dtype));
  for (const tiles::IoBinding& b : tg.outputs) info.outputs.push_back(Tensor::spec(b.name, b.shape, b.dtype));
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
    if (t.is_constant()) info.weight_bytes += t.bytes();
  }
  info.isa = std::string(isa_name(isa));
  return info;
}

// The cache key: every input's dims, in the model's input order.
std::string signature(const graph::InputBinding& binding) {
  std::string key;
  for (const ops::Shape& shape : binding.shapes) key += ops::shape_string(shape) + ";";
  return key;
}

}  // namespace

Result<std::shared_ptr<const Model>> CompiledModel::compile(const std::string& json_text, WeightsFile weights,
                                                            const CompileOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(model::ModelDesc desc, model::load_model(json_text, std::move(weights)));
  return compile(std::move(desc), options);
}

Result<std::shared_ptr<const CompiledModel>> CompiledModel::compile_for_planning(const std::string& json_text,
                                                                                 int64_t weights_bytes,
                                                                                 const AlignedBuffer& read,
                                                                                 const CompileOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(model::ModelDesc desc, model::load_model_for_planning(json_text, weights_bytes, read));
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Model> model, compile(std::move(desc), options, true));
  return std::static_pointer_cast<const CompiledModel>(std::move(model));
}

Result<std::shared_ptr<const Model>> CompiledModel::compile(model::ModelDesc desc, const CompileOptions& options,
                                                            bool planning_only) {
  auto model = std::shared_ptr<CompiledModel>(new CompiledModel());
  model->planning_only_ = planning_only;
  TESSERA_ASSIGN_OR_RETURN(model->isa_, resolve_isa(options.isa));
  if (options.threads < 1) return Status::error("threads must be at least 1");
  if (!(options.tile_flops >= 1.0 && options.tile_flops <= 1e15)) {
    return Status::error("tile_flops must be a number from 1 to 1e15");
  }
  if (options.max_specializations < 1) return Status::error("max_specializations must be at least 1");
  plan::Planner planner;
  if (!plan::parse_planner(options.planner, &planner)) {
    return Status::error("unknown planner \"" + options.planner + "\" (auto, default, search)");
  }
  model->options_ = options;
  if (!options.plan.empty()) {
    TESSERA_ASSIGN_OR_RETURN(model->saved_plan_, parse_plan_file(options.plan));
  }
  model->desc_ = std::move(desc);
  bool fixed = true;
  InputDims declared;
  for (const ValueSpec& input : model->desc_.inputs) {
    fixed = fixed && input.is_static();
    declared.emplace_back(input.name, input.static_dims());
  }
  if (model->saved_plan_) {
    TESSERA_RETURN_IF_ERROR(saved_plan_matches_model(*model->saved_plan_, model->desc_.name));
    // A saved plan for a model whose dims are all fixed can only be for those dims.
    if (fixed) TESSERA_RETURN_IF_ERROR(plan_matches_inputs(*model->saved_plan_, declared));
  }
  if (!fixed) return std::shared_ptr<const Model>(std::move(model));
  model->release_weights_ =
      !planning_only && !options.keep_weights && model->desc_.weights && !model->desc_.weights->mapped();
  TESSERA_RETURN_IF_ERROR(model->specialize({}).status());
  // Its one specialisation is compiled and never evicted: nothing reads the weights again.
  if (model->release_weights_) model->desc_.weights.reset();
  return std::shared_ptr<const Model>(std::move(model));
}

Result<std::shared_ptr<const Specialization>> CompiledModel::build(const graph::InputBinding& binding) const {
  if (!desc_.weights && !desc_.initializers.empty()) {
    return Status::error("model \"" + desc_.name +
                         "\": its weights were freed once compiled (CompileOptions::keep_weights keeps them)");
  }
  const auto start = std::chrono::steady_clock::now();
  auto s = std::make_shared<Specialization>();
  TESSERA_ASSIGN_OR_RETURN(s->graph, graph::build_graph(desc_, binding, store_));
  TESSERA_RETURN_IF_ERROR(graph::optimize(s->graph));
  for (size_t i = 0; i < desc_.inputs.size(); ++i) s->dims.emplace_back(desc_.inputs[i].name, binding.shapes[i]);
  const Result<plan::Profile> profile = find_profile(options_.profile, isa_);
  TESSERA_RETURN_IF_ERROR(choose_algorithms(s->graph, s->dims, profile));
  TESSERA_ASSIGN_OR_RETURN(s->plan, plan_tiling(s->graph, s->dims, profile, &s->plan_report));
  tiles::CompileOptions compile_options;
  compile_options.reuse_memory = s->plan_report.reuse_memory;
  compile_options.max_isa = isa_;
  compile_options.store = store_.get();
  compile_options.bind_kernels = !planning_only_;
  const std::shared_ptr<const WeightsFile> file = s->graph.weights();
  const bool mapped = file && file->mapped();
  compile_options.copy_read_in_place_below =
      release_weights_ ? tiles::kCopyAllConstants : mapped ? tiles::kCopySmallConstants : 0;
  TESSERA_ASSIGN_OR_RETURN(s->tile_graph, tiles::compile(s->graph, s->plan, compile_options));
  if (release_weights_) {  // the graph too points at the copies, and lets go of the file
    for (const auto& [tensor, copy] : s->tile_graph.weight_copies) s->graph.use_copy(tensor, copy);
    s->graph.hold_weights(nullptr);
  } else if (mapped) {
    // Binding's reads go (packing, the copies, the folios around them): a run touches the
    // file only where it reads a large table in place.
    file->release_all_pages();
  }
#if defined(__GLIBC__)
  // Compiling freed its scratch (planner tables, graph copies) in the C heap, whose allocator
  // keeps up to twice its largest recent block of freed memory resident: give it back before
  // the model runs for long (ResNet-50: 1.4 MiB; docs/benchmarks.md).
  malloc_trim(0);
#endif
  s->info = describe(s->graph, s->tile_graph, isa_);
  s->info.planner = s->plan_report.planner;
  s->info.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return std::shared_ptr<const Specialization>(std::move(s));
}

Result<tiles::TileGraph> CompiledModel::compile_stage(const graph::Graph& stage, int threads, bool bind_kernels) const {
  // Binding reads what the kernels copy (biases, weights on a cache miss): freed by now.
  if (bind_kernels && release_weights_) {
    return Status::error("model \"" + desc_.name +
                         "\": its weights were freed once compiled; to run it over stages, load it with "
                         "CompileOptions::keep_weights");
  }
  plan::TilingOptions tiling;
  tiling.threads = threads;
  tiling.target_tile_flops = options_.tile_flops;
  tiling.isa = isa_;
  tiles::CompileOptions compile_options;
  compile_options.reuse_memory = options_.reuse_memory;
  compile_options.max_isa = isa_;
  compile_options.store = store_.get();
  compile_options.bind_kernels = bind_kernels;
  return tiles::compile(stage, plan::default_tiling(stage, tiling), compile_options);
}

Result<std::shared_ptr<const Specialization>> CompiledModel::specialize(const InputDims& dims) const {
  graph::InputBinding binding;
  if (dims.empty()) {
    TESSERA_ASSIGN_OR_RETURN(binding, graph::static_binding(desc_.inputs));
  } else {
    TESSERA_ASSIGN_OR_RETURN(binding, graph::bind_inputs(desc_.inputs, dims));
  }
  const std::string key = signature(binding);
  std::lock_guard lock(mutex_);
  for (auto it = cache_.begin(); it != cache_.end(); ++it) {
    if (it->first == key) {
      cache_.splice(cache_.begin(), cache_, it);
      return it->second;
    }
  }
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> s, build(binding));
  cache_.emplace_front(key, s);
  if (cache_.size() > static_cast<size_t>(options_.max_specializations)) cache_.pop_back();
  return s;
}

ModelMemory CompiledModel::memory() const {
  ModelMemory m;
  m.weight_bytes = desc_.weights ? static_cast<int64_t>(desc_.weights->size()) : 0;
  const ConstantStore::Usage usage = store_->usage();
  m.constant_bytes = usage.constant_bytes;
  m.packed_bytes = usage.packed_bytes;
  std::lock_guard lock(mutex_);
  m.specializations = static_cast<int>(cache_.size());
  return m;
}

Result<ModelInfo> CompiledModel::info(const InputDims& dims) const {
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> s, specialize(dims));
  return s->info;
}

Result<std::shared_ptr<const Model>> Model::load(const std::string& json_text, std::vector<uint8_t> weights,
                                                 const CompileOptions& options) {
  const auto size = static_cast<int64_t>(weights.size());
  // Its initializers' bytes, one allocation per stretch, so that the load can free them as it
  // packs them; a JSON that does not parse gets the whole file, and its error from the load.
  std::optional<WeightsFile> file;
  if (auto extents = model::initializer_extents(json_text, size); extents.ok()) {
    file = WeightsFile::segmented(std::move(extents.value()), size);
  } else {
    AlignedBuffer whole = AlignedBuffer::allocate(weights.size());
    if (whole.data() != nullptr || weights.empty()) file.emplace(std::move(whole));
  }
  if (!file) return Status::error("out of memory for the weights");
  for (int64_t offset = 0; offset < size;) {
    const auto [data, bytes] = file->span(offset);
    const int64_t n = std::min(bytes, size - offset);
    if (data != nullptr) std::memcpy(data, weights.data() + offset, static_cast<size_t>(n));
    offset += n;
  }
  std::vector<uint8_t>().swap(weights);  // held piecewise now: not beside the packed copies
  return CompiledModel::compile(json_text, std::move(*file), options);
}

Result<std::shared_ptr<const Model>> Model::load_file(const std::string& path, const CompileOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(model::ModelFiles files, model::read_model_files(path));
  return CompiledModel::compile(files.json, WeightsFile(std::move(files.weights)), options);
}

std::shared_ptr<Executor> Executor::create(int threads) {
  return std::make_shared<ExecutorImpl>(threads < 1 ? 1 : threads);
}

}  // namespace tessera
