// Parses and validates model JSON (format v1, docs/model-format.md) against its weights.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/model/model_desc.h"
#include "tessera/status.h"

namespace tessera::model {

// The JSON's optional "weights" field, or "" when absent. Fails on malformed JSON.
Result<std::string> weights_file_name(std::string_view json_text);

// Checks structure, names, acyclicity and weight ranges; returns nodes in topological order.
// The weights are owned by the result. Never aborts on bad input.
Result<ModelDesc> load_model(std::string_view json_text, WeightsFile weights);
inline Result<ModelDesc> load_model(std::string_view json_text, AlignedBuffer weights) {
  return load_model(json_text, WeightsFile(std::move(weights)));
}

// The [offset, bytes) of every initializer in a `weights_bytes`-byte weights file, checked
// as load_model checks them: what WeightsFile::segmented holds.
Result<std::vector<std::pair<int64_t, int64_t>>> initializer_extents(std::string_view json_text, int64_t weights_bytes);

// Placing a model over workers needs its shapes, not its weights: it is compiled without
// kernels from the initializers of at most kPlanningBytes (shapes, axes, scalars), with zeros
// standing in for the others. So a model larger than one WebAssembly instance can be planned.
inline constexpr int64_t kPlanningBytes = 64 << 10;

// One initializer planning reads: `bytes` bytes at `offset` in the weights file, which go at
// `at` in the buffer given to load_model_for_planning.
struct PlanningExtent {
  int64_t offset = 0;
  int64_t bytes = 0;
  int64_t at = 0;
};

// What load_model_for_planning reads, in the order it wants them; checks the model as
// load_model does against a `weights_bytes`-byte weights file.
Result<std::vector<PlanningExtent>> planning_extents(std::string_view json_text, int64_t weights_bytes);

// The model with the planning extents' bytes from `read` (laid out as their `at` say) and
// zeros for every other initializer: for compiling without kernels only.
Result<ModelDesc> load_model_for_planning(std::string_view json_text, int64_t weights_bytes, const AlignedBuffer& read);

// Reads a whole file into an aligned buffer.
Result<AlignedBuffer> read_file(const std::string& path);

// A whole file mapped read-only (read into memory where it cannot be mapped): its pages are
// read as they are first touched and may be released once used, to be read again when
// touched. So the file must stay as it is while the buffer lives: rewritten in place, later
// reads see the new bytes; truncated, they fault.
Result<AlignedBuffer> map_file(const std::string& path);

struct ModelFiles {
  std::string json;
  AlignedBuffer weights;  // empty when the model has no weights file
};

// Reads MODEL.json and maps its weights: the file its "weights" field names (relative to
// the JSON), which must exist, or else MODEL.bin if there is one.
Result<ModelFiles> read_model_files(const std::string& json_path);

}  // namespace tessera::model
