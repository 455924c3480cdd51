// The flat C API over the public engine (see c_api.h). Nothing here throws or aborts on bad
// input: every failure becomes a status and a message on the handle.
#include "wasm/c_api.h"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/checked_math.h"
#include "core/engine/compiled_model.h"
#include "core/engine/stage_models.h"
#include "core/model/load.h"
#include "core/ops/geometry.h"
#include "tessera/calibration.h"
#include "tessera/engine.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#include <emscripten/heap.h>
#include <unistd.h>
#define TESSERA_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE
#else
#define TESSERA_EXPORT extern "C"
#endif

struct TesseraEngine {
  std::shared_ptr<tessera::Executor> executor;
  std::string profile_json;    // of the last calibration
  std::string placement_json;  // of the last tessera_planning_extents or tessera_place_stages
  std::string error;
};

struct TesseraBuffer {
  tessera::WeightsFile file;
};

struct TesseraModel {
  std::shared_ptr<const tessera::Model> model;
  std::unique_ptr<tessera::Session> session;
  std::vector<tessera::Tensor> inputs;   // given since the last run
  std::vector<tessera::Tensor> spare;    // the last run's inputs, whose buffers the next reuses
  std::vector<tessera::Tensor> outputs;  // of the last successful run
  std::string signature_json;
  std::string info_json;
  int info_version = 0;          // counts changes of info_json
  tessera::InputDims described;  // the input dims info_json describes (none: load-time or none)
  std::string trace_json;
  std::string prediction_json;
  std::string plan_json;  // the last tessera_model_plan result
  std::string error;
};

namespace {

int fail(std::string* error, std::string message) {
  *error = std::move(message);
  return 1;
}

// Whether `bytes` more can still be allocated: the heap's free bytes and what the memory may
// still grow by. Checked before work that allocates in many places, where operator new would
// abort. Computed, not probed: a probe would grow the WebAssembly memory, which never shrinks
// (and clang drops a malloc freed unused, so a probe never failed below 2 GiB).
// Fragmentation is not counted.
uint64_t memory_limit = 0;  // tessera_memory_limit's, when the memory was created capped

bool can_allocate(uint64_t bytes) {
  const auto heap_end = reinterpret_cast<uintptr_t>(sbrk(0));
  const uint64_t maximum =
      memory_limit > 0 ? std::min<uint64_t>(memory_limit, emscripten_get_heap_max()) : emscripten_get_heap_max();
  const uint64_t growable = maximum > heap_end ? maximum - heap_end : 0;
  return bytes <= static_cast<uint32_t>(mallinfo().fordblks) + growable;  // an int holding up to 4 GiB
}

// Applies tessera_model_load's options JSON (see c_api.h) to `options`. Every option is a
// string; the planner's name and the plan and profile themselves are checked by the core.
tessera::Status read_load_options(const char* text, tessera::CompileOptions* options) {
  if (text == nullptr || *text == '\0') return tessera::Status();
  const nlohmann::json root = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return tessera::Status::error("load options: not a JSON object");
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string& key = it.key();
    if (!it.value().is_string()) return tessera::Status::error("load options: \"" + key + "\" must be a string");
    const std::string& value = it.value().get_ref<const std::string&>();
    if (key == "planner") {
      options->planner = value;
    } else if (key == "planScheduler") {
      if (!tessera::parse_scheduler(value, &options->plan_scheduler) ||
          options->plan_scheduler == tessera::Scheduler::kShuffle) {
        return tessera::Status::error("load options: \"planScheduler\" must be \"dynamic\" or \"barrier\", got \"" +
                                      value + "\"");
      }
    } else if (key == "plan") {
      options->plan = value;
    } else if (key == "profile") {
      options->profile = value;
    } else {
      return tessera::Status::error("load options: unknown option \"" + key +
                                    "\" (planner, planScheduler, plan, profile)");
    }
  }
  return tessera::Status();
}

