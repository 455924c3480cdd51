// tessera predict: the cost model's latency and per-node times, next to measured ones.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "native/commands.h"
#include "native/common.h"
#include "native/timed_runs.h"

namespace tessera::cli {

namespace {

constexpr const char* kHelp =
    "usage: tessera predict MODEL.json [--shape NAME=AxBxC ...] [--threads 1,2,...] [--scheduler dynamic,barrier]\n"
    "                       [--profile FILE] [--measure] [--runs R] [--json FILE] [model options]\n"
    "\n"
    "Predicts the latency of MODEL.json from the machine's profile (tessera calibrate): every\n"
    "tile priced by the profile, then scheduled by a simulation of the runtime's policy on N\n"
    "threads (docs/cost-model.md). The model is compiled once per thread count, its tiling sized\n"
    "for it. Prints the predicted time per node for the first thread count and scheduler, and\n"
    "the latency and speed-up of every configuration: thread counts past this machine's cores\n"
    "are projections.\n"
    "--profile FILE: the profile to use; without it, the one calibrate saved for this ISA, else\n"
    "  uncalibrated guesses (and the output says so).\n"
    "--measure: also runs the model (R traced runs per configuration, default 10, interleaved;\n"
    "  each after an untimed run of the same configuration, so it starts warm as in a loop)\n"
    "  and prints the measured times and the errors: per node the sum of its tiles' times, per\n"
    "  model the median latency. Thread counts past this machine's cores are not measured.\n"
    "--json FILE: {\"model\": {\"name\", \"calibrated\", \"profile\", \"threads\", \"scheduler\",\n"
    "  \"predicted_ms\", \"measured_ms\", \"critical_path_ms\", \"idle_ms\"}, \"nodes\": [{\"name\", \"op\",\n"
    "  \"predicted_ms\", \"measured_ms\"}], \"configurations\": [{\"threads\", \"scheduler\",\n"
    "  \"predicted_ms\", \"measured_ms\", \"predicted_speedup\", \"measured_speedup\"}]}, measured values\n"
    "  null when not measured. \"model\" and \"nodes\" describe the first configuration.\n";

// One thread count x scheduler: its prediction and, with --measure, its measurements.
struct Config : TimedRun {
  int threads = 1;
  Scheduler scheduler = Scheduler::kDynamic;
  ModelPrediction prediction;
  std::vector<std::vector<double>> node_ms;  // per timed run, per node
  std::vector<double> last_node_ms;          // the latest run's, timed or not
  bool measured = false;
};

double median_of_node(const Config& c, size_t node) {
  std::vector<double> values;
  for (const auto& run : c.node_ms) values.push_back(run[node]);
  return median(values);
}

nlohmann::json maybe(bool present, double value) { return present ? nlohmann::json(value) : nlohmann::json(nullptr); }

std::string percent(double predicted, double measured) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", 100.0 * (predicted - measured) / measured);
  return text;
}

// Prints the first configuration's per-node table; returns its rows as JSON.
nlohmann::json report_nodes(const Config& first, const ModelInfo& info) {
  const ModelPrediction& p = first.prediction;
  std::printf("%s: %s%s\n", info.name.c_str(), p.calibrated ? "profile " : "", p.profile.c_str());
  if (!p.calibrated) {
    std::printf("UNCALIBRATED: no profile for %s; run `tessera calibrate` for predictions of this machine\n",
                info.isa.c_str());
  }
  std::printf("\nper node, %d thread%s, %s scheduler (kernel time summed over its tiles):\n", first.threads,
              first.threads == 1 ? "" : "s", scheduler_name(first.scheduler));
  std::printf("%-40s %-18s %12s %12s %8s\n", "node", "op", "predicted ms", first.measured ? "measured ms" : "",
              first.measured ? "error" : "");
  nlohmann::json nodes = nlohmann::json::array();
  for (size_t n = 0; n < p.nodes.size(); ++n) {
    const NodePrediction& node = p.nodes[n];
    const double measured = first.measured ? median_of_node(first, n) : 0;
    std::printf("%-40.40s %-18.18s %12.4f", node.name.c_str(), node.op.c_str(), node.ms);
    if (first.measured) std::printf(" %12.4f %8s", measured, measured > 0 ? percent(node.ms, measured).c_str() : "");
    std::printf("\n");
    nodes.push_back({{"name", node.name},
                     {"op", node.op},
                     {"predicted_ms", node.ms},
                     {"measured_ms", maybe(first.measured, measured)}});
  }
  return nodes;
}

// Prints every configuration's latency and speed-up over the first thread count under the
// same scheduler; returns them as JSON.
nlohmann::json report_configurations(const std::vector<std::unique_ptr<Config>>& configs, int first_threads) {
  std::printf("\n%7s %-9s %12s %12s %8s %10s %10s\n", "threads", "scheduler", "predicted ms", "measured ms", "error",
              "pred x", "meas x");
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& c : configs) {
    const Config* base_config = nullptr;
    for (const auto& other : configs) {
      if (other->scheduler == c->scheduler && other->threads == first_threads) base_config = other.get();
    }
    const double predicted = c->prediction.latency_ms;
    const double measured = c->measured ? median(c->ms) : 0;
    const double predicted_speedup = base_config->prediction.latency_ms / predicted;
    const bool both = c->measured && base_config->measured;
    const double measured_speedup = both ? median(base_config->ms) / measured : 0;
    std::printf("%7d %-9s %12.3f", c->threads, scheduler_name(c->scheduler), predicted);
    if (c->measured) {
      std::printf(" %12.3f %8s", measured, percent(predicted, measured).c_str());
    } else {
      std::printf(" %12s %8s", "-", "");
    }
    std::printf(" %10.2f", predicted_speedup);
    if (both) std::printf(" %10.2f", measured_speedup);
    std::printf("\n");
    rows.push_back({{"threads", c->threads},
                    {"scheduler", scheduler_name(c->scheduler)},
                    {"predicted_ms", predicted},
                    {"measured_ms", maybe(c->measured, measured)},
                    {"critical_path_ms", c->prediction.critical_path_ms},
                    {"predicted_speedup", predicted_speedup},
                    {"measured_speedup", maybe(both, measured_speedup)}});
  }
  return rows;
}

}  // namespace

