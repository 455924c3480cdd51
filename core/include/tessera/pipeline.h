// A model split into stages over workers (Model::place, docs/placement.md), run natively: each
// stage its own compiled graph, arena and thread group. Outputs are bitwise identical to one
// Session's.
//
//   tessera::PlaceOptions place;  // 2 workers of 1 thread each, no memory limit
//   place.objective = "throughput";
//   auto pipeline = tessera::Pipeline::create(model, {}, place);
//   auto outputs = pipeline.value()->run(inputs);            // one input through the stages
//   pipeline.value()->run_stream(100, next_input, on_output);  // stages busy on consecutive inputs
//
// Thread safety: one call at a time. run_stream calls `next_input` from the first stage's
// thread and `on_output` from the calling thread, in input order.
#pragma once

#include <functional>
#include <memory>

#include "tessera/engine.h"

namespace tessera {

class Pipeline {
 public:
  // Places the specialisation for `dims` (Model::place) and compiles every stage for its
  // worker's threads, whatever the placement's `choice`. Fails like Model::place.
  static Result<std::unique_ptr<Pipeline>> create(std::shared_ptr<const Model> model, const InputDims& dims,
                                                  const PlaceOptions& options);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  const PlacementReport& placement() const;
  // Bytes of each stage's arena (of its segments together when its nodes are not contiguous),
  // in stage order.
  std::vector<int64_t> arena_bytes() const;
  // Milliseconds of each stage's last run (copies in and out included; its segments' together),
  // in stage order.
  std::vector<double> last_stage_ms() const;

  // One input through the stages in turn; inputs as Session::run takes them, for the dims the
  // pipeline was made for.
  Result<std::vector<Tensor>> run(const std::vector<Tensor>& inputs);

  // `count` inputs through all stages at once: stage s works on input k while stage s + 1
  // works on input k - 1, with at most `queue` inputs waiting between two stages. The first
  // error (a bad input) stops the stream and is returned.
  Status run_stream(size_t count, const std::function<std::vector<Tensor>(size_t)>& next_input,
                    const std::function<void(size_t, std::vector<Tensor>)>& on_output, size_t queue = 2);

 private:
  struct Impl;
  explicit Pipeline(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tessera
