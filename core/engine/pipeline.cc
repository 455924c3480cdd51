// Pipeline: the stages of a placement, each with its own executor (the worker's threads), run
// as segments (stage_segments: one per stage when the stages are contiguous), each compiled
// from its own graph with its own arena. Tensors move between segments in messages (name ->
// bytes): a segment copies what it reads out of the message into its arena, runs, and adds
// what it sends. A message carries everything later segments may still read, so a segment can
// read from any earlier one.
#include "tessera/pipeline.h"

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "core/base/checked_math.h"
#include "core/engine/compiled_model.h"
#include "core/engine/stage_graph.h"

namespace tessera {

namespace {

using Message = std::map<std::string, std::vector<std::byte>>;

// One segment of a stage (stage_segments): a contiguous placement's stages are one each.
struct SegmentRun {
  size_t stage = 0;
  graph::Graph graph;
  tiles::TileGraph tiles;
  std::vector<std::string> forget;          // what no later segment (nor the caller) reads: dropped after it
  std::shared_ptr<runtime::Executor> pool;  // its stage's: the worker's threads
  AlignedBuffer arena;
  AlignedBuffer scratch;
  std::vector<float*> slices;

  double last_ms = 0;  // its last run, copies included

  // Copies its inputs from `message`, runs, and adds its outputs to it.
  void run(Message* message) {
    const auto start = std::chrono::steady_clock::now();
    for (const tiles::IoBinding& b : tiles.inputs) {
      const std::vector<std::byte>& bytes = message->at(b.name);
      std::memcpy(arena.data() + b.arena_offset, bytes.data(), bytes.size());
    }
    pool->run(tiles, arena.data(), slices, {}, nullptr);
    for (const tiles::IoBinding& b : tiles.outputs) {
      const auto* source = b.constant ? static_cast<const std::byte*>(b.constant) : arena.data() + b.arena_offset;
      const size_t bytes = static_cast<size_t>(ops::element_count(b.shape)) * dtype_size(b.dtype);
      (*message)[b.name].assign(source, source + bytes);
    }
    for (const std::string& name : forget) message->erase(name);
    last_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
};

// A bounded queue between two stages; closing it wakes everyone and ends the stream.
template <class T>
class Channel {
 public:
  explicit Channel(size_t capacity) : capacity_(capacity) {}
  bool push(T item) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return closed_ || items_.size() < capacity_; });
    if (closed_) return false;
    items_.push_back(std::move(item));
    changed_.notify_all();
    return true;
  }
  std::optional<T> pop() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    changed_.notify_all();
    return item;
  }
  // Ends the stream: pops still drain what was pushed, pushes fail.
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<T> items_;
  size_t capacity_;
  bool closed_ = false;
};

}  // namespace

struct Pipeline::Impl {
  std::shared_ptr<const CompiledModel> model;
  std::shared_ptr<const Specialization> spec;  // the model's inputs and outputs
  PlacedGraph graph;                           // owns the constants the stages point into
  PlacementReport placement;
  std::vector<SegmentRun> segments;

  // The caller's inputs as the first message (their bytes moved in), checked like
  // Session::run checks them.
  Result<Message> first_message(std::vector<Tensor> inputs) const {
    Message message;
    for (const tiles::IoBinding& b : spec->tile_graph.inputs) {
      Tensor* given = nullptr;
      for (Tensor& t : inputs)
        if (t.name == b.name) given = &t;
      const std::string path = "input \"" + b.name + "\"";
      if (!given) return Status::error(path + ": missing");
      if (given->dtype != b.dtype)
        return Status::error(path + ": expected " + dtype_name(b.dtype) + ", got " + dtype_name(given->dtype));
      if (given->dims != b.shape)
        return Status::error(path + ": dims " + ops::shape_string(given->dims) + ", the pipeline was made for " +
                             ops::shape_string(b.shape));
      const size_t bytes = static_cast<size_t>(ops::element_count(b.shape)) * dtype_size(b.dtype);
      if (given->bytes.size() != bytes)
        return Status::error(path + ": has " + std::to_string(given->bytes.size()) +
                             " bytes, its dims and dtype need " + std::to_string(bytes));
      message[b.name] = std::move(given->bytes);
    }
    for (const Tensor& t : inputs)
      if (!message.count(t.name)) return Status::error("input \"" + t.name + "\": the model has no such input");
    return message;
  }

  std::vector<Tensor> outputs(const Message& message) const {
    std::vector<Tensor> out;
    for (const tiles::IoBinding& b : spec->tile_graph.outputs) {
      const void* source = b.constant ? b.constant : message.at(b.name).data();
      out.push_back(Tensor::of(b.name, b.shape, b.dtype, source));
    }
    return out;
  }
};

