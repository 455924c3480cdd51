// Session: owns one run's arena; copies inputs in, runs the tile graph, copies outputs out.
#include <cstring>
#include <limits>

#include "core/base/checked_math.h"
#include "core/engine/compiled_model.h"

namespace tessera {

struct Session::Impl {
  std::shared_ptr<const CompiledModel> model;
  std::shared_ptr<ExecutorImpl> executor;
  AlignedBuffer arena;
  AlignedBuffer scratch;  // one slice per executor thread
  std::vector<float*> scratch_slices;
  std::vector<TileEvent> trace;

  // Allocates the arena and scratch on first use; out of memory is an error, not a crash.
  Status allocate();
};

Status Session::Impl::allocate() {
  const tiles::TileGraph& g = model->tile_graph();
  if (arena.size() < static_cast<uint64_t>(g.arena_bytes)) {
    // Sizes beyond half the address space (32-bit in WebAssembly) cannot be allocated.
    const bool addressable = static_cast<uint64_t>(g.arena_bytes) <= std::numeric_limits<size_t>::max() / 2;
    arena = addressable ? AlignedBuffer::allocate(g.arena_bytes) : AlignedBuffer();
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

namespace {

std::string dims_string(const std::vector<int64_t>& dims) { return ops::shape_string(dims); }

}  // namespace

Result<std::vector<Tensor>> Session::run(const std::vector<Tensor>& inputs, const RunOptions& options) {
  const tiles::TileGraph& g = impl_->model->tile_graph();
  TESSERA_RETURN_IF_ERROR(impl_->allocate());
  std::vector<bool> given(g.inputs.size(), false);
  for (const Tensor& t : inputs) {
    size_t i = 0;
    while (i < g.inputs.size() && g.inputs[i].name != t.name) ++i;
    if (i == g.inputs.size()) return Status::error("input \"" + t.name + "\": the model has no input of that name");
    if (given[i]) return Status::error("input \"" + t.name + "\": given twice");
    const tiles::IoBinding& b = g.inputs[i];
    if (t.dims != b.shape) {
      return Status::error("input \"" + t.name + "\": expected dims " + dims_string(b.shape) + ", got " +
                           dims_string(t.dims));
    }
    if (static_cast<int64_t>(t.data.size()) != ops::element_count(b.shape)) {
      return Status::error("input \"" + t.name + "\": has " + std::to_string(t.data.size()) + " values, dims need " +
                           std::to_string(ops::element_count(b.shape)));
    }
    std::memcpy(impl_->arena.data() + b.arena_offset, t.data.data(), sizeof(float) * t.data.size());
    given[i] = true;
  }
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    if (!given[i]) return Status::error("input \"" + g.inputs[i].name + "\": missing");
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
    Tensor t{b.name, b.shape, std::vector<float>(ops::element_count(b.shape))};
    const float* source =
        b.constant ? b.constant : reinterpret_cast<const float*>(impl_->arena.data() + b.arena_offset);
    std::memcpy(t.data.data(), source, sizeof(float) * t.data.size());
    outputs.push_back(std::move(t));
  }
  return outputs;
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
