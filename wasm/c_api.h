// The flat C API the JS package calls (exported from the WebAssembly module). Handles are
// opaque. Functions returning an int status return 0 on success and 1 on error, the message
// then being in the handle's *_last_error until the next call on that handle. Strings and arrays
// returned are owned by the handle and stay valid until its next call or its destruction.
// Not thread-safe per handle: the JS layer calls it from one thread.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TesseraEngine TesseraEngine;  // the executor threads
typedef struct TesseraModel TesseraModel;    // a compiled model, its session and its I/O buffers

// Creates an engine with `threads` executor threads (1 in a build without threads). Never
// fails short of an abort. The caller frees it with tessera_engine_destroy, after destroying
// its models.
TesseraEngine* tessera_engine_create(int threads);
// Stops and joins the engine's threads and frees it.
void tessera_engine_destroy(TesseraEngine* engine);
// The executor's thread count.
int tessera_engine_threads(TesseraEngine* engine);
const char* tessera_engine_last_error(TesseraEngine* engine);

// Measures this machine for the cost model (tessera::calibrate): Tessera's kernels and runtime,
// the shared bandwidth and hand-overs on the engine's thread count; quick != 0 takes seconds
// instead of up to a minute or two. Returns the profile's JSON (it names the build and ISA),
// owned by the engine until its next call, or NULL with the message in
// tessera_engine_last_error. The threads build starts up to that many threads of its own
// meanwhile, beside the executor's: their workers must be in the pool already (a blocked
// caller cannot start any).
const char* tessera_engine_calibrate(TesseraEngine* engine, int quick);

// The most the module's memory may grow to, when it was created capped below the build's
// maximum (the C library cannot see that cap): the out-of-memory checks count against it.
void tessera_memory_limit(double bytes);

typedef struct TesseraBuffer TesseraBuffer;  // model weights on their way in

// A buffer for a `bytes`-byte file, or NULL when memory runs out: held whole, or, with the
// model's JSON (NUL-terminated; the caller keeps it), only its initializers' bytes, one
// allocation per stretch of them, which the load frees one by one as it packs them (a JSON
// that does not parse: whole, and the load reports it). The caller writes the file's bytes
// where tessera_buffer_span_data says (NULL: bytes not held, skipped), up to
// tessera_buffer_span_bytes at a time, and passes the buffer to tessera_model_load (or
// tessera_place_stages), which takes it over; a buffer never passed there is freed with
// tessera_buffer_destroy.
TesseraBuffer* tessera_buffer_create(size_t bytes);
TesseraBuffer* tessera_weights_create(const char* json, double bytes);
uint8_t* tessera_buffer_span_data(TesseraBuffer* buffer, double offset);
double tessera_buffer_span_bytes(TesseraBuffer* buffer, double offset);
void tessera_buffer_destroy(TesseraBuffer* buffer);

// Compiles a model for the engine's thread count from its JSON text (NUL-terminated; the
// caller keeps it) and its weights (NULL for none; taken over and freed by the library,
// whatever the outcome). `options_json` (NULL or "" for the defaults; the caller keeps it) is
// a JSON object with any of: "planner" ("auto", the default, "default" or "search"), "planScheduler" ("dynamic"
// or "barrier": what the search plans for), "plan" (a plan file's JSON text, from
// tessera_model_plan) and "profile" (a profile's JSON text for the search, from
// tessera_engine_calibrate; "" for uncalibrated guesses). On success *model is set and the
// caller frees it with tessera_model_destroy; on error (bad options, bad model, a plan made for
// another model or other dims, out of memory) the message is in tessera_engine_last_error.
int tessera_model_load(TesseraEngine* engine, const char* json, TesseraBuffer* weights, const char* options_json,
                       TesseraModel** model);
void tessera_model_destroy(TesseraModel* model);

// Placing a model over workers, each its own instance (docs/placement.md), without its weights
// in this one. First: the bytes of its `weights_bytes`-byte weights file that planning reads
// (its small initializers: shapes, axes, scalars), as JSON {"extents": [[offset, bytes, stride,
// count, at], ...], "bytes": total} (the form of the stages' weights below, each extent one
// run): the caller gathers each at `at` of one buffer of `total` bytes.
// NULL on error (bad model JSON, an initializer past the end of the weights), the message then
// in tessera_engine_last_error. Owned by the engine until its next call.
const char* tessera_planning_extents(TesseraEngine* engine, const char* json, double weights_bytes);

