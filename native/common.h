// What the CLI commands share: compile options from flags, and input tensors from files
// or a seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "native/args.h"
#include "tessera/engine.h"

namespace tessera::cli {

// Options every model-loading command accepts.
inline const std::set<std::string> kModelOptions = {"threads", "isa", "tile-flops"};
inline const std::set<std::string> kModelFlags = {"no-reuse", "help"};

Result<CompileOptions> compile_options(const Args& args, int threads);

// --input NAME=FILE.bin (raw little-endian float32) for each input, or --random-input SEED
// (uniform in [-1, 1), the default with seed 1).
Result<std::vector<Tensor>> make_inputs(const ModelInfo& info, const Args& args);

// The one positional argument: the model path.
Result<std::string> model_path(const Args& args);

std::string format_bytes(int64_t bytes);  // "12.3 MiB"
std::string format_count(double value);   // "4.11 G"

}  // namespace tessera::cli
