// The zoo's catalogue and generation entry point, shared by the tessera-zoo CLI and the tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/zoo/graph_builder.h"
#include "tessera/status.h"

namespace tessera::zoo {

class LayerBuilder;

struct ModelSpec {
  const char* name;         // CLI name and weight-stream name, e.g. "resnet50"
  const char* description;  // one line for --list
  bool batched;             // false: the batch is fixed by the architecture and --batch is ignored
  void (*build)(LayerBuilder& nn, int64_t batch);
};

// Every model, in --list order: full-size first, then the tiny ones.
const std::vector<ModelSpec>& model_specs();
const ModelSpec* find_model(const std::string& name);

// What one invocation writes: a model and the batch to build it with.
struct ModelRequest {
  const ModelSpec* spec;
  int64_t batch;
};

// Resolves a CLI target ("all", "tiny" or a model name). `batch` applies to batched models
// named directly; "all" writes batch 1 and 8. Fails on an unknown name.
Result<std::vector<ModelRequest>> resolve_target(const std::string& target, int64_t batch);

// "resnet50_b8", "bert_base", "tiny_cnn".
std::string file_stem(const ModelRequest& request);

// Builds the graph and its weights; the same (request, seed) always gives the same bytes.
GraphBuilder build_model(const ModelRequest& request, uint64_t seed);

struct GeneratedModel {
  std::string stem;
  int64_t parameter_count = 0;
  int64_t flops = 0;
  size_t weight_bytes = 0;
  double seconds = 0;
};

// Builds and writes `<dir>/<stem>.json` and `.bin`.
Result<GeneratedModel> generate(const ModelRequest& request, uint64_t seed, const std::string& dir);

}  // namespace tessera::zoo