int predict_command(int argc, char** argv) {
  ArgSpec spec{kModelOptions, kModelFlags};
  spec.options.insert({"scheduler", "profile", "runs", "json", "input", "random-input"});
  spec.flags.insert("measure");
  auto args = parse_args(argc, argv, 2, spec);
  if (!args.ok()) return fail("predict", args.status().message());
  if (args->flags.count("help")) return std::fputs(kHelp, stdout), 0;
  auto path = model_path(*args);
  if (!path.ok()) return fail("predict", path.status().message());
  auto runs = args->get_int("runs", 10, 1, 100000);
  if (!runs.ok()) return fail("predict", runs.status().message());
  PredictOptions base;
  if (args->has("profile")) {
    auto text = read_text_file(args->get("profile", ""), "profile");
    if (!text.ok()) return fail("predict", text.status().message());
    base.profile = *text;
  }
  std::vector<int> thread_counts;
  for (const std::string& t : split_list(args->get("threads", "1"))) {
    char* end = nullptr;
    const long n = std::strtol(t.c_str(), &end, 10);
    if (t.empty() || *end != 0 || n < 1 || n > 4096) return fail("predict", "--threads takes counts from 1 to 4096");
    thread_counts.push_back(static_cast<int>(n));
  }
  std::vector<Scheduler> schedulers;
  for (const std::string& s : split_list(args->get("scheduler", "dynamic"))) {
    Scheduler scheduler;
    if (!parse_scheduler(s, &scheduler) || scheduler == Scheduler::kShuffle) {
      return fail("predict", "--scheduler takes dynamic and barrier");
    }
    schedulers.push_back(scheduler);
  }
  const bool measure = args->flags.count("measure") > 0;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());

  std::vector<std::unique_ptr<Config>> configs;
  std::vector<ModelInfo> infos;  // per thread count
  for (int threads : thread_counts) {
    auto options = compile_options(*args, threads);
    if (!options.ok()) return fail("predict", options.status().message());
    auto model = Model::load_file(*path, *options);
    if (!model.ok()) return fail("predict", model.status().message());
    auto dims = input_dims(*model.value(), *args);
    if (!dims.ok()) return fail("predict", dims.status().message());
    auto info = model.value()->info(*dims);
    if (!info.ok()) return fail("predict", info.status().message());
    infos.push_back(*info);
    const bool can_measure = measure && threads <= std::max(cores, 1);
    std::shared_ptr<Executor> executor = can_measure ? Executor::create(threads) : nullptr;
    auto inputs =
        can_measure ? make_inputs(*model.value(), *dims, *args) : Result<std::vector<Tensor>>(std::vector<Tensor>{});
    if (!inputs.ok()) return fail("predict", inputs.status().message());
    for (Scheduler scheduler : schedulers) {
      auto c = std::make_unique<Config>();
      c->threads = threads;
      c->scheduler = scheduler;
      PredictOptions options_for = base;
      options_for.threads = threads;
      options_for.scheduler = scheduler;
      auto prediction = model.value()->predict(*dims, options_for);
      if (!prediction.ok()) return fail("predict", prediction.status().message());
      c->prediction = *prediction;
      if (can_measure) {
        c->measured = true;
        auto session = std::make_shared<Session>(model.value(), executor);
        Config* self = c.get();
        c->run = [self, session, inputs = *inputs]() -> Result<std::vector<Tensor>> {
          RunOptions run_options;
          run_options.scheduler = self->scheduler;
          run_options.trace = true;
          auto out = session->run(inputs, run_options);
          if (!out.ok()) return out;
          std::vector<double> per_node(session->last_info().nodes.size(), 0.0);
          for (const TileEvent& e : session->last_trace()) {
            per_node[e.node] += 1e-6 * static_cast<double>(e.end_ns - e.start_ns);
          }
          self->last_node_ms = std::move(per_node);
          return out;
        };
        c->timed = [self] { self->node_ms.push_back(self->last_node_ms); };
      }
      configs.push_back(std::move(c));
    }
  }
  if (measure) {
    std::vector<TimedRun*> timed;
    for (auto& c : configs) {
      if (c->measured) timed.push_back(c.get());
    }
    if (Status s = run_interleaved(timed, *runs, 0.3, /*warm_each=*/true); !s.ok()) return fail("predict", s.message());
  }

  const Config& first = *configs.front();
  const ModelInfo& info = infos.front();
  const ModelPrediction& p = first.prediction;
  const nlohmann::json nodes = report_nodes(first, info);
  const nlohmann::json rows = report_configurations(configs, thread_counts.front());
  std::printf(
      "\nassumptions (docs/cost-model.md): L1 and L2 per core; L3 and DRAM shared, L3 bandwidth growing\n"
      "with cores past this machine's %d and DRAM bandwidth fixed, divided among the threads where\n"
      "their demand exceeds it; per-tile, per-edge and hand-over costs as calibrated, the same at\n"
      "every thread count.\n",
      cores);

  if (args->has("json")) {
    const nlohmann::json report = {{"model",
                                    {{"name", info.name},
                                     {"calibrated", p.calibrated},
                                     {"profile", p.profile},
                                     {"threads", first.threads},
                                     {"scheduler", scheduler_name(first.scheduler)},
                                     {"predicted_ms", p.latency_ms},
                                     {"measured_ms", maybe(first.measured, first.measured ? median(first.ms) : 0)},
                                     {"critical_path_ms", p.critical_path_ms},
                                     {"idle_ms", p.idle_ms}}},
                                   {"nodes", nodes},
                                   {"configurations", rows}};
    const std::string out = args->get("json", "");
    std::ofstream file(out);
    file << report.dump(1) << "\n";
    if (!file) return fail("predict", "cannot write \"" + out + "\"");
  }
  return 0;
}

}  // namespace tessera::cli
