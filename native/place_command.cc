// tessera place: a model split into stages over workers, with the predicted stage times,
// memory, the bytes crossing each cut, latency and period (docs/placement.md).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "native/commands.h"
#include "native/common.h"
#include "native/timed_runs.h"
#include "tessera/pipeline.h"

namespace tessera::cli {

namespace {

constexpr const char* kHelp =
    "usage: tessera place MODEL.json --workers K [--threads N] [--worker-memory SIZE]\n"
    "                     [--objective latency|throughput] [--ip SECONDS] [--shape NAME=AxBxC ...] [--explain]\n"
    "                     [--json FILE] [--profile FILE] [model options]\n"
    "\n"
    "Splits MODEL.json into consecutive stages over K workers (default 2) that share N threads\n"
    "(default 2; each worker N/K, at least one), each holding at most SIZE of weights and\n"
    "activations (256MiB, 1.5GiB, 512KiB; default: no limit), by dynamic programming over the\n"
    "graph's ideals on the cost model's predictions (docs/placement.md). The objective is one\n"
    "input's latency (default) or a stream's period, its slowest stage. Prints each stage's\n"
    "worker, nodes, predicted time, memory and the bytes crossing its cuts, the predicted latency\n"
    "and period, and the alternatives: one instance with all N threads, and one instance per\n"
    "worker taking whole inputs.\n"
    "--ip SECONDS: also solves an integer program over non-contiguous splits (any node on any\n"
    "  worker) with CBC, warm-started from the dynamic program and given SECONDS; its plan is kept\n"
    "  when it does better for the objective, or when no contiguous split fits the memory. A\n"
    "  worker then runs its nodes in several segments, in turn with the others'.\n"
    "--explain: every stage's nodes.\n"
    "--measure: also runs the stages (tessera run --workers) and prints each stage's measured time\n"
    "  next to the predicted one, and the measured latency, or with --objective throughput the\n"
    "  period of a stream of 10 inputs (medians of 5 rounds).\n"
    "--json FILE: the report (docs/placement.md).\n"
    "--profile FILE: the profile to predict with; without it, the one calibrate saved for this ISA.\n";

// "12.345 ms", or "does not fit" for 0.
std::string milliseconds(double ms) {
  if (ms <= 0) return "does not fit";
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f ms", ms);
  return text;
}

// Runs the placement's stages: each stage's time and the latency (or a stream's period),
// medians of 5 rounds, next to the predictions.
Status measure(const std::shared_ptr<const Model>& model, const InputDims& dims, const PlaceOptions& place,
               const Args& args) {
  TESSERA_ASSIGN_OR_RETURN(std::unique_ptr<Pipeline> pipeline, Pipeline::create(model, dims, place));
  TESSERA_ASSIGN_OR_RETURN(std::vector<Tensor> inputs, make_inputs(*model, dims, args));
  const PlacementReport& r = pipeline->placement();
  const bool stream = r.objective == "throughput";
  constexpr size_t kStream = 10;
  std::vector<double> totals;
  std::vector<std::vector<double>> stages(r.stages.size());
  for (int round = 0; round < 6; ++round) {  // the first warms up
    const auto start = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point first, last;
    if (stream) {
      size_t outputs = 0;
      TESSERA_RETURN_IF_ERROR(pipeline->run_stream(
          kStream, [&](size_t) { return inputs; },
          [&](size_t, std::vector<Tensor>) { (outputs++ == 0 ? first : last) = std::chrono::steady_clock::now(); }));
    } else {
      TESSERA_RETURN_IF_ERROR(pipeline->run(inputs).status());
      first = start;
      last = std::chrono::steady_clock::now();
    }
    if (round == 0) continue;
    totals.push_back(std::chrono::duration<double, std::milli>(last - first).count() / (stream ? kStream - 1 : 1));
    const std::vector<double> ms = pipeline->last_stage_ms();
    for (size_t s = 0; s < ms.size(); ++s) stages[s].push_back(ms[s]);
  }
  std::printf("\n%-5s %14s %14s\n", "stage", "measured ms", "predicted ms");
  for (size_t s = 0; s < stages.size(); ++s)
    std::printf("%-5zu %14.3f %14.3f\n", s, median(stages[s]), r.stages[s].compute_ms + r.stages[s].transfer_ms);
  std::printf("measured: %s %.3f ms (predicted %.3f ms; medians of 5 rounds%s)\n", stream ? "period" : "latency",
              median(totals), stream ? r.period_ms : r.latency_ms,
              stream ? ", 10 inputs streamed, stage times alongside each other" : "");
  return Status();
}

}  // namespace

int place_command(int argc, char** argv) {
  ArgSpec spec{kModelOptions, kModelFlags};
  spec.options.insert({"json", "input", "random-input"});
  spec.options.insert(kWorkerOptions.begin(), kWorkerOptions.end());
  spec.flags.insert({"explain", "measure"});
  auto args = parse_args(argc, argv, 2, spec);
  if (!args.ok()) return fail("place", args.status().message());
  if (args->flags.count("help")) return std::fputs(kHelp, stdout), 0;
  auto path = model_path(*args);
  if (!path.ok()) return fail("place", path.status().message());
  auto threads = args->get_int("threads", 2, 1, 256);
  if (!threads.ok()) return fail("place", threads.status().message());
  auto placing = place_options(*args, *threads);
  if (!placing.ok()) return fail("place", placing.status().message());
  PlaceOptions place = *placing;
  auto options = compile_options(*args, std::max(1, *threads / place.workers));
  if (!options.ok()) return fail("place", options.status().message());
  place.profile = options->profile;
  auto model = Model::load_file(*path, *options);
  if (!model.ok()) return fail("place", model.status().message());
  auto dims = input_dims(*model.value(), *args);
  if (!dims.ok()) return fail("place", dims.status().message());
  auto report = model.value()->place(*dims, place);
  if (!report.ok()) return fail("place", report.status().message());
  const PlacementReport& r = *report;

  std::printf("%s: %d worker%s x %d thread%s, %s objective, worker memory %s\n", model.value()->name().c_str(),
              r.workers, r.workers == 1 ? "" : "s", r.threads_per_worker, r.threads_per_worker == 1 ? "" : "s",
              r.objective.c_str(), r.worker_memory ? format_bytes(r.worker_memory).c_str() : "unlimited");
  if (!r.calibrated) std::printf("UNCALIBRATED: no profile for this ISA; run `tessera calibrate` first\n");
  if (r.calibrated && !r.transfer_calibrated)
    std::printf("transfers estimated: the profile predates their calibration; run `tessera calibrate` again\n");
  if (r.split_nodes)
    std::printf("%llu node%s larger than half a worker's memory split into column pieces\n",
                static_cast<unsigned long long>(r.split_nodes), r.split_nodes == 1 ? "" : "s");
  std::printf("layer graph: %llu nodes, %s; planned in %.1f ms\n", static_cast<unsigned long long>(r.layers),
              r.coarsening.c_str(), r.planning_ms);
  if (r.ip_ran) {
    const char* what = r.objective == "throughput" ? "period" : "latency";
    std::printf("integer program: %llu columns, %llu rows, %s; ", static_cast<unsigned long long>(r.ip_columns),
                static_cast<unsigned long long>(r.ip_rows),
                r.ip_optimal ? "proved optimal" : "stopped at the time limit");
    if (r.contiguous)
      std::printf("no shorter %s than the dynamic program's: its stages are kept\n", what);
    else
      std::printf("a shorter %s with stages that are not contiguous\n", what);
  }
  std::printf("\n%-5s %-6s %-7s %-5s %-28s %-28s %10s %11s %11s %11s %11s\n", "stage", "worker", "threads", "nodes",
              "first node", "last node", "compute ms", "transfer ms", "memory", "bytes in", "bytes out");
  for (size_t s = 0; s < r.stages.size(); ++s) {
    const StagePlan& stage = r.stages[s];
    std::printf("%-5zu %-6d %-7d %-5zu %-28.28s %-28.28s %10.3f %11.3f %11s %11s %11s\n", s, stage.worker,
                stage.threads, stage.nodes.size(), stage.nodes.front().c_str(), stage.nodes.back().c_str(),
                stage.compute_ms, stage.transfer_ms, format_bytes(stage.memory_bytes).c_str(),
                format_bytes(stage.bytes_in).c_str(), format_bytes(stage.bytes_out).c_str());
  }
  std::printf("\npredicted: latency %.3f ms, period %.3f ms\n", r.latency_ms, r.period_ms);
  std::printf("alternatives: one instance with %d threads %s; %d instances with %d thread%s each: period %s\n",
              *threads, milliseconds(r.single_ms).c_str(), r.workers, r.threads_per_worker,
              r.threads_per_worker == 1 ? "" : "s", milliseconds(r.replicas_period_ms).c_str());
  std::printf("choice for %s: %s\n", r.objective.c_str(),
              r.choice == "stages"   ? "the stages above"
              : r.choice == "single" ? "one instance with all the threads"
                                     : "one instance per worker");
  if (args->flags.count("explain")) {
    for (size_t s = 0; s < r.stages.size(); ++s) {
      std::printf("\nstage %zu (worker %d, weights %s):\n", s, r.stages[s].worker,
                  format_bytes(r.stages[s].weight_bytes).c_str());
      for (const std::string& node : r.stages[s].nodes) std::printf("  %s\n", node.c_str());
    }
  }
  if (args->flags.count("measure")) {
    auto measured = measure(model.value(), *dims, place, *args);
    if (!measured.ok()) return fail("place", measured.message());
  }
  if (args->has("json")) {
    std::ofstream out(args->get("json", ""));
    out << placement_report_json(r) << "\n";
    if (!out) return fail("place", "cannot write \"" + args->get("json", "") + "\"");
  }
  return 0;
}

}  // namespace tessera::cli