// Applies tessera_place_stages's options JSON (see c_api.h) to `options`.
tessera::Status read_place_options(const char* text, tessera::PlaceOptions* options) {
  const nlohmann::json root = nlohmann::json::parse(text ? text : "", nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return tessera::Status::error("place options: not a JSON object");
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string& key = it.key();
    const nlohmann::json& value = it.value();
    if (key == "objective" || key == "profile") {
      if (!value.is_string()) return tessera::Status::error("place options: \"" + key + "\" must be a string");
      (key == "objective" ? options->objective : options->profile) = value.get<std::string>();
    } else if (key == "workers" || key == "threads" || key == "worker_memory") {
      if (!value.is_number_integer())
        return tessera::Status::error("place options: \"" + key + "\" must be an integer");
      if (key == "worker_memory") {
        options->worker_memory = value.get<int64_t>();
      } else {
        const int64_t n = value.get<int64_t>();
        (key == "workers" ? options->workers : options->threads) =
            static_cast<int>(std::clamp<int64_t>(n, -1, 1 << 20));
      }
    } else {
      return tessera::Status::error("place options: unknown option \"" + key +
                                    "\" (workers, threads, worker_memory, objective, profile)");
    }
  }
  return tessera::Status();
}

// What a worker engine holds beside its stage's weights and activations. While it compiles,
// its heap holds the weights it loaded beside their packed copy (weight_copies = 2: the
// loaded ones are freed then, but WebAssembly memory never shrinks), and before loading anything
// it takes its static data and main stack, a stack per executor thread and the allocator's
// slack. The last 5 % of a capped memory may stay out of reach: the heap grows by at least 5 %
// of its size at a time.
int64_t worker_reserve(int64_t worker_memory, int threads) {
  constexpr int64_t kRuntime = 16 << 20, kThreadStack = 2 << 20;
  return kRuntime + kThreadStack * threads + worker_memory / 20;
}

// A byte count from JS: a whole number from 0 to 2^53.
bool valid_bytes(double bytes) { return bytes >= 0 && bytes <= 9007199254740992.0 && bytes == std::floor(bytes); }

std::string mib(uint64_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB"; }

// The arena and the input and output copies a run of this specialisation allocates.
uint64_t run_bytes(const tessera::ModelInfo& info) {
  uint64_t io_bytes = 0;
  for (const auto* tensors : {&info.inputs, &info.outputs}) {
    for (const tessera::Tensor& t : *tensors) {
      io_bytes += tessera::dtype_size(t.dtype) * static_cast<uint64_t>(tessera::ops::element_count(t.dims));
    }
  }
  return static_cast<uint64_t>(info.arena_bytes) + 2 * io_bytes;
}

// The tensor for input `name`: the last run's, with its buffer, when it had one.
tessera::Tensor take_spare(TesseraModel* model, const char* name) {
  for (auto it = model->spare.begin(); it != model->spare.end(); ++it) {
    if (it->name != name) continue;
    tessera::Tensor tensor = std::move(*it);
    model->spare.erase(it);
    return tensor;
  }
  return tessera::Tensor::spec(name, {}, tessera::DType::kFloat32);
}

}  // namespace

TESSERA_EXPORT void tessera_memory_limit(double bytes) {
  if (valid_bytes(bytes)) memory_limit = static_cast<uint64_t>(bytes);
}

TESSERA_EXPORT TesseraEngine* tessera_engine_create(int threads) {
  auto* engine = new TesseraEngine;
  engine->executor = tessera::Executor::create(threads);
  return engine;
}

TESSERA_EXPORT void tessera_engine_destroy(TesseraEngine* engine) { delete engine; }

TESSERA_EXPORT int tessera_engine_threads(TesseraEngine* engine) { return engine->executor->threads(); }

TESSERA_EXPORT const char* tessera_engine_last_error(TesseraEngine* engine) { return engine->error.c_str(); }

TESSERA_EXPORT const char* tessera_engine_calibrate(TesseraEngine* engine, int quick) {
  tessera::CalibrateOptions options;
  options.quick = quick != 0;
  options.threads = engine->executor->threads();
  auto profile = tessera::calibrate(options);
  if (!profile.ok()) {
    fail(&engine->error, profile.status().message());
    return nullptr;
  }
  engine->profile_json = std::move(profile.value());
  return engine->profile_json.c_str();
}

TESSERA_EXPORT TesseraBuffer* tessera_buffer_create(size_t bytes) {
  tessera::AlignedBuffer whole = tessera::AlignedBuffer::allocate(bytes);
  if (bytes > 0 && whole.data() == nullptr) return nullptr;
  return new (std::nothrow) TesseraBuffer{tessera::WeightsFile(std::move(whole))};
}