// Then: places the model (its dims must be fixed) and cuts it into stage models, from `read`
// (that buffer; taken over; NULL when there are no extents) and `options_json`, a JSON object
// with "workers", "threads" (in all), "worker_memory" (bytes; 0: no limit), "objective"
// ("latency" or "throughput") and "profile" (a profile's JSON text, "" for uncalibrated
// guesses). Returns {"placement": the placement report, "stages": [{"worker", "threads",
// "json" (the stage's model JSON text), "weights": [[offset, bytes, stride, count, at], ...]
// (its weights: `count` runs of `bytes` bytes `stride` apart from `offset` in the model's
// weights file, gathered at `at`), "weight_bytes", "inputs", "outputs"}]}, owned by the engine
// until its next call; NULL on error, the message in tessera_engine_last_error.
const char* tessera_place_stages(TesseraEngine* engine, const char* json, double weights_bytes, TesseraBuffer* read,
                                 const char* options_json);
const char* tessera_model_last_error(TesseraModel* model);

// Element types, as in tessera::DType.
enum { TESSERA_FLOAT32 = 0, TESSERA_INT64 = 1, TESSERA_INT32 = 2, TESSERA_BOOL = 3, TESSERA_UINT8 = 4 };

// JSON of the declared inputs and outputs: {"name", "inputs": [{"name", "dtype", "dims"}],
// "outputs": [...]}, where a dim is a number or a symbol's name ("seq").
const char* tessera_model_signature_json(TesseraModel* model);

// JSON describing the compiled model of the last run (before any run: of the declared dims,
// or null when they are symbolic): inputs and outputs (names, dtypes, dims), ops, kernels,
// shapes, FLOPs, tiles, edges, arena and weight bytes, compile time.
const char* tessera_model_info_json(TesseraModel* model);
// Changes whenever the info JSON does (a run at new input dims): callers re-read it then only.
int tessera_model_info_version(TesseraModel* model);

// Where the caller writes input `name` (of `dtype`, row-major) for the next run: room for
// the product of `dims` elements. Owned by the model. NULL on error (an unknown dtype, a zero
// or too large a dimension, out of memory), which also drops the inputs given before it. The
// next run checks names, dtypes and dims against the model (symbolic dims are bound then, and
// the model specialised for new dims); every input must be given again before each run.
void* tessera_model_input(TesseraModel* model, const char* name, int dtype, const int64_t* dims, int rank);

// Runs the model on the inputs given since the last run. scheduler: 0 dynamic, 1 barrier,
// 2 shuffle. trace != 0 records the tile timeline (tessera_model_trace_json).
int tessera_model_run(TesseraModel* model, int scheduler, int trace);

// Output `index` (in the order of the declared outputs) of the last successful run, row-major;
// NULL before the first run. Owned by the model. Its dtype and dims: the info JSON.
const void* tessera_model_output(TesseraModel* model, int index);

// The last traced run as Chrome trace JSON ("traceEvents"), or NULL if no run was traced
// since the last tessera_model_release_trace.
const char* tessera_model_trace_json(TesseraModel* model);

// Frees the trace JSON once the host has copied it: its length varies from run to run, and
// a heap that keeps it would differ after every traced run.
void tessera_model_release_trace(TesseraModel* model);

// What the cost model predicts for the specialisation the info JSON describes (the last run's
// dims, or the declared dims when all are fixed) on `threads` threads, scheduler 0 dynamic or
// 1 barrier, from `profile` (a profile's JSON from tessera_engine_calibrate of the same build,
// or "" for uncalibrated guesses): JSON {"calibrated", "profile", "threads", "scheduler",
// "latency_ms", "critical_path_ms", "idle_ms": [per thread], "nodes": [{"name", "op", "ms"}]}
// with the nodes in the info JSON's order. NULL on error (symbolic dims before the first run,
// bad options, a profile that is not Tessera's or is another build's), the message then in
// tessera_model_last_error.
const char* tessera_model_predict(TesseraModel* model, int threads, int scheduler, const char* profile);

// How the specialisation the info JSON describes was tiled (same dims as
// tessera_model_predict): what = 0 gives the plan report JSON {"planner" ("default", "search" or
// "file"), "searched", "kept_default", "calibrated", "threads", "search_path",
// "configurations", "nodes_eliminated", "edges_eliminated", "core_nodes", "planning_ms",
// "predicted_ms", "default_predicted_ms", "exposure_ms", "default_exposure_ms", "reuse_memory",
// "no_reuse_predicted_ms", "nodes": [{"name", "op", "grid", "default_grid", "algorithm", "predicted_ms",
// "default_ms"}]} with the nodes in the info JSON's order; what = 1 gives its plan file
// (docs/planning.md), which the "plan" load option takes back. NULL on error (symbolic dims before the first run,
// another `what`), the message then in tessera_model_last_error.
const char* tessera_model_plan(TesseraModel* model, int what);

// Bytes the allocator has handed out and not yet taken back: lets callers watch for leaks.
size_t tessera_heap_bytes_in_use(void);

#ifdef __cplusplus
}
#endif
