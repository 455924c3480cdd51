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
inline const std::set<std::string> kModelOptions = {"threads", "isa",  "tile-flops", "shape",
                                                    "planner", "plan", "profile"};
inline const std::set<std::string> kModelFlags = {"no-reuse", "help"};

// --threads (given), --isa, --tile-flops, --no-reuse, --planner auto|default|search, --plan FILE
// (a saved plan), --profile FILE (the cost-model profile the search plans with).
Result<CompileOptions> compile_options(const Args& args, int threads);

// The whole text of a file; the error names `what` and the path.
Result<std::string> read_text_file(const std::string& path, const std::string& what);

// The dims to specialise for: --shape NAME=AxBxC for inputs with symbolic dims (any input
// may be named); the others keep their declared dims. Fails naming an input left symbolic.
Result<InputDims> input_dims(const Model& model, const Args& args);

// --input NAME=FILE.bin (raw little-endian values of the input's dtype) for each input, or
// --random-input SEED (the default with seed 1): floats in [-1, 1), token ids within the
// table they index, other integers 0/1.
Result<std::vector<Tensor>> make_inputs(const Model& model, const InputDims& dims, const Args& args);

// What the commands that place a model over workers accept.
inline const std::set<std::string> kWorkerOptions = {"workers", "worker-memory", "objective", "ip"};

// --workers K (default 2), --worker-memory SIZE, --objective latency|throughput, --ip SECONDS
// (the integer program too, by CBC): a placement over workers sharing `threads` threads.
Result<PlaceOptions> place_options(const Args& args, int threads);

// The one positional argument: the model path.
Result<std::string> model_path(const Args& args);

std::string format_bytes(int64_t bytes);  // "12.3 MiB"
// The most this process has held in memory so far (its peak resident set).
int64_t peak_resident_bytes();
// "256MiB", "1.5GiB", "512KiB" or plain bytes; `what` names the option in the error.
Result<int64_t> parse_size(const std::string& text, const std::string& what);
std::string format_count(double value);  // "4.11 G"

}  // namespace tessera::cli