TESSERA_EXPORT TesseraBuffer* tessera_weights_create(const char* json, double bytes) {
  if (!valid_bytes(bytes)) return nullptr;
  auto extents = tessera::model::initializer_extents(json, static_cast<int64_t>(bytes));
  if (!extents.ok()) return tessera_buffer_create(static_cast<size_t>(bytes));
  std::optional<tessera::WeightsFile> file =
      tessera::WeightsFile::segmented(std::move(extents.value()), static_cast<int64_t>(bytes));
  if (!file) return nullptr;
  return new (std::nothrow) TesseraBuffer{std::move(*file)};
}

TESSERA_EXPORT uint8_t* tessera_buffer_span_data(TesseraBuffer* buffer, double offset) {
  return reinterpret_cast<uint8_t*>(buffer->file.span(static_cast<int64_t>(offset)).first);
}

TESSERA_EXPORT double tessera_buffer_span_bytes(TesseraBuffer* buffer, double offset) {
  return static_cast<double>(buffer->file.span(static_cast<int64_t>(offset)).second);
}

TESSERA_EXPORT void tessera_buffer_destroy(TesseraBuffer* buffer) { delete buffer; }

TESSERA_EXPORT int tessera_model_load(TesseraEngine* engine, const char* json, TesseraBuffer* weights,
                                      const char* options_json, TesseraModel** model) {
  std::unique_ptr<TesseraBuffer> owned(weights);
  *model = nullptr;
  tessera::CompileOptions options;
  options.threads = engine->executor->threads();
  const tessera::Status read = read_load_options(options_json, &options);
  if (!read.ok()) return fail(&engine->error, read.message());
  const std::string json_text(json);
  // Packing copies the weights once more (loaded piecewise, they are freed as they are
  // packed); the JSON tree is a few times its text. Short of that, compiling would abort half way.
  const uint64_t weight_bytes = owned ? static_cast<uint64_t>(owned->file.size()) : 0;
  const uint64_t compile_bytes = weight_bytes + 16 * json_text.size() + (16 << 20);
  if (!can_allocate(compile_bytes)) {
    return fail(&engine->error, "out of memory: compiling this model needs about " + mib(compile_bytes) +
                                    ", more than the WebAssembly memory can still provide");
  }
  auto compiled =
      tessera::CompiledModel::compile(json_text, owned ? std::move(owned->file) : tessera::WeightsFile(), options);
  if (!compiled.ok()) return fail(&engine->error, compiled.status().message());
  auto* handle = new TesseraModel;
  handle->model = std::move(compiled.value());
  handle->signature_json = tessera::model_signature_json(*handle->model);
  bool fixed = true;
  for (const tessera::ValueSpec& input : handle->model->inputs()) fixed = fixed && input.is_static();
  if (fixed) {  // specialised at load: check now that a run fits
    const tessera::ModelInfo info = handle->model->info().value();
    if (!can_allocate(run_bytes(info))) {
      delete handle;
      return fail(&engine->error,
                  "out of memory: running this model needs " + mib(run_bytes(info)) +
                      " (arena, inputs and outputs), more than the WebAssembly memory can still provide");
    }
    handle->info_json = tessera::model_info_json(info);
  }
  handle->session = std::make_unique<tessera::Session>(handle->model, engine->executor);
  *model = handle;
  return 0;
}

TESSERA_EXPORT const char* tessera_planning_extents(TesseraEngine* engine, const char* json, double weights_bytes) {
  if (!valid_bytes(weights_bytes)) {
    fail(&engine->error, "planning: the weights' size must be a whole number of bytes");
    return nullptr;
  }
  auto extents = tessera::model::planning_extents(json, static_cast<int64_t>(weights_bytes));
  if (!extents.ok()) {
    fail(&engine->error, extents.status().message());
    return nullptr;
  }
  nlohmann::json out = nlohmann::json::array();
  for (const tessera::model::PlanningExtent& e : *extents) out.push_back({e.offset, e.bytes, e.bytes, 1, e.at});
  engine->placement_json =
      nlohmann::json{{"extents", out}, {"bytes", extents->empty() ? 0 : extents->back().at + extents->back().bytes}}
          .dump();
  return engine->placement_json.c_str();
}

