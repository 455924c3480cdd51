// tessera plan: how a model is tiled, by which planner, with the planner's predictions; and
// saving the plan for `--plan FILE`.
#include <cstdio>
#include <fstream>

#include "native/commands.h"
#include "native/common.h"

namespace tessera::cli {

namespace {

constexpr const char* kHelp =
    "usage: tessera plan MODEL.json [--shape NAME=AxBxC ...] [--threads N] [--scheduler dynamic|barrier]\n"
    "                    [--planner search|default|auto] [--explain] [-o PLAN.json] [--json FILE] [model options]\n"
    "\n"
    "Plans the tiling of MODEL.json for N threads (default 2) and the scheduler (default dynamic)\n"
    "with the planner (default here: search; docs/planning.md), and prints how the search went:\n"
    "configurations, eliminations, the path that solved the rest, the planning time, and the\n"
    "simulated latency of the plan next to the default plan's. A searched plan is kept only\n"
    "when the simulator predicts it faster than the default, also with a thread slowed by\n"
    "other work (each node's longest tile, times the planner's interference share).\n"
    "--explain: every node's tile grid, next to the default's, with the search's predicted time\n"
    "  for each and the gain.\n"
    "-o PLAN.json: saves the plan; `--plan PLAN.json` (every command, and the JS API's `plan`)\n"
    "  loads it back, checked against the model and the input dims.\n"
    "--json FILE: the report (docs/planning.md).\n"
    "--profile FILE: the profile to plan with; without it, the one calibrate saved for this ISA.\n";

std::string grid_string(const std::vector<int64_t>& grid) {
  std::string s;
  for (size_t i = 0; i < grid.size(); ++i) {
    if (i > 0) s += "x";
    s += std::to_string(grid[i]);
  }
  return s;
}

void explain(const PlanReport& report) {
  std::printf("\n%-40s %-20s %-12s %-12s %-11s %10s %10s %8s\n", "node", "op", "grid", "default", "algorithm",
              "pred ms", "default ms", "gain ms");
  double gain = 0;
  for (const NodePlan& n : report.nodes) {
    const double g = n.default_ms - n.predicted_ms;
    gain += g;
    std::printf("%-40.40s %-20.20s %-12s %-12s %-11s %10.4f %10.4f %8.4f\n", n.name.c_str(), n.op.c_str(),
                grid_string(n.grid).c_str(), grid_string(n.default_grid).c_str(),
                n.algorithm.empty() ? "-" : n.algorithm.c_str(), n.predicted_ms, n.default_ms, g);
  }
  // Node costs leave out edges and overlap: the simulated latencies printed above include both.
  std::printf("sum of node-cost gains: %.3f ms (edges and overlap aside; the simulated latencies include them)\n",
              gain);
}

}  // namespace

int plan_command(int argc, char** argv) {
  ArgSpec spec{kModelOptions, kModelFlags};
  spec.options.insert({"scheduler", "output", "json"});
  spec.flags.insert("explain");
  auto args = parse_args(argc, argv, 2, spec);
  if (!args.ok()) return fail("plan", args.status().message());
  if (args->flags.count("help")) return std::fputs(kHelp, stdout), 0;
  auto path = model_path(*args);
  if (!path.ok()) return fail("plan", path.status().message());
  auto threads = args->get_int("threads", 2, 1, 256);
  if (!threads.ok()) return fail("plan", threads.status().message());
  auto options = compile_options(*args, *threads);
  if (!options.ok()) return fail("plan", options.status().message());
  options->planner = args->get("planner", "search");
  if (!parse_scheduler(args->get("scheduler", "dynamic"), &options->plan_scheduler) ||
      options->plan_scheduler == Scheduler::kShuffle) {
    return fail("plan", "--scheduler takes dynamic or barrier");
  }
  auto model = Model::load_file(*path, *options);
  if (!model.ok()) return fail("plan", model.status().message());
  auto dims = input_dims(*model.value(), *args);
  if (!dims.ok()) return fail("plan", dims.status().message());
  auto report = model.value()->plan(*dims);
  if (!report.ok()) return fail("plan", report.status().message());
  const PlanReport& r = *report;

  std::printf("%s: planner %s, %d thread%s, %s scheduler\n", model.value()->name().c_str(), r.planner.c_str(),
              r.threads, r.threads == 1 ? "" : "s", scheduler_name(options->plan_scheduler));
  if (r.searched) {
    if (!r.calibrated) std::printf("UNCALIBRATED: no profile for this ISA; run `tessera calibrate` first\n");
    std::printf(
        "search: %llu nodes with %llu configurations; %llu nodes and %llu edges eliminated, %llu left, "
        "solved by %s; %.1f ms with the simulator's check\n",
        static_cast<unsigned long long>(r.nodes.size()), static_cast<unsigned long long>(r.configurations),
        static_cast<unsigned long long>(r.nodes_eliminated), static_cast<unsigned long long>(r.edges_eliminated),
        static_cast<unsigned long long>(r.core_nodes), r.search_path.c_str(), r.planning_ms);
    std::printf("simulated latency: default plan %.3f ms, searched plan %.3f ms (%.2fx)%s\n", r.default_predicted_ms,
                r.predicted_ms, r.default_predicted_ms / r.predicted_ms,
                r.kept_default ? ": not faster by the margin, the default plan is kept" : "");
    std::printf(
        "a slowed thread's exposure (longest tile per node x interference): default plan %.3f ms, plan in use %.3f "
        "ms\n",
        r.default_exposure_ms, r.exposure_ms);
  }
  if (r.no_reuse_predicted_ms > 0) {
    std::printf("arena reuse: %s (simulated without reuse: %.3f ms)\n", r.reuse_memory ? "on" : "off, predicted faster",
                r.no_reuse_predicted_ms);
  } else if (!r.reuse_memory) {
    std::printf("arena reuse: off\n");
  }
  if (args->flags.count("explain")) explain(r);
  if (args->has("output")) {
    auto text = model.value()->plan_json(*dims);
    if (!text.ok()) return fail("plan", text.status().message());
    std::ofstream out(args->get("output", ""));
    out << *text << "\n";
    if (!out) return fail("plan", "cannot write \"" + args->get("output", "") + "\"");
    std::printf("plan written to %s\n", args->get("output", "").c_str());
  }
  if (args->has("json")) {
    std::ofstream out(args->get("json", ""));
    out << plan_report_json(r) << "\n";
    if (!out) return fail("plan", "cannot write \"" + args->get("json", "") + "\"");
  }
  return 0;
}

}  // namespace tessera::cli
