// Session: picks the specialisation for the inputs' dims, owns one run's arena, copies inputs
// in, runs the tile graph, copies outputs out.
#include <cstring>
#include <limits>

#include "core/base/checked_math.h"
#include "core/engine/compiled_model.h"

namespace tessera {

struct Session::Impl {
  std::shared_ptr<const CompiledModel> model;
  std::shared_ptr<ExecutorImpl> executor;
  std::shared_ptr<const Specialization> last;  // kept alive for last_info() and last_trace()
  AlignedBuffer arena;
  AlignedBuffer scratch;  // one slice per executor thread
  std::vector<float*> scratch_slices;
  std::vector<TileEvent> trace;

  // Grows the arena and scratch to what `g` needs; out of memory is an error, not a crash.
  Status allocate(const tiles::TileGraph& g);
};

Status Session::Impl::allocate(const tiles::TileGraph& g) {
  if (arena.size() < static_cast<uint64_t>(g.arena_bytes)) {
    arena = AlignedBuffer();  // free the old one first: only one is needed
    // Sizes beyond half the address space (32-bit in WebAssembly) cannot be allocated.
    const bool addressable = static_cast<uint64_t>(g.arena_bytes) <= std::numeric_limits<size_t>::max() / 2;
    if (addressable) arena = AlignedBuffer::allocate(g.arena_bytes);
    if (arena.data() == nullptr) {
      return Status::error("out of memory: the arena needs " + std::to_string(g.arena_bytes) + " bytes");
    }
  }
  const int threads = executor->threads();
  const size_t slice = static_cast<size_t>(round_up(4 * g.scratch_floats, AlignedBuffer::kAlignment));
  if (scratch_slices.size() != static_cast<size_t>(threads) || scratch.size() < slice * threads) {
    scratch = AlignedBuffer::allocate(slice * threads);
    if (slice > 0 && scratch.data() == nullptr) return Status::error("out of memory for scratch space");
    scratch_slices.clear();
    for (int t = 0; t < threads; ++t) scratch_slices.push_back(reinterpret_cast<float*>(scratch.data() + slice * t));
  }
  return Status();
}

Session::Session(std::shared_ptr<const Model> model, std::shared_ptr<Executor> executor) : impl_(new Impl) {
  impl_->model = std::static_pointer_cast<const CompiledModel>(std::move(model));
  impl_->executor = std::static_pointer_cast<ExecutorImpl>(std::move(executor));
}

Session::~Session() = default;

const std::vector<TileEvent>& Session::last_trace() const { return impl_->trace; }

const ModelInfo& Session::last_info() const {
  static const ModelInfo kNone;
  return impl_->last ? impl_->last->info : kNone;
}

Result<std::vector<Tensor>> Session::run(const std::vector<Tensor>& inputs, const RunOptions& options) {
  // No dims would mean "the declared ones" to specialize(): name the first missing input instead.
  if (inputs.empty() && !impl_->model->inputs().empty()) {
    return Status::error("input \"" + impl_->model->inputs()[0].name + "\": missing");
  }
  for (const Tensor& t : inputs) {  // dtypes first: no need to specialise for a wrong one
    for (const ValueSpec& declared : impl_->model->inputs()) {
      if (declared.name == t.name && declared.dtype != t.dtype) {
        return Status::error("input \"" + t.name + "\": expected " + dtype_name(declared.dtype) + ", got " +
                             dtype_name(t.dtype));
      }
    }
  }
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> spec, impl_->model->specialize(dims_of(inputs)));
  const tiles::TileGraph& g = spec->tile_graph;
  for (const Tensor& t : inputs) {
    const tiles::IoBinding* b = nullptr;
    for (const tiles::IoBinding& candidate : g.inputs) {
      if (candidate.name == t.name) b = &candidate;
    }
    const std::string path = "input \"" + t.name + "\"";
    const int64_t count = ops::element_count(b->shape);
    if (t.bytes.size() != static_cast<size_t>(count) * dtype_size(t.dtype)) {
      return Status::error(path + ": has " + std::to_string(t.bytes.size() / dtype_size(t.dtype)) + " values, dims " +
                           ops::shape_string(b->shape) + " need " + std::to_string(count));
    }
  }
  TESSERA_RETURN_IF_ERROR(impl_->allocate(g));
  impl_->last = spec;
  for (const Tensor& t : inputs) {
    for (const tiles::IoBinding& b : g.inputs) {
      if (b.name == t.name) std::memcpy(impl_->arena.data() + b.arena_offset, t.bytes.data(), t.bytes.size());
    }
  }

  runtime::RunConfig config;
  config.scheduler = options.scheduler == Scheduler::kBarrier   ? runtime::Scheduler::kBarrier
                     : options.scheduler == Scheduler::kShuffle ? runtime::Scheduler::kShuffle
                                                                : runtime::Scheduler::kDynamic;
  config.seed = options.seed;
  config.trace = options.trace;
  std::vector<runtime::TileEvent> events;
  impl_->executor->pool().run(g, impl_->arena.data(), impl_->scratch_slices, config, &events);
  impl_->trace.clear();
  for (const runtime::TileEvent& e : events) {
    impl_->trace.push_back({e.task, g.tasks[e.task].node, e.thread, e.start_ns, e.end_ns});
  }

  std::vector<Tensor> outputs;
  for (const tiles::IoBinding& b : g.outputs) {
    const void* source = b.constant ? b.constant : impl_->arena.data() + b.arena_offset;
    outputs.push_back(Tensor::of(b.name, b.shape, b.dtype, source));
  }
  return outputs;
}

InputDims dims_of(const std::vector<Tensor>& inputs) {
  InputDims dims;
  for (const Tensor& t : inputs) dims.emplace_back(t.name, t.dims);
  return dims;
}

bool parse_scheduler(const std::string& text, Scheduler* scheduler) {
  for (Scheduler s : {Scheduler::kDynamic, Scheduler::kBarrier, Scheduler::kShuffle}) {
    if (text == scheduler_name(s)) {
      *scheduler = s;
      return true;
    }
  }
  return false;
}

const char* scheduler_name(Scheduler scheduler) {
  switch (scheduler) {
    case Scheduler::kDynamic: return "dynamic";
    case Scheduler::kBarrier: return "barrier";
    case Scheduler::kShuffle: return "shuffle";
  }
  return "?";
}

}  // namespace tessera