TESSERA_EXPORT const char* tessera_place_stages(TesseraEngine* engine, const char* json, double weights_bytes,
                                                TesseraBuffer* read, const char* options_json) {
  std::unique_ptr<TesseraBuffer> owned(read);
  tessera::PlaceOptions options;
  tessera::Status status = read_place_options(options_json, &options);
  if (status.ok() && !valid_bytes(weights_bytes))
    status = tessera::Status::error("planning: the weights' size must be a whole number of bytes");
  if (status.ok() && owned && owned->file.size() > 0 && !owned->file.whole())
    status = tessera::Status::error("planning: the bytes read for planning must be one buffer (tessera_buffer_create)");
  if (!status.ok()) {
    fail(&engine->error, status.message());
    return nullptr;
  }
  const int threads_per_worker = std::max(1, options.threads / std::max(1, options.workers));
  // What a worker engine holds beside its stage (worker_reserve).
  options.weight_copies = 2;
  options.worker_reserve = worker_reserve(options.worker_memory, threads_per_worker);
  tessera::CompileOptions compile;
  compile.threads = threads_per_worker;
  compile.profile = options.profile;
  const tessera::AlignedBuffer none;
  auto model = tessera::CompiledModel::compile_for_planning(
      json, static_cast<int64_t>(weights_bytes), owned && owned->file.whole() ? *owned->file.whole() : none, compile);
  if (!model.ok()) {
    fail(&engine->error, model.status().message());
    return nullptr;
  }
  auto staged = tessera::place_stage_models(**model, {}, options);
  if (!staged.ok()) {
    fail(&engine->error, staged.status().message());
    return nullptr;
  }
  engine->placement_json = tessera::staged_model_json(*staged);
  return engine->placement_json.c_str();
}

TESSERA_EXPORT void tessera_model_destroy(TesseraModel* model) { delete model; }

TESSERA_EXPORT const char* tessera_model_last_error(TesseraModel* model) { return model->error.c_str(); }

TESSERA_EXPORT const char* tessera_model_signature_json(TesseraModel* model) { return model->signature_json.c_str(); }

TESSERA_EXPORT const char* tessera_model_info_json(TesseraModel* model) {
  return model->info_json.empty() ? nullptr : model->info_json.c_str();
}

TESSERA_EXPORT int tessera_model_info_version(TesseraModel* model) { return model->info_version; }

TESSERA_EXPORT void* tessera_model_input(TesseraModel* model, const char* name, int dtype, const int64_t* dims,
                                         int rank) {
  std::vector<int64_t> shape(dims, dims + std::max(rank, 0));
  int64_t count = 0;
  const std::string what = std::string("input \"") + name + "\"";
  if (dtype < TESSERA_FLOAT32 || dtype > TESSERA_UINT8) {
    model->inputs.clear();
    fail(&model->error, what + ": unknown dtype code " + std::to_string(dtype));
    return nullptr;
  }
  const auto type = static_cast<tessera::DType>(dtype);
  // A failed call drops every input given so far, so no stale input reaches a later run.
  if (!tessera::checked_element_count(shape, &count)) {
    model->inputs.clear();
    fail(&model->error, what + ": dims " + tessera::ops::shape_string(shape) + " have a zero or are too large");
    return nullptr;
  }
  const uint64_t bytes = static_cast<uint64_t>(count) * tessera::dtype_size(type);
  tessera::Tensor* tensor = nullptr;
  for (tessera::Tensor& t : model->inputs) {
    if (t.name == name) tensor = &t;
  }
  if (tensor == nullptr) tensor = &model->inputs.emplace_back(take_spare(model, name));
  // The last run's buffer, when large enough: no allocation, no zero fill, and no walk of the
  // heap (mallinfo visits every chunk) to see that there is room for one. Staging
  // MobileNetV2's input took 0.17 ms a run before, 0.05 now; PP-OCRv4 det's 0.54, 0.26.
  if (bytes > tensor->bytes.capacity() && !can_allocate(bytes)) {
    model->inputs.clear();
    fail(&model->error, "out of memory: no room for " + what + " (" + mib(bytes) + ") in WebAssembly memory");
    return nullptr;
  }
  tensor->dims = std::move(shape);
  tensor->dtype = type;
  tensor->bytes.resize(static_cast<size_t>(bytes));
  return tensor->bytes.data();
}

