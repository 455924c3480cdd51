// Runtimes, the thread pool and the run loop of the XNNPACK baseline.
#include "native/xnnpack/xnnpack_runner.h"

#include <cstring>

#include "native/xnnpack/xnnpack_subgraph.h"

namespace tessera::xnnpack {

namespace {

Tensor spec_of(const BufferSpec& b) { return {b.name, b.logical_dims, {}}; }

struct CopyTask {
  const PermutedCopy* copy;
  const float* in;
  float* out;
};

void copy_slice(void* context, size_t i) {
  const auto* task = static_cast<const CopyTask*>(context);
  run_permuted_copy(*task->copy, task->in, task->out, static_cast<int64_t>(i), static_cast<int64_t>(i) + 1);
}

}  // namespace

Result<std::unique_ptr<XnnpackRunner>> XnnpackRunner::create(std::unique_ptr<XnnpackModel> model, int threads,
                                                             bool yield_workers) {
  if (threads < 1) return Status::error("threads must be at least 1");
  std::unique_ptr<XnnpackRunner> r(new XnnpackRunner());
  r->threads_ = threads;
  r->relayout_flags_ = yield_workers ? PTHREADPOOL_FLAG_YIELD_WORKERS : 0;
  if (threads > 1) {
    r->pool_ = pthreadpool_create(static_cast<size_t>(threads));
    if (r->pool_ == nullptr)
      return Status::error("xnnpack baseline: cannot create a pool of " + std::to_string(threads) + " threads");
  }
  for (const BufferSpec& b : model->buffers()) {
    r->buffers_.push_back(AlignedBuffer::allocate(sizeof(float) * b.elements + XNN_EXTRA_BYTES));
    if (r->buffers_.back().data() == nullptr) return Status::error("xnnpack baseline: out of memory");
    std::memset(r->buffers_.back().data(), 0, r->buffers_.back().size());
  }
  for (const Stage& stage : model->stages()) {
    r->copies_.emplace_back();
    if (stage.kind == StageKind::kConcat) TESSERA_RETURN_IF_ERROR(r->set_up_concat(stage.concat, r->copies_.back()));
    xnn_runtime_t runtime = nullptr;
    if (stage.kind == StageKind::kSubgraph) {
      const enum xnn_status created = xnn_create_runtime_v2(stage.subgraph.subgraph, r->pool_,
                                                            yield_workers ? XNN_FLAG_YIELD_WORKERS : 0, &runtime);
      if (created != xnn_status_success) {
        return Status::error("xnnpack baseline: XNNPACK could not create a runtime for " + model->name() + " (" +
                             xnn_status_name(created) + ")");
      }
      std::vector<xnn_external_value> externals;
      for (size_t id = 0; id < stage.subgraph.externals.size(); ++id) {
        externals.push_back({static_cast<uint32_t>(id), r->buffers_[stage.subgraph.externals[id]].data()});
      }
      r->runtimes_.push_back(runtime);
      if (xnn_setup_runtime(runtime, externals.size(), externals.data()) != xnn_status_success) {
        return Status::error("xnnpack baseline: xnn_setup_runtime failed for " + model->name());
      }
    } else {
      r->runtimes_.push_back(nullptr);
    }
  }
  r->model_ = std::move(model);
  return r;
}

XnnpackRunner::~XnnpackRunner() {
  for (xnn_runtime_t runtime : runtimes_) {
    if (runtime != nullptr) xnn_delete_runtime(runtime);
  }
  for (const auto& copies : copies_) {
    for (xnn_operator_t copy : copies) xnn_delete_operator(copy);
  }
  if (pool_ != nullptr) pthreadpool_destroy(pool_);
}

std::vector<Tensor> XnnpackRunner::input_specs() const {
  std::vector<Tensor> specs;
  for (int b : model_->input_buffers()) specs.push_back(spec_of(model_->buffers()[b]));
  return specs;
}

std::vector<Tensor> XnnpackRunner::output_specs() const {
  std::vector<Tensor> specs;
  for (int b : model_->output_buffers()) specs.push_back(spec_of(model_->buffers()[b]));
  return specs;
}

void XnnpackRunner::relayout(const RelayoutStage& stage) {
  CopyTask task{&stage.copy, buffers_[stage.input].as<float>(), buffers_[stage.output].as<float>()};
  // Threads take slices of the outermost output dim (pthreadpool runs inline without a pool).
  pthreadpool_parallelize_1d(pool_, copy_slice, &task, static_cast<size_t>(stage.copy.dims[0]), relayout_flags_);
}

Status XnnpackRunner::set_up_concat(const ConcatStage& stage, std::vector<xnn_operator_t>& copies) {
  for (const ConcatStage::Part& part : stage.parts) {
    xnn_operator_t copy = nullptr;
    const auto columns = static_cast<size_t>(part.columns);
    enum xnn_status status = xnn_create_copy_nc_x32(columns, columns, static_cast<size_t>(stage.row_floats), 0, &copy);
    if (status == xnn_status_success) {
      copies.push_back(copy);  // deleted with the runner, set up or not
      status = xnn_setup_copy_nc_x32(copy, static_cast<size_t>(stage.rows), buffers_[part.input].data(),
                                     buffers_[stage.output].as<float>() + part.offset, pool_);
    }
    if (status != xnn_status_success) {
      return Status::error(std::string("xnnpack baseline: XNNPACK rejected a Concat's copy (") +
                           xnn_status_name(status) + ")");
    }
  }
  return Status();
}

Result<std::vector<Tensor>> XnnpackRunner::run(const std::vector<Tensor>& inputs) {
  const std::vector<BufferSpec>& specs = model_->buffers();
  for (int b : model_->input_buffers()) {
    const BufferSpec& spec = specs[b];
    const Tensor* given = nullptr;
    for (const Tensor& t : inputs) {
      if (t.name == spec.name) given = &t;
    }
    if (given == nullptr) return Status::error("missing input \"" + spec.name + "\"");
    if (given->dims != spec.logical_dims || static_cast<int64_t>(given->floats().size()) != spec.elements) {
      return Status::error("input \"" + spec.name + "\" has the wrong dims or size");
    }
    std::memcpy(buffers_[b].data(), given->floats().data(), sizeof(float) * spec.elements);
  }
  const std::vector<Stage>& stages = model_->stages();
  for (size_t s = 0; s < stages.size(); ++s) {
    switch (stages[s].kind) {
      case StageKind::kRelayout: relayout(stages[s].relayout); break;
      case StageKind::kConcat:
        for (xnn_operator_t copy : copies_[s]) {
          if (xnn_run_operator(copy, pool_) != xnn_status_success) {
            return Status::error("xnnpack baseline: xnn_run_operator failed for a Concat");
          }
        }
        break;
      case StageKind::kSubgraph:
        if (xnn_invoke_runtime(runtimes_[s]) != xnn_status_success) {
          return Status::error("xnnpack baseline: xnn_invoke_runtime failed");
        }
        break;
    }
  }
  std::vector<Tensor> outputs;
  for (int b : model_->output_buffers()) {
    const BufferSpec& spec = specs[b];
    const float* data = buffers_[b].as<float>();
    outputs.push_back({spec.name, spec.logical_dims, std::vector<float>(data, data + spec.elements)});
  }
  return outputs;
}

}  // namespace tessera::xnnpack
