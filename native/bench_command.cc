// tessera bench: latency side by side for thread counts x schedulers (interleaved runs, so
// a noisy machine hits every configuration alike), and the machine's peak FLOP rate.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "native/commands.h"
#include "native/common.h"
#include "native/core_round_trip.h"
#include "native/timed_runs.h"
#include "native/xnnpack/xnnpack_bench.h"
#include "tessera/calibration.h"

namespace tessera::cli {

namespace {

constexpr const char* kHelp =
    "usage: tessera bench MODEL.json [--shape NAME=AxBxC ...] [--threads 1,2] [--scheduler dynamic,barrier] [--runs "
    "R]\n"
    "                     [--warmup SECONDS] [--json FILE] [--no-peak] [--engine tessera|xnnpack]\n"
    "                     [--input NAME=FILE.bin ... | --random-input SEED]\n"
    "                     [model options]\n"
    "       tessera bench --peak [--threads N] [--seconds S] [--gemm 512]\n"
    "\n"
    "With a model: compiles it once per thread count and planner (and per scheduler when searched:\n"
    "each scheduler gets its own plan), warms up, then runs every configuration R times (default\n"
    "20), interleaved. Prints median and min latency, achieved GFLOP/s and\n"
    "its share of the measured peak of the threads used, tiles and arena bytes, and checks\n"
    "that every configuration produced bitwise identical outputs.\n"
    "With --engine xnnpack: the same model through XNNPACK's operator-at-a-time subgraph runtime\n"
    "(its pthreadpool with the same thread counts), interleaved with Tessera's runs, with the\n"
    "largest output difference between the two; ops XNNPACK lacks are listed.\n"
    "With --workers K [--worker-memory SIZE] [--objective latency|throughput] [--ip S] [--stream N]: the\n"
    "model placed over K workers sharing the threads (tessera place), one input's latency next to\n"
    "one instance with all the threads; with --stream, the period of N inputs streamed through the\n"
    "stages next to one instance and to K instances taking whole inputs; predicted next to measured\n"
    "(medians of --runs rounds, default 10).\n"
    "With --peak: the FP32 FMA peak of one core and of N threads at once, and the GEMM\n"
    "micro-kernel's rate on an M=N=K problem (default 512) on one core.\n"
    "Plans: --planner default,search compiles one model per planner (default: auto, labelled so, which\n"
    "plans as search with a calibrated profile); --plan FILE (repeatable) one per\n"
    "saved plan instead, labelled by its file name: plans compared side by side, each against the first.\n"
    "On several threads: how fast two cores answer each other (a cache line's round trip), before and\n"
    "after the runs, the host's state the times met (docs/benchmarks.md, \"Two states of the cores\").\n"
    "Model options: --isa, --tile-flops, --no-reuse, --planner, --plan, --profile (see tessera run --help).\n";

// What tiles one compiled model: a planner, or a saved plan (its text, labelled by its file).
struct PlanSource {
  std::string label;
  std::string planner;
  std::string plan;
};

Result<std::vector<PlanSource>> plan_sources(const Args& args) {
  std::vector<PlanSource> sources;
  if (!args.has("plan")) {
    for (const std::string& planner : split_list(args.get("planner", "auto")))
      sources.push_back({planner, planner, ""});
    return sources;
  }
  if (args.has("planner"))
    return Status::error("--planner and --plan exclude each other: a saved plan is its own tiling");
  const std::vector<std::string>& files = args.all("plan");
  const auto base_name = [](const std::string& file) { return file.substr(file.find_last_of('/') + 1); };
  for (const std::string& file : files) {
    TESSERA_ASSIGN_OR_RETURN(std::string text, read_text_file(file, "plan"));
    // Labelled by file name, or by path where two plans share one.
    const bool shared = std::count_if(files.begin(), files.end(),
                                      [&](const std::string& f) { return base_name(f) == base_name(file); }) > 1;
    sources.push_back({shared ? file : base_name(file), "default", std::move(text)});
  }
  return sources;
}

struct Config : TimedRun {
  int threads;
  Scheduler scheduler;
  std::string planner;
  std::shared_ptr<Session> session;
  std::shared_ptr<const ModelInfo> info;
};

// Milliseconds to look up an already compiled specialisation (median of 100), through
// Model::info, which also copies the info: an upper bound on what a run pays for the lookup.
double cached_lookup_ms(const Model& model, const InputDims& dims) {
  std::vector<double> ms;
  for (int i = 0; i < 100; ++i) {
    const auto start = std::chrono::steady_clock::now();
    (void)model.info(dims);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return median(ms);
}

int peak_command(const Args& args) {
  auto threads = args.get_int("threads", 2, 1, 256);
  if (!threads.ok()) return fail("bench", threads.status().message());
  auto seconds = args.get_double("seconds", 1.0);
  if (!seconds.ok()) return fail("bench", seconds.status().message());
  auto size = args.get_int("gemm", 512, 1, 8192);
  if (!size.ok()) return fail("bench", size.status().message());
  const PeakMeasurement peak = measure_peak(*threads, *seconds);
  const GemmMeasurement gemm = measure_gemm(*size, *size, *size, *seconds);
  std::printf("isa: %s\n", peak.isa.c_str());
  std::printf("peak FP32, 1 core:     %8.1f GFLOP/s\n", peak.one_core_gflops);
  std::printf("peak FP32, %d threads: %8.1f GFLOP/s\n", peak.threads, peak.all_threads_gflops);
  std::printf("GEMM %dx%dx%d (%s, 1 core): %.1f GFLOP/s = %.1f%% of one core's peak\n", *size, *size, *size,
              gemm.kernel.c_str(), gemm.gflops, 100.0 * gemm.gflops / peak.one_core_gflops);
  return 0;
}

}  // namespace

int bench_command(int argc, char** argv) {
  ArgSpec spec{kModelOptions, kModelFlags};
  spec.options.insert(
      {"scheduler", "runs", "warmup", "json", "seconds", "gemm", "engine", "input", "random-input", "stream"});
  spec.options.insert(kWorkerOptions.begin(), kWorkerOptions.end());
  spec.flags.insert({"peak", "no-peak"});
  auto args = parse_args(argc, argv, 2, spec);
  if (!args.ok()) return fail("bench", args.status().message());
  if (args->flags.count("help")) return std::fputs(kHelp, stdout), 0;
  if (args->flags.count("peak")) return peak_command(*args);
  const std::string engine = args->get("engine", "tessera");
  if (engine == "xnnpack") return xnnpack_bench(*args);
  if (engine != "tessera") return fail("bench", "--engine must be tessera or xnnpack, got \"" + engine + "\"");
  if (args->has("workers")) return workers_bench(*args);
  if (args->has("stream")) return fail("bench", "--stream runs a placement: give --workers K");
  auto path = model_path(*args);
  if (!path.ok()) return fail("bench", path.status().message());
  auto runs = args->get_int("runs", 20, 1, 100000);
  if (!runs.ok()) return fail("bench", runs.status().message());
  auto warmup = args->get_double("warmup", 1.0);
  if (!warmup.ok()) return fail("bench", warmup.status().message());

  std::vector<int> thread_counts;
  for (const std::string& t : split_list(args->get("threads", "1"))) {
    const int n = std::atoi(t.c_str());
    if (n < 1 || n > 256) return fail("bench", "--threads takes counts from 1 to 256, got \"" + t + "\"");
    thread_counts.push_back(n);
  }
  std::vector<Scheduler> schedulers;
  for (const std::string& s : split_list(args->get("scheduler", "dynamic"))) {
    Scheduler scheduler;
    if (!parse_scheduler(s, &scheduler)) return fail("bench", "unknown scheduler \"" + s + "\"");
    schedulers.push_back(scheduler);
  }
  auto sources = plan_sources(*args);
  if (!sources.ok()) return fail("bench", sources.status().message());
  Args model_args = *args;  // the saved plans are read once, above: each source sets its own
  model_args.options.erase("plan");

  // One pool per thread count; one compiled model per thread count and planner (per
  // scheduler too when searched: the search plans for one); one session per configuration.
  std::vector<std::shared_ptr<const Model>> models;
  std::vector<Config> configs;
  std::vector<Tensor> inputs;
  InputDims dims;
  for (int threads : thread_counts) {
    auto pool = Executor::create(threads);
    for (const PlanSource& source : *sources) {
      std::shared_ptr<const Model> model;
      std::shared_ptr<const ModelInfo> info;
      for (Scheduler scheduler : schedulers) {
        // A searched plan is made for one scheduler; the others serve them all.
        if (!model || info->planner == "search") {
          auto options = compile_options(model_args, threads);
          if (!options.ok()) return fail("bench", options.status().message());
          options->planner = source.planner;
          options->plan = source.plan;
          options->plan_scheduler = scheduler == Scheduler::kBarrier ? scheduler : Scheduler::kDynamic;
          auto loaded = Model::load_file(*path, *options);
          if (!loaded.ok()) return fail("bench", loaded.status().message());
          model = loaded.value();
          models.push_back(model);
          if (dims.empty()) {
            auto given = input_dims(*model, *args);
            if (!given.ok()) return fail("bench", given.status().message());
            dims = *given;
          }
          auto compiled = model->info(dims);
          if (!compiled.ok()) return fail("bench", compiled.status().message());
          info = std::make_shared<const ModelInfo>(std::move(compiled).value());
          if (inputs.empty()) {
            auto made = make_inputs(*model, dims, *args);
            if (!made.ok()) return fail("bench", made.status().message());
            inputs = std::move(made).value();
          }
        }
        configs.push_back({{}, threads, scheduler, source.label, std::make_shared<Session>(model, pool), info});
      }
    }
  }
  std::vector<TimedRun*> timed;
  for (Config& c : configs) {
    RunOptions options;
    options.scheduler = c.scheduler;
    c.run = [&inputs, &c, options] { return c.session->run(inputs, options); };
    timed.push_back(&c);
  }
  // The cores' state before and after the runs, where several threads run (0: not measured).
  const bool threaded = *std::max_element(thread_counts.begin(), thread_counts.end()) > 1;
  const double round_trip_before = threaded ? core_round_trip_ns().value_or(0) : 0;
  if (Status s = run_interleaved(timed, *runs, *warmup); !s.ok()) return fail("bench", s.message());
  const double round_trip_after = threaded ? core_round_trip_ns().value_or(0) : 0;
  const bool round_trips = round_trip_before > 0 && round_trip_after > 0;

  PeakMeasurement peak;
  const bool with_peak = !args->flags.count("no-peak");
  if (with_peak) peak = measure_peak(*std::max_element(thread_counts.begin(), thread_counts.end()), 0.5);

  const ModelInfo& info = *configs[0].info;
  std::printf("%s: %s FLOPs, %s kernels, %d runs per configuration\n", info.name.c_str(),
              format_count(info.flops).c_str(), info.isa.c_str(), *runs);
  const double lookup_ms = cached_lookup_ms(*models[0], dims);
  std::printf("specialisation for these input dims: compiled in %.1f ms; cached, it costs at most %.4f ms per run\n",
              info.compile_ms, lookup_ms);
  int label_width = 8;  // the planner column fits the longest label (a plan's file name)
  for (const PlanSource& source : *sources) label_width = std::max(label_width, static_cast<int>(source.label.size()));
  std::printf("%-8s %-9s %-*s %10s %10s %9s %8s %7s %11s\n", "threads", "scheduler", label_width, "planner",
              "median ms", "min ms", "GFLOP/s", "% peak", "tiles", "arena");
  nlohmann::json rows = nlohmann::json::array();
  for (const Config& c : configs) {
    const double med = median(c.ms);
    const double best = minimum(c.ms);
    const double gflops = c.info->flops / (med * 1e6);
    // The peak of the threads used: one core's peak times the thread count, capped by the
    // measured all-threads figure.
    const double threads_peak =
        std::min(peak.one_core_gflops * c.threads, c.threads >= peak.threads ? peak.all_threads_gflops : 1e300);
    const double percent = with_peak ? 100.0 * gflops / threads_peak : 0.0;
    std::printf("%-8d %-9s %-*s %10.3f %10.3f %9.1f %7.1f%% %7llu %11s\n", c.threads, scheduler_name(c.scheduler),
                label_width, c.planner.c_str(), med, best, gflops, percent,
                static_cast<unsigned long long>(c.info->tiles), format_bytes(c.info->arena_bytes).c_str());
    rows.push_back({{"threads", c.threads},
                    {"scheduler", scheduler_name(c.scheduler)},
                    {"planner", c.planner},
                    {"plan", c.info->planner},
                    {"median_ms", med},
                    {"min_ms", best},
                    {"gflops", gflops},
                    {"percent_of_peak", percent},
                    {"tiles", c.info->tiles},
                    {"arena_bytes", c.info->arena_bytes},
                    {"compile_ms", c.info->compile_ms}});
  }
  for (const Config& a : configs) {
    for (const Config& b : configs) {
      if (a.threads != b.threads) continue;
      const char* s = a.threads == 1 ? "" : "s";
      if (a.planner == b.planner && a.scheduler == Scheduler::kDynamic && b.scheduler == Scheduler::kBarrier) {
        std::printf("%d thread%s, planner %s: dynamic is %.2fx the speed of barrier (median)\n", a.threads, s,
                    a.planner.c_str(), median(b.ms) / median(a.ms));
      }
      if (a.scheduler == b.scheduler && a.planner != b.planner && b.planner == sources->front().label) {
        std::printf("%d thread%s, %s scheduler: %s is %.2fx the speed of %s (median)\n", a.threads, s,
                    scheduler_name(a.scheduler), a.planner.c_str(), median(b.ms) / median(a.ms), b.planner.c_str());
      }
    }
  }
  bool identical = true;
  for (const Config& c : configs) identical = identical && c.first_digest == configs[0].first_digest;
  std::printf("outputs bitwise identical across configurations: %s\n", identical ? "yes" : "NO");
  const int64_t resident = peak_resident_bytes();
  std::printf("peak resident memory: %s (weights %s, arena %s)\n", format_bytes(resident).c_str(),
              format_bytes(info.weight_bytes).c_str(), format_bytes(info.arena_bytes).c_str());
  if (models.size() > 1) {
    std::printf(
        "  with %zu compiled models loaded side by side (one per configuration but the schedulers of a\n"
        "  default plan): bench one configuration for one model's peak\n",
        models.size());
  }
  if (round_trips) {
    std::printf("cores answer each other in %.0f ns before the runs, %.0f ns after (round trip of a cache line)\n",
                round_trip_before, round_trip_after);
    if (cores_moved(round_trip_before, round_trip_after)) {
      std::printf("  the host moved its cores during the runs: several-thread times mix two states\n");
    }
  }
  if (with_peak) {
    std::printf("measured peak: %.1f GFLOP/s on 1 core, %.1f GFLOP/s on %d threads\n", peak.one_core_gflops,
                peak.all_threads_gflops, peak.threads);
  }
  if (args->has("json")) {
    nlohmann::json report = {{"model", info.name},
                             {"flops", info.flops},
                             {"runs", *runs},
                             {"isa", info.isa},
                             {"compile_ms", info.compile_ms},
                             {"cached_specialization_ms", lookup_ms},
                             {"configurations", rows},
                             {"identical_outputs", identical},
                             {"peak_resident_bytes", resident},
                             {"models_loaded", models.size()},
                             {"peak_one_core_gflops", peak.one_core_gflops},
                             {"peak_all_threads_gflops", peak.all_threads_gflops}};
    if (round_trips) report["core_round_trip_ns"] = {{"before", round_trip_before}, {"after", round_trip_after}};
    std::ofstream(args->get("json", "")) << report.dump(2) << "\n";
  }
  return identical ? 0 : 1;
}

}  // namespace tessera::cli
