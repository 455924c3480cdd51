// tessera: the native command line (run, bench, inspect, trace, calibrate, predict, plan, place).
#include <cstdio>
#include <cstring>
#include <string>

#include "native/commands.h"

namespace {

constexpr const char* kUsage =
    "usage: tessera <command> [options]\n"
    "\n"
    "Tessera compiles a model (docs/model-format.md) into a tile dataflow graph and runs it\n"
    "on executor threads with no barrier between operators.\n"
    "\n"
    "commands:\n"
    "  run      run a model once and write its outputs\n"
    "  bench    measure latency (side by side for several thread counts and schedulers),\n"
    "           or the machine's peak FLOP rate with --peak\n"
    "  inspect  show ops, shapes, FLOPs, tiles, edges, critical path and the arena plan\n"
    "  trace    write a Chrome/Perfetto trace of every tile of one run\n"
    "  calibrate  measure this machine's kernels and runtime into a cost-model profile\n"
    "  predict  predict latency and per-node time from the profile (--measure: next to measured)\n"
    "  plan     plan the tiling (--explain: per node, with predictions; -o: save the plan)\n"
    "  place    split a model into stages over workers with memory budgets\n"
    "\n"
    "`tessera <command> --help` describes each command's options.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  const std::string command = argv[1];
  if (command == "run") return tessera::cli::run_command(argc, argv);
  if (command == "bench") return tessera::cli::bench_command(argc, argv);
  if (command == "inspect") return tessera::cli::inspect_command(argc, argv);
  if (command == "trace") return tessera::cli::trace_command(argc, argv);
  if (command == "calibrate") return tessera::cli::calibrate_command(argc, argv);
  if (command == "predict") return tessera::cli::predict_command(argc, argv);
  if (command == "plan") return tessera::cli::plan_command(argc, argv);
  if (command == "place") return tessera::cli::place_command(argc, argv);
  std::fprintf(stderr, "tessera: unknown command \"%s\"\n\n%s", command.c_str(), kUsage);
  return 1;
}
