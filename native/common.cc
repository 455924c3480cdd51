// Shared CLI plumbing: compile options, inputs, number formatting.
#include "native/common.h"

#include <sys/resource.h>

#include "native/commands.h"
#if defined(TESSERA_HAVE_CBC)
#include "native/milp/cbc_loader.h"
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace tessera::cli {

Result<std::string> read_text_file(const std::string& path, const std::string& what) {
  std::ifstream file(path);
  if (!file) return Status::error("cannot read the " + what + " \"" + path + "\"");
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

Result<CompileOptions> compile_options(const Args& args, int threads) {
  CompileOptions options;
  options.threads = threads;
  options.isa = args.get("isa", "auto");
  options.reuse_memory = !args.flags.count("no-reuse");
  TESSERA_ASSIGN_OR_RETURN(options.tile_flops, args.get_double("tile-flops", options.tile_flops));
  options.planner = args.get("planner", options.planner);
  if (args.has("plan")) {
    TESSERA_ASSIGN_OR_RETURN(options.plan, read_text_file(args.get("plan", ""), "plan"));
  }
  if (args.has("profile")) {
    TESSERA_ASSIGN_OR_RETURN(options.profile, read_text_file(args.get("profile", ""), "profile"));
  }
  return options;
}

Result<InputDims> input_dims(const Model& model, const Args& args) {
  InputDims dims;
  for (const ValueSpec& input : model.inputs()) dims.emplace_back(input.name, input.static_dims());
  for (const std::string& spec : args.all("shape")) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) return Status::error("--shape expects NAME=AxBxC, got \"" + spec + "\"");
    const std::string name = spec.substr(0, eq);
    auto it = std::find_if(dims.begin(), dims.end(), [&](const auto& d) { return d.first == name; });
    if (it == dims.end()) return Status::error("--shape: the model has no input \"" + name + "\"");
    it->second.clear();
    for (const std::string& d : split_list(spec.substr(eq + 1), 'x')) {
      char* end = nullptr;
      const long long value = std::strtoll(d.c_str(), &end, 10);
      if (d.empty() || *end != '\0' || value < 1) {
        return Status::error("--shape " + name + ": \"" + spec.substr(eq + 1) + "\" is not dims like 1x3x224x224");
      }
      it->second.push_back(value);
    }
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    const ValueSpec& input = model.inputs()[i];
    if (std::find(dims[i].second.begin(), dims[i].second.end(), 0) != dims[i].second.end()) {
      return Status::error("input \"" + input.name + "\" has symbolic dims " + input.dims_string() +
                           ": give them with --shape " + input.name + "=AxB...");
    }
  }
  return dims;
}

Result<std::vector<Tensor>> make_inputs(const Model& model, const InputDims& dims, const Args& args) {
  if (args.all("input").empty()) {
    TESSERA_ASSIGN_OR_RETURN(int seed, args.get_int("random-input", 1, 0, 1 << 30));
    return model.random_inputs(dims, static_cast<uint64_t>(seed));
  }
  if (args.has("random-input")) return Status::error("--input and --random-input exclude each other");
  std::vector<Tensor> inputs;
  for (const std::string& spec : args.all("input")) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) return Status::error("--input expects NAME=FILE.bin, got \"" + spec + "\"");
    const std::string name = spec.substr(0, eq), path = spec.substr(eq + 1);
    size_t i = 0;
    while (i < dims.size() && dims[i].first != name) ++i;
    if (i == dims.size()) return Status::error("--input: the model has no input \"" + name + "\"");
    const DType dtype = model.inputs()[i].dtype;
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) return Status::error("--input: cannot open \"" + path + "\"");
    Tensor t = Tensor::spec(name, dims[i].second, dtype);
    const auto expected = static_cast<std::streamoff>(t.element_count() * dtype_size(dtype));
    const std::streamoff size = file.tellg();
    if (size != expected) {
      return Status::error("--input " + name + ": \"" + path + "\" has " + std::to_string(size) + " bytes, expected " +
                           std::to_string(expected) + " (" + dtype_name(dtype) + " " + model.inputs()[i].dims_string() +
                           " as " + std::to_string(t.element_count()) + " values)");
    }
    t.bytes.resize(static_cast<size_t>(size));
    file.seekg(0);
    file.read(reinterpret_cast<char*>(t.bytes.data()), size);
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

// VmHWM is this address space's own high-water mark. getrusage's ru_maxrss is not: Linux
// carries it across exec, so a child started by a large process (Node, a converter) reported
// its parent's resident set at the fork.
int64_t peak_resident_bytes() {
  if (std::FILE* status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    long long kib = -1;
    while (kib < 0 && std::fgets(line, sizeof line, status)) std::sscanf(line, "VmHWM: %lld kB", &kib);
    std::fclose(status);
    if (kib >= 0) return kib * 1024;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return int64_t{usage.ru_maxrss} * 1024;  // Linux counts kilobytes
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

Result<int64_t> parse_size(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  std::string unit(end);
  unit.erase(0, unit.find_first_not_of(' '));
  const double scale = unit.empty() || unit == "B" ? 1
                       : unit == "KiB"             ? 1024.0
                       : unit == "MiB"             ? 1024.0 * 1024
                       : unit == "GiB"             ? 1024.0 * 1024 * 1024
                                                   : 0;
  const double bytes = number * scale;
  if (end == text.c_str() || scale == 0 || !(bytes >= 1) || bytes > 1e18)
    return Status::error(what + " takes a size such as 256MiB, 1.5GiB or 512KiB, not \"" + text + "\"");
  return static_cast<int64_t>(bytes);
}

Result<PlaceOptions> place_options(const Args& args, int threads) {
  PlaceOptions place;
  TESSERA_ASSIGN_OR_RETURN(place.workers, args.get_int("workers", 2, 1, 256));
  place.threads = threads;
  place.objective = args.get("objective", "latency");
  if (args.has("worker-memory")) {
    TESSERA_ASSIGN_OR_RETURN(place.worker_memory, parse_size(args.get("worker-memory", ""), "--worker-memory"));
  }
  if (args.has("ip")) {
    auto seconds = args.get_double("ip", 10);
    if (!seconds.ok() || !(*seconds > 0 && *seconds <= 3600))
      return Status::error("--ip takes a time limit in seconds, above 0 and at most 3600");
#if defined(TESSERA_HAVE_CBC)
    place.ip_seconds = *seconds;
    TESSERA_ASSIGN_OR_RETURN(place.milp_solver, milp::load_cbc_solver());
#else
    return Status::error("--ip needs CBC, which this build lacks (install coinor-libcbc-dev and rebuild)");
#endif
  }
  return place;
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
