// tessera bench --engine xnnpack: XNNPACK latency per thread count next to Tessera's for the
// same thread counts and schedulers, all runs interleaved (a noisy machine hits every
// configuration alike), and XNNPACK's outputs checked against Tessera's, a second oracle.
#include "native/xnnpack/xnnpack_bench.h"

#include "native/commands.h"
#include "native/common.h"
#include "native/timed_runs.h"

#if TESSERA_HAVE_XNNPACK

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "native/xnnpack/xnnpack_runner.h"

namespace tessera::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Outputs differing more than this (relative to the output's largest magnitude) fail the bench.
constexpr double kTolerance = 1e-3;

struct Config : TimedRun {
  int threads;
  std::string engine;     // "xnnpack" or "tessera"
  std::string scheduler;  // Tessera's; "-" for XNNPACK
};

// max |a - b| / max |b|, or +inf on mismatched sizes or NaN.
double relative_difference(const Tensor& a, const Tensor& b) {
  const auto x = a.floats(), y = b.floats();
  if (x.size() != y.size()) return INFINITY;
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(x[i]) - y[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(y[i])));
  }
  if (std::isnan(diff)) return INFINITY;
  return scale > 0 ? diff / scale : diff;
}

}  // namespace

int xnnpack_bench(const Args& args) {
  auto path = model_path(args);
  if (!path.ok()) return fail("bench", path.status().message());
  auto runs = args.get_int("runs", 20, 1, 100000);
  if (!runs.ok()) return fail("bench", runs.status().message());
  auto warmup = args.get_double("warmup", 1.0);
  if (!warmup.ok()) return fail("bench", warmup.status().message());
  std::vector<int> thread_counts;
  for (const std::string& t : split_list(args.get("threads", "1"))) {
    const int n = std::atoi(t.c_str());
    if (n < 1 || n > 256) return fail("bench", "--threads takes counts from 1 to 256, got \"" + t + "\"");
    thread_counts.push_back(n);
  }
  std::vector<Scheduler> schedulers;
  for (const std::string& s : split_list(args.get("scheduler", "dynamic"))) {
    Scheduler scheduler;
    if (!parse_scheduler(s, &scheduler)) return fail("bench", "unknown scheduler \"" + s + "\"");
    schedulers.push_back(scheduler);
  }
  if (schedulers.empty()) return fail("bench", "--scheduler needs at least one scheduler");

  // Per thread count: one XNNPACK runner (it consumes its translation), one compiled Tessera
  // model and pool, one session per scheduler.
  std::vector<std::unique_ptr<xnnpack::XnnpackRunner>> runners;
  std::vector<std::shared_ptr<const Model>> models;
  std::vector<std::shared_ptr<Session>> sessions;
  std::vector<Config> configs;
  std::vector<Tensor> inputs;
  double setup_ms = 0;
  for (int threads : thread_counts) {
    const auto start = Clock::now();
    auto translated = xnnpack::XnnpackModel::load_file(*path);
    if (!translated.ok()) return fail("bench", translated.status().message());
    auto runner = xnnpack::XnnpackRunner::create(std::move(translated).value(), threads);
    if (!runner.ok()) return fail("bench", runner.status().message());
    setup_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    runners.push_back(std::move(runner).value());

    auto options = compile_options(args, threads);
    if (!options.ok()) return fail("bench", options.status().message());
    auto model = Model::load_file(*path, *options);
    if (!model.ok()) return fail("bench", model.status().message());
    models.push_back(model.value());
    if (inputs.empty()) {
      auto made = model.value()->random_inputs({}, 1);
      if (!made.ok()) return fail("bench", made.status().message());
      inputs = *made;
    }

    xnnpack::XnnpackRunner* r = runners.back().get();
    configs.push_back({{[r, &inputs] { return r->run(inputs); }, {}, {}, {}}, threads, "xnnpack", "-"});
    auto pool = Executor::create(threads);
    for (Scheduler scheduler : schedulers) {
      sessions.push_back(std::make_shared<Session>(model.value(), pool));
      Session* s = sessions.back().get();
      RunOptions run_options;
      run_options.scheduler = scheduler;
      configs.push_back({{[s, run_options, &inputs] { return s->run(inputs, run_options); }, {}, {}, {}},
                         threads,
                         "tessera",
                         scheduler_name(scheduler)});
    }
  }

  // XNNPACK's outputs against Tessera's (the first Tessera configuration: all are bitwise equal),
  // compared before the timing so that no configuration keeps outputs alive through it.
  double worst = 0;
  nlohmann::json differences = nlohmann::json::array();
  {
    auto expected = configs[1].run();
    if (!expected.ok()) return fail("bench", expected.status().message());
    for (Config& c : configs) {
      if (c.engine != "xnnpack") continue;
      auto outputs = c.run();
      if (!outputs.ok()) return fail("bench", outputs.status().message());
      for (size_t i = 0; i < expected->size(); ++i) {
        const Tensor& want = (*expected)[i];
        const double d = i < outputs->size() ? relative_difference((*outputs)[i], want) : INFINITY;
        worst = std::max(worst, d);
        if (&c == &configs[0]) differences.push_back({{"name", want.name}, {"max_relative_difference", d}});
      }
    }
  }

  std::vector<TimedRun*> timed;
  for (Config& c : configs) timed.push_back(&c);
  if (Status s = run_interleaved(timed, *runs, *warmup); !s.ok()) return fail("bench", s.message());

  const ModelInfo info = models[0]->info().value();
  const xnnpack::XnnpackModel& xm = runners[0]->model();
  int subgraphs = 0, relayouts = 0, concats = 0;
  for (const xnnpack::Stage& s : xm.stages()) {
    subgraphs += s.kind == xnnpack::StageKind::kSubgraph;
    relayouts += s.kind == xnnpack::StageKind::kRelayout;
    concats += s.kind == xnnpack::StageKind::kConcat;
  }
  std::printf(
      "%s: %s FLOPs; XNNPACK: %d subgraph%s, %d nodes, %d C++ relayout%s, %d concatenation%s, set up in %.1f ms; "
      "%d runs per configuration\n",
      info.name.c_str(), format_count(info.flops).c_str(), subgraphs, subgraphs == 1 ? "" : "s", xm.xnn_node_count(),
      relayouts, relayouts == 1 ? "" : "s", concats, concats == 1 ? "" : "s", setup_ms, *runs);
  std::printf("%-8s %-8s %-9s %10s %10s %9s\n", "threads", "engine", "scheduler", "median ms", "min ms", "GFLOP/s");
  nlohmann::json rows = nlohmann::json::array();
  for (const Config& c : configs) {
    const double med = median(c.ms);
    const double best = minimum(c.ms);
    const double gflops = info.flops / (med * 1e6);
    std::printf("%-8d %-8s %-9s %10.3f %10.3f %9.1f\n", c.threads, c.engine.c_str(), c.scheduler.c_str(), med, best,
                gflops);
    rows.push_back({{"threads", c.threads},
                    {"engine", c.engine},
                    {"scheduler", c.scheduler},
                    {"median_ms", med},
                    {"min_ms", best},
                    {"gflops", gflops}});
  }
  for (const Config& x : configs) {
    for (const Config& t : configs) {
      if (x.engine == "xnnpack" && t.engine == "tessera" && x.threads == t.threads) {
        std::printf("%d thread%s: tessera %s is %.2fx the speed of xnnpack (median)\n", x.threads,
                    x.threads == 1 ? "" : "s", t.scheduler.c_str(), median(x.ms) / median(t.ms));
      }
    }
  }

  std::printf("xnnpack outputs vs tessera: max relative difference %.3g (of each output's largest magnitude)\n", worst);
  if (args.has("json")) {
    nlohmann::json report = {{"model", info.name},
                             {"engine", "xnnpack"},
                             {"flops", info.flops},
                             {"runs", *runs},
                             {"isa", info.isa},
                             {"configurations", rows},
                             {"max_relative_difference", worst},
                             {"outputs", differences}};
    std::ofstream(args.get("json", "")) << report.dump(2) << "\n";
  }
  if (!(worst <= kTolerance)) {
    char text[128];
    std::snprintf(text, sizeof(text), "XNNPACK's outputs differ from Tessera's by %.3g (tolerance %g)", worst,
                  kTolerance);
    return fail("bench", text);
  }
  return 0;
}

}  // namespace tessera::cli

#else  // no XNNPACK in this build

namespace tessera::cli {

int xnnpack_bench(const Args&) {
  return fail("bench",
              "--engine xnnpack is not available: this build found no XNNPACK (install libxnnpack-dev and "
              "libpthreadpool-dev, then reconfigure)");
}

}  // namespace tessera::cli

#endif
