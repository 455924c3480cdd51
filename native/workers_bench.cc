// tessera bench --workers: a model placed over workers (tessera place) measured next to one
// instance with all the threads, and, with --stream, next to one instance per worker: one
// input's latency, or a stream's period, side by side in interleaved rounds.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "native/commands.h"
#include "native/common.h"
#include "native/timed_runs.h"
#include "tessera/pipeline.h"

namespace tessera::cli {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// A stream's period: from the first output to the last, over the outputs in between.
struct Period {
  Clock::time_point first, last;
  size_t count = 0;
  void output() {
    last = Clock::now();
    if (count++ == 0) first = last;
  }
  double ms() const { return count > 1 ? ms_between(first, last) / static_cast<double>(count - 1) : 0; }
};

}  // namespace

int workers_bench(const Args& args) {
  auto path = model_path(args);
  if (!path.ok()) return fail("bench", path.status().message());
  auto threads = args.get_int("threads", 2, 1, 256);
  if (!threads.ok()) return fail("bench", threads.status().message());
  auto place = place_options(args, *threads);
  if (!place.ok()) return fail("bench", place.status().message());
  auto rounds = args.get_int("runs", 10, 1, 100000);
  if (!rounds.ok()) return fail("bench", rounds.status().message());
  auto stream = args.get_int("stream", 0, 0, 100000);
  if (!stream.ok()) return fail("bench", stream.status().message());
  if (*stream == 1) return fail("bench", "--stream takes at least 2 inputs (a period needs two outputs)");

  // One model tiled for all the threads (one instance), one for a worker's (the replicas).
  auto load = [&](int tile_threads) -> Result<std::shared_ptr<const Model>> {
    TESSERA_ASSIGN_OR_RETURN(CompileOptions options, compile_options(args, tile_threads));
    return Model::load_file(*path, options);
  };
  const int per_worker = std::max(1, *threads / place->workers);
  auto model = load(*threads);
  if (!model.ok()) return fail("bench", model.status().message());
  auto worker_model = load(per_worker);
  if (!worker_model.ok()) return fail("bench", worker_model.status().message());
  auto dims = input_dims(**model, args);
  if (!dims.ok()) return fail("bench", dims.status().message());
  auto inputs = make_inputs(**model, *dims, args);
  if (!inputs.ok()) return fail("bench", inputs.status().message());
  auto pipeline = Pipeline::create(*model, *dims, *place);
  if (!pipeline.ok()) return fail("bench", pipeline.status().message());
  const PlacementReport& r = (*pipeline)->placement();

  Session single(*model, Executor::create(*threads));
  std::vector<std::unique_ptr<Session>> replicas;
  for (int w = 0; w < place->workers; ++w)
    replicas.push_back(std::make_unique<Session>(*worker_model, Executor::create(per_worker)));
  auto expected = single.run(*inputs, {});
  if (!expected.ok()) return fail("bench", expected.status().message());
  auto staged = (*pipeline)->run(*inputs);
  if (!staged.ok()) return fail("bench", staged.status().message());
  const bool identical = same_bits(*staged, *expected);

  // Each mode's measurement for one round, in ms: a latency, or a stream's period. A failed
  // run is kept to stop the bench after the round.
  const size_t count = static_cast<size_t>(*stream);
  std::mutex error_mutex;
  Status error;
  auto check = [&](const Status& status) {
    std::lock_guard lock(error_mutex);
    if (error.ok()) error = status;
  };
  auto stages_ms = [&]() -> double {
    if (count == 0) {
      const auto start = Clock::now();
      check((*pipeline)->run(*inputs).status());
      return ms_between(start, Clock::now());
    }
    Period period;
    check((*pipeline)->run_stream(
        count, [&](size_t) { return *inputs; }, [&](size_t, std::vector<Tensor>) { period.output(); }));
    return period.ms();
  };
  auto single_ms = [&]() -> double {
    Period period;
    const auto start = Clock::now();
    for (size_t k = 0; k < std::max<size_t>(count, 1); ++k) {
      check(single.run(*inputs, {}).status());
      period.output();
    }
    return count == 0 ? ms_between(start, Clock::now()) : period.ms();
  };
  auto replicas_ms = [&]() -> double {
    Period period;
    std::mutex mutex;
    std::atomic<size_t> next{0};
    std::vector<std::thread> workers;
    for (auto& session : replicas)
      workers.emplace_back([&, s = session.get()] {
        while (next.fetch_add(1) < count) {
          check(s->run(*inputs, {}).status());
          std::lock_guard lock(mutex);
          period.output();
        }
      });
    for (std::thread& t : workers) t.join();
    return period.ms();
  };

  std::vector<double> stages, alone, copies;
  std::vector<std::vector<double>> each_stage(r.stages.size());  // the last input's, per round
  for (int warm = 0; warm < 2; ++warm) stages_ms(), single_ms();
  for (int round = 0; round < *rounds; ++round) {
    stages.push_back(stages_ms());
    const std::vector<double> last = (*pipeline)->last_stage_ms();
    for (size_t s = 0; s < last.size(); ++s) each_stage[s].push_back(last[s]);
    alone.push_back(single_ms());
    if (count > 0) copies.push_back(replicas_ms());
    if (!error.ok()) return fail("bench", error.message());
  }

  std::printf("%s: %zu stages over %d workers x %d thread%s (%s objective, worker memory %s); outputs %s\n",
              (*model)->name().c_str(), r.stages.size(), r.workers, per_worker, per_worker == 1 ? "" : "s",
              r.objective.c_str(), r.worker_memory ? format_bytes(r.worker_memory).c_str() : "unlimited",
              identical ? "bitwise identical to one instance" : "DIFFERENT from one instance");
  const char* what = count ? "period" : "latency";
  std::printf("%-40s %12s %12s\n", count ? "stream of inputs" : "one input", ("measured " + std::string(what)).c_str(),
              "predicted");
  std::printf("%-40s %9.3f ms %9.3f ms\n", "stages", median(stages), count ? r.period_ms : r.latency_ms);
  std::printf("%-40s %9.3f ms %9.3f ms\n", ("one instance, " + std::to_string(*threads) + " threads").c_str(),
              median(alone), r.single_ms);
  if (count)
    std::printf("%-40s %9.3f ms %9.3f ms\n",
                (std::to_string(r.workers) + " instances, " + std::to_string(per_worker) + " thread(s) each").c_str(),
                median(copies), r.replicas_period_ms);
  for (size_t s = 0; s < r.stages.size(); ++s) {
    const std::string label = "  stage " + std::to_string(s) + " (" + std::to_string(r.stages[s].nodes.size()) +
                              " nodes; " + (count ? "alongside the others)" : "alone)");
    std::printf("%-40s %9.3f ms %9.3f ms\n", label.c_str(), median(each_stage[s]),
                r.stages[s].compute_ms + r.stages[s].transfer_ms);
  }
  std::printf("medians of %d interleaved rounds%s; the planner's choice: %s\n", *rounds,
              count ? (", " + std::to_string(count) + " inputs each").c_str() : "", r.choice.c_str());

  if (args.has("json")) {
    nlohmann::json per_stage = nlohmann::json::array();
    for (const std::vector<double>& ms : each_stage) per_stage.push_back(median(ms));
    nlohmann::json measured = {{"stages_ms", median(stages)}, {"single_ms", median(alone)}, {"stage_ms", per_stage}};
    if (count) measured["replicas_ms"] = median(copies);
    const nlohmann::json doc = {{"model", (*model)->name()},
                                {"stream", count},
                                {"identical", identical},
                                {"measured", measured},
                                {"placement", nlohmann::json::parse(placement_report_json(r))}};
    std::ofstream out(args.get("json", ""));
    out << doc.dump(2) << "\n";
    if (!out) return fail("bench", "cannot write \"" + args.get("json", "") + "\"");
  }
  return identical ? 0 : fail("bench", "the stages' outputs differ from one instance's");
}

}  // namespace tessera::cli