namespace {

int run_model(TesseraModel* model, const std::vector<tessera::Tensor>& inputs, int scheduler, int trace) {
  if (scheduler < 0 || scheduler > 2) return fail(&model->error, "scheduler must be 0, 1 or 2");
  tessera::RunOptions options;
  options.scheduler = static_cast<tessera::Scheduler>(scheduler);
  options.trace = trace != 0;
  // Dims other than the last run's may need a new specialisation, which must leave room for
  // its run: check before the session allocates. The same dims reuse what was checked.
  const auto dims = tessera::dims_of(inputs);
  const bool new_dims = dims != model->described;
  if (new_dims) {
    auto info = model->model->info(dims);
    if (info.ok() && !can_allocate(run_bytes(*info))) {
      return fail(&model->error,
                  "out of memory: running this model at these dims needs " + mib(run_bytes(*info)) +
                      " (arena, inputs and outputs), more than the WebAssembly memory can still provide");
    }
  }
  auto outputs = model->session->run(inputs, options);
  if (!outputs.ok()) return fail(&model->error, outputs.status().message());
  model->outputs = std::move(outputs.value());
  if (new_dims) {
    model->info_json = tessera::model_info_json(model->session->last_info());
    model->described = dims;
    ++model->info_version;
  }
  if (options.trace) {
    model->trace_json = tessera::chrome_trace_json(model->session->last_info(), model->session->last_trace());
  }
  return 0;
}

}  // namespace

TESSERA_EXPORT int tessera_model_run(TesseraModel* model, int scheduler, int trace) {
  std::vector<tessera::Tensor> inputs = std::move(model->inputs);  // each run takes its own
  model->inputs.clear();
  const int status = run_model(model, inputs, scheduler, trace);
  model->spare = std::move(inputs);  // their buffers hold the next run's inputs
  return status;
}

TESSERA_EXPORT const void* tessera_model_output(TesseraModel* model, int index) {
  if (index < 0 || static_cast<size_t>(index) >= model->outputs.size()) return nullptr;
  return model->outputs[index].bytes.data();
}

TESSERA_EXPORT const char* tessera_model_trace_json(TesseraModel* model) {
  return model->trace_json.empty() ? nullptr : model->trace_json.c_str();
}

TESSERA_EXPORT void tessera_model_release_trace(TesseraModel* model) { std::string().swap(model->trace_json); }

TESSERA_EXPORT const char* tessera_model_predict(TesseraModel* model, int threads, int scheduler, const char* profile) {
  if (model->info_json.empty()) {
    fail(&model->error,
         "predict: the model has symbolic dims and has not run yet: run it once at the dims to predict for");
    return nullptr;
  }
  if (scheduler < 0 || scheduler > 1) {
    fail(&model->error, "predict: scheduler must be 0 (dynamic) or 1 (barrier), got " + std::to_string(scheduler));
    return nullptr;
  }
  tessera::PredictOptions options;
  options.threads = threads;
  options.scheduler = static_cast<tessera::Scheduler>(scheduler);
  options.profile = profile;
  auto prediction = model->model->predict(model->described, options);
  if (!prediction.ok()) {
    fail(&model->error, prediction.status().message());
    return nullptr;
  }
  model->prediction_json = tessera::model_prediction_json(*prediction);
  return model->prediction_json.c_str();
}

TESSERA_EXPORT const char* tessera_model_plan(TesseraModel* model, int what) {
  if (model->info_json.empty()) {
    fail(&model->error, "plan: the model has symbolic dims and has not run yet: run it once at the dims to plan for");
    return nullptr;
  }
  if (what < 0 || what > 1) {
    fail(&model->error, "plan: what must be 0 (the report) or 1 (the plan file), got " + std::to_string(what));
    return nullptr;
  }
  auto text = [&]() -> tessera::Result<std::string> {
    if (what == 1) return model->model->plan_json(model->described);
    TESSERA_ASSIGN_OR_RETURN(const tessera::PlanReport report, model->model->plan(model->described));
    return tessera::plan_report_json(report);
  }();
  if (!text.ok()) {
    fail(&model->error, text.status().message());
    return nullptr;
  }
  model->plan_json = std::move(text.value());
  return model->plan_json.c_str();
}

TESSERA_EXPORT size_t tessera_heap_bytes_in_use(void) { return mallinfo().uordblks; }
