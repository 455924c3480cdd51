// XnnpackRunner: one XnnpackModel ready to run on a pthreadpool of N threads: XNNPACK runtimes
// created and set up once on fixed buffers, so a run is copies in, invokes, copies out.
#pragma once

#include <pthreadpool.h>
#include <xnnpack.h>

#include <memory>
#include <vector>

#include "core/base/aligned_buffer.h"
#include "native/xnnpack/xnnpack_model.h"
#include "tessera/engine.h"

namespace tessera::xnnpack {

class XnnpackRunner {
 public:
  // Takes the model (its subgraphs are consumed: XNNPACK rewrites a subgraph when it builds a
  // runtime) and `threads` (the calling thread counts as one, as in pthreadpool). With
  // `yield_workers`, the pool's workers sleep after each run instead of spinning, as Tessera's
  // idle threads do: otherwise they keep a core busy between runs and slow whatever runs next
  // on the machine (e.g. Tessera, in an interleaved benchmark). Fails if XNNPACK rejects a subgraph.
  static Result<std::unique_ptr<XnnpackRunner>> create(std::unique_ptr<XnnpackModel> model, int threads,
                                                       bool yield_workers = true);
  ~XnnpackRunner();
  XnnpackRunner(const XnnpackRunner&) = delete;
  XnnpackRunner& operator=(const XnnpackRunner&) = delete;

  // Names and logical dims of the inputs and outputs (no data), in the model's order.
  std::vector<Tensor> input_specs() const;
  std::vector<Tensor> output_specs() const;

  // Inputs by name with matching dims (row-major); returns the outputs, row-major, in the
  // model's order. One call at a time.
  Result<std::vector<Tensor>> run(const std::vector<Tensor>& inputs);

  const XnnpackModel& model() const { return *model_; }
  int threads() const { return threads_; }

 private:
  XnnpackRunner() = default;
  void relayout(const RelayoutStage& stage);
  Status set_up_concat(const ConcatStage& stage, std::vector<xnn_operator_t>& copies);

  std::unique_ptr<XnnpackModel> model_;
  int threads_ = 1;
  pthreadpool_t pool_ = nullptr;                     // null for one thread: XNNPACK runs on the caller
  uint32_t relayout_flags_ = 0;                      // the pool's flags for relayouts (yielding workers)
  std::vector<AlignedBuffer> buffers_;               // one per BufferSpec, with XNN_EXTRA_BYTES of slack
  std::vector<xnn_runtime_t> runtimes_;              // per stage; null but for subgraphs
  std::vector<std::vector<xnn_operator_t>> copies_;  // per stage; a Concat's copy operators
};

}  // namespace tessera::xnnpack