Pipeline::Pipeline(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Pipeline::~Pipeline() = default;

Result<std::unique_ptr<Pipeline>> Pipeline::create(std::shared_ptr<const Model> model, const InputDims& dims,
                                                   const PlaceOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->model = std::static_pointer_cast<const CompiledModel>(std::move(model));
  TESSERA_ASSIGN_OR_RETURN(Placed placed, impl->model->place_graph(dims, options));
  impl->placement = std::move(placed.report);
  impl->graph = std::move(placed.graph);
  impl->spec = impl->graph.spec;
  const graph::Graph& g = impl->graph.graph();
  std::map<std::string, size_t> node_of;
  for (size_t n = 0; n < g.nodes.size(); ++n) node_of[g.nodes[n].name] = n;
  std::vector<int> stage_of(g.nodes.size(), -1);
  std::vector<std::shared_ptr<runtime::Executor>> pools;
  for (const StagePlan& plan : impl->placement.stages) {
    for (const std::string& name : plan.nodes) stage_of[node_of.at(name)] = static_cast<int>(pools.size());
    pools.push_back(std::make_shared<runtime::Executor>(plan.threads));
  }
  for (StageSegment& segment : stage_segments(g, stage_of)) {
    const int threads = impl->placement.stages[segment.stage].threads;
    SegmentRun stage;
    stage.stage = segment.stage;
    stage.graph = stage_graph(g, segment.in_segment);
    TESSERA_ASSIGN_OR_RETURN(stage.tiles, impl->model->compile_stage(stage.graph, threads));
    stage.pool = pools[segment.stage];
    stage.arena = AlignedBuffer::allocate(static_cast<size_t>(stage.tiles.arena_bytes));
    const size_t slice = static_cast<size_t>(round_up(4 * stage.tiles.scratch_floats, AlignedBuffer::kAlignment));
    stage.scratch = AlignedBuffer::allocate(slice * static_cast<size_t>(threads));
    if ((stage.tiles.arena_bytes > 0 && !stage.arena.data()) || (slice > 0 && !stage.scratch.data()))
      return Status::error("pipeline: out of memory for stage " + std::to_string(segment.stage) + "'s arena");
    for (int t = 0; t < threads; ++t)
      stage.slices.push_back(reinterpret_cast<float*>(stage.scratch.data() + slice * static_cast<size_t>(t)));
    impl->segments.push_back(std::move(stage));
  }
  // Every output comes from a stage or is a constant (a view of an input comes from neither).
  for (const tiles::IoBinding& b : impl->spec->tile_graph.outputs) {
    bool made = b.constant != nullptr;
    for (const SegmentRun& segment : impl->segments)
      for (const tiles::IoBinding& out : segment.tiles.outputs) made = made || out.name == b.name;
    if (!made)
      return Status::error("pipeline: output \"" + b.name + "\" is computed by no stage (a view of an input?)");
  }
  // Each tensor travels until the last segment that reads it (outputs: to the end).
  std::map<std::string, size_t> last_reader;
  for (size_t s = 0; s < impl->segments.size(); ++s)
    for (const tiles::IoBinding& b : impl->segments[s].tiles.inputs) last_reader[b.name] = s;
  for (const tiles::IoBinding& b : impl->spec->tile_graph.outputs) last_reader[b.name] = impl->segments.size();
  for (const auto& [name, s] : last_reader)
    if (s < impl->segments.size()) impl->segments[s].forget.push_back(name);
  return std::unique_ptr<Pipeline>(new Pipeline(std::move(impl)));
}

const PlacementReport& Pipeline::placement() const { return impl_->placement; }

std::vector<double> Pipeline::last_stage_ms() const {
  std::vector<double> ms(impl_->placement.stages.size(), 0);
  for (const SegmentRun& segment : impl_->segments) ms[segment.stage] += segment.last_ms;
  return ms;
}

std::vector<int64_t> Pipeline::arena_bytes() const {
  std::vector<int64_t> bytes(impl_->placement.stages.size(), 0);
  for (const SegmentRun& segment : impl_->segments) bytes[segment.stage] += segment.tiles.arena_bytes;
  return bytes;
}

Result<std::vector<Tensor>> Pipeline::run(const std::vector<Tensor>& inputs) {
  TESSERA_ASSIGN_OR_RETURN(Message message, impl_->first_message(inputs));
  for (SegmentRun& segment : impl_->segments) segment.run(&message);
  return impl_->outputs(message);
}

Status Pipeline::run_stream(size_t count, const std::function<std::vector<Tensor>(size_t)>& next_input,
                            const std::function<void(size_t, std::vector<Tensor>)>& on_output, size_t queue) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  (void)queue;  // no threads: each input through the stages in turn
  for (size_t k = 0; k < count; ++k) {
    Result<std::vector<Tensor>> outputs = run(next_input(k));
    if (!outputs.ok()) return outputs.status().with_context("stream input " + std::to_string(k));
    on_output(k, std::move(*outputs));
  }
  return Status();
#else
  // A thread per segment: segments of one stage share its executor, which takes their runs
  // as it takes two sessions'.
  const size_t segments = impl_->segments.size();
  std::vector<std::unique_ptr<Channel<Message>>> channels;  // channels[s] feeds segment s + 1 (the last: outputs)
  for (size_t s = 0; s < segments; ++s)
    channels.push_back(std::make_unique<Channel<Message>>(std::max<size_t>(queue, 1)));
  std::mutex error_mutex;
  Status error;
  auto fail = [&](Status status) {
    std::lock_guard lock(error_mutex);
    if (error.ok()) error = std::move(status);
    for (auto& channel : channels) channel->close();
  };

  std::vector<std::thread> threads;
  threads.emplace_back([&] {  // the first segment reads the inputs
    for (size_t k = 0; k < count; ++k) {
      Result<Message> message = impl_->first_message(next_input(k));
      if (!message.ok()) return fail(message.status().with_context("stream input " + std::to_string(k)));
      impl_->segments[0].run(&*message);
      if (!channels[0]->push(std::move(*message))) return;
    }
    channels[0]->close();
  });
  for (size_t s = 1; s < segments; ++s) {
    threads.emplace_back([&, s] {
      while (std::optional<Message> message = channels[s - 1]->pop()) {
        impl_->segments[s].run(&*message);
        if (!channels[s]->push(std::move(*message))) return;
      }
      channels[s]->close();
    });
  }
  size_t delivered = 0;
  while (std::optional<Message> message = channels[segments - 1]->pop())
    on_output(delivered++, impl_->outputs(*message));
  for (std::thread& t : threads) t.join();
  return error;
#endif
}

}  // namespace tessera
