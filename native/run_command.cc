// tessera run: one inference, outputs written as raw float32 plus a JSON of shapes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "native/commands.h"
#include "native/common.h"
#include "tessera/pipeline.h"

namespace tessera::cli {

namespace {

constexpr const char* kHelp =
    "usage: tessera run MODEL.json [--shape NAME=AxBxC ...] [--input NAME=FILE.bin ... | --random-input SEED]\n"
    "                   [--output-dir DIR] [--threads N] [--scheduler dynamic|barrier|shuffle]\n"
    "                   [--isa auto|avx512|avx2|scalar] [--tile-flops F] [--no-reuse]\n"
    "                   [--workers K [--worker-memory SIZE] [--objective latency|throughput] [--ip SECONDS]]\n"
    "\n"
    "Runs MODEL.json once. --shape gives the dims of inputs with symbolic dims (\"batch\", \"seq\").\n"
    "Inputs are raw little-endian files of the input's dtype and dims, or seeded random values\n"
    "(default: --random-input 1): floats uniform in [-1, 1), token ids within the table they\n"
    "index, other integers and bools 0/1. Each output is written to DIR/<name>.bin (raw, in\n"
    "its dtype) and described in DIR/outputs.json (dims, dtype; default DIR: tessera_out).\n"
    "Prints a summary of every output and the latency.\n"
    "--workers K: runs the stages of the model placed over K workers sharing the N threads, each\n"
    "holding at most SIZE (256MiB, 1.5GiB; tessera place); the outputs are bitwise those of one\n"
    "instance. --ip SECONDS: also the integer program, whose stages may be non-contiguous (a\n"
    "worker then runs its nodes in several segments; tessera place --help).\n";

std::string safe_file_name(const std::string& name) {
  std::string s = name;
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') c = '_';
  }
  return s;
}

// The elements of `t` as doubles, whatever its dtype.
std::vector<double> as_doubles(const Tensor& t) {
  std::vector<double> v;
  for (float x : t.values<float>()) v.push_back(x);
  for (int64_t x : t.values<int64_t>()) v.push_back(static_cast<double>(x));
  for (int32_t x : t.values<int32_t>()) v.push_back(x);
  for (uint8_t x : t.values<uint8_t>()) v.push_back(x);
  return v;
}

void print_summary(const Tensor& t) {
  const std::vector<double> values = as_doubles(t);
  double sum = 0, lo = INFINITY, hi = -INFINITY;
  for (double v : values) {
    sum += v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  std::string dims;
  for (int64_t d : t.dims) dims += (dims.empty() ? "" : "x") + std::to_string(d);
  std::printf("  %s %s [%s]  min %.6g  max %.6g  mean %.6g\n", t.name.c_str(), dtype_name(t.dtype), dims.c_str(), lo,
              hi, sum / static_cast<double>(values.size()));
  // For [N, K] scores, the top classes of the first row.
  if (t.dtype == DType::kFloat32 && t.dims.size() == 2 && t.dims[1] >= 5) {
    std::vector<int> index(t.dims[1]);
    for (size_t i = 0; i < index.size(); ++i) index[i] = static_cast<int>(i);
    std::partial_sort(index.begin(), index.begin() + 5, index.end(),
                      [&](int a, int b) { return values[a] > values[b]; });
    std::printf("    top-5 of row 0:");
    for (int i = 0; i < 5; ++i) std::printf(" %d (%.4g)", index[i], values[index[i]]);
    std::printf("\n");
  }
}

}  // namespace

int run_command(int argc, char** argv) {
  ArgSpec spec{kModelOptions, kModelFlags};
  spec.options.insert({"input", "random-input", "output-dir", "scheduler"});
  spec.options.insert(kWorkerOptions.begin(), kWorkerOptions.end());
  auto args = parse_args(argc, argv, 2, spec);
  if (!args.ok()) return fail("run", args.status().message());
  if (args->flags.count("help")) return std::fputs(kHelp, stdout), 0;
  auto path = model_path(*args);
  if (!path.ok()) return fail("run", path.status().message());
  auto threads = args->get_int("threads", 1, 1, 256);
  if (!threads.ok()) return fail("run", threads.status().message());
  Scheduler scheduler = Scheduler::kDynamic;
  if (!parse_scheduler(args->get("scheduler", "dynamic"), &scheduler)) {
    return fail("run", "--scheduler must be dynamic, barrier or shuffle");
  }
  auto options = compile_options(*args, *threads);
  if (!options.ok()) return fail("run", options.status().message());
  auto model = Model::load_file(*path, *options);
  if (!model.ok()) return fail("run", model.status().message());
  auto dims = input_dims(*model.value(), *args);
  if (!dims.ok()) return fail("run", dims.status().message());
  auto compiled = model.value()->info(*dims);
  if (!compiled.ok()) return fail("run", compiled.status().message());
  const ModelInfo& info = *compiled;
  auto inputs = make_inputs(*model.value(), *dims, *args);
  if (!inputs.ok()) return fail("run", inputs.status().message());

  Session session(model.value(), Executor::create(*threads));
  std::unique_ptr<Pipeline> pipeline;
  if (args->has("workers")) {  // the stages of a placement instead (tessera place)
    auto place = place_options(*args, *threads);
    if (!place.ok()) return fail("run", place.status().message());
    auto created = Pipeline::create(model.value(), *dims, *place);
    if (!created.ok()) return fail("run", created.status().message());
    pipeline = std::move(*created);
  }
  RunOptions run_options;
  run_options.scheduler = scheduler;
  const auto start = std::chrono::steady_clock::now();
  auto outputs = pipeline ? pipeline->run(*inputs) : session.run(*inputs, run_options);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!outputs.ok()) return fail("run", outputs.status().message());

  const std::string dir = args->get("output-dir", "tessera_out");
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return fail("run", "cannot create \"" + dir + "\": " + error.message());
  nlohmann::json listing = nlohmann::json::array();
  for (const Tensor& t : *outputs) {
    const std::string file = safe_file_name(t.name) + ".bin";
    std::ofstream out(dir + "/" + file, std::ios::binary);
    out.write(reinterpret_cast<const char*>(t.bytes.data()), static_cast<std::streamsize>(t.bytes.size()));
    if (!out) return fail("run", "cannot write \"" + dir + "/" + file + "\"");
    listing.push_back({{"name", t.name}, {"dims", t.dims}, {"dtype", dtype_name(t.dtype)}, {"file", file}});
  }
  std::ofstream(dir + "/outputs.json") << nlohmann::json{{"model", info.name}, {"outputs", listing}}.dump(2) << "\n";

  std::printf("%s: %s FLOPs, %llu tiles, compiled in %.1f ms (%s kernels)\n", info.name.c_str(),
              format_count(info.flops).c_str(), static_cast<unsigned long long>(info.tiles), info.compile_ms,
              info.isa.c_str());
  std::printf("outputs (written to %s/):\n", dir.c_str());
  for (const Tensor& t : *outputs) print_summary(t);
  if (pipeline) {
    std::printf("latency: %.2f ms (first run, %zu stages over %d workers sharing %d threads)\n", ms,
                pipeline->placement().stages.size(), pipeline->placement().workers, *threads);
  } else {
    std::printf("latency: %.2f ms (first run, %d thread%s, %s scheduler)\n", ms, *threads, *threads == 1 ? "" : "s",
                scheduler_name(scheduler));
  }
  return 0;
}

}  // namespace tessera::cli
