// Shared CLI plumbing: compile options, inputs, number formatting.
#include "native/common.h"

#include "native/commands.h"

#include <cstdio>
#include <fstream>

namespace tessera::cli {

Result<CompileOptions> compile_options(const Args& args, int threads) {
  CompileOptions options;
  options.threads = threads;
  options.isa = args.get("isa", "auto");
  options.reuse_memory = !args.flags.count("no-reuse");
  TESSERA_ASSIGN_OR_RETURN(options.tile_flops, args.get_double("tile-flops", options.tile_flops));
  return options;
}

Result<std::vector<Tensor>> make_inputs(const ModelInfo& info, const Args& args) {
  if (args.all("input").empty()) {
    TESSERA_ASSIGN_OR_RETURN(int seed, args.get_int("random-input", 1, 0, 1 << 30));
    return random_inputs(info.inputs, static_cast<uint64_t>(seed));
  }
  if (args.has("random-input")) return Status::error("--input and --random-input exclude each other");
  std::vector<Tensor> inputs;
  for (const std::string& spec : args.all("input")) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) return Status::error("--input expects NAME=FILE.bin, got \"" + spec + "\"");
    const std::string name = spec.substr(0, eq), path = spec.substr(eq + 1);
    const Tensor* declared = nullptr;
    for (const Tensor& t : info.inputs) {
      if (t.name == name) declared = &t;
    }
    if (!declared) return Status::error("--input: the model has no input \"" + name + "\"");
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) return Status::error("--input: cannot open \"" + path + "\"");
    int64_t n = 1;
    for (int64_t d : declared->dims) n *= d;
    const std::streamoff size = file.tellg();
    if (size != n * 4) {
      return Status::error("--input " + name + ": \"" + path + "\" has " + std::to_string(size) + " bytes, expected " +
                           std::to_string(n * 4) + " (float32)");
    }
    Tensor t{name, declared->dims, std::vector<float>(n)};
    file.seekg(0);
    file.read(reinterpret_cast<char*>(t.data.data()), size);
    inputs.push_back(std::move(t));
  }
  return inputs;
}

Result<std::string> model_path(const Args& args) {
  if (args.positional.size() != 1) return Status::error("expected one model file (see --help)");
  return args.positional[0];
}

int fail(const char* command, const std::string& message) {
  std::fprintf(stderr, "tessera %s: error: %s\n", command, message.c_str());
  return 1;
}

std::string format_bytes(int64_t bytes) {
  char text[32];
  if (bytes >= (int64_t{1} << 20)) {
    std::snprintf(text, sizeof(text), "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  } else {
    std::snprintf(text, sizeof(text), "%.1f KiB", static_cast<double>(bytes) / 1024);
  }
  return text;
}

std::string format_count(double value) {
  char text[32];
  if (value >= 1e9)
    std::snprintf(text, sizeof(text), "%.2f G", value / 1e9);
  else if (value >= 1e6)
    std::snprintf(text, sizeof(text), "%.2f M", value / 1e6);
  else if (value >= 1e3)
    std::snprintf(text, sizeof(text), "%.1f k", value / 1e3);
  else
    std::snprintf(text, sizeof(text), "%.0f", value);
  return text;
}

}  // namespace tessera::cli
