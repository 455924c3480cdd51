// Parses and validates model JSON (format v1, docs/model-format.md) against its weights.
#pragma once

#include <string>
#include <string_view>

#include "core/model/model_desc.h"
#include "tessera/status.h"

namespace tessera::model {

// The JSON's optional "weights" field, or "" when absent. Fails on malformed JSON.
Result<std::string> weights_file_name(std::string_view json_text);

// Checks structure, names, acyclicity and weight ranges; returns nodes in topological order.
// The weights buffer is owned by the result. Never aborts on bad input.
Result<ModelDesc> load_model(std::string_view json_text, AlignedBuffer weights);

// Reads a whole file into an aligned buffer.
Result<AlignedBuffer> read_file(const std::string& path);

struct ModelFiles {
  std::string json;
  AlignedBuffer weights;  // empty when the model has no weights file
};

// Reads MODEL.json and its weights: the file its "weights" field names (relative to the
// JSON), which must exist, or else MODEL.bin if there is one.
Result<ModelFiles> read_model_files(const std::string& json_path);

}  // namespace tessera::model
