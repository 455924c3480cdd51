// tessera trace: one traced run written as Chrome / Perfetto trace JSON.
#include <chrono>
#include <cstdio>
#include <fstream>

#include "native/commands.h"
#include "native/common.h"

namespace tessera::cli {

namespace {

constexpr const char* kHelp =
    "usage: tessera trace MODEL.json -o trace.json [--threads N] [--scheduler S]\n"
    "                     [--input NAME=FILE.bin ... | --random-input SEED] [model options]\n"
    "\n"
    "Runs MODEL.json for half a second to warm up, then once more recording every tile: which\n"
    "thread ran it and when. Writes the timeline as Chrome trace JSON (open it in\n"
    "ui.perfetto.dev or chrome://tracing): one track per executor thread, one slice per tile,\n"
    "named by node.\n";

}  // namespace

int trace_command(int argc, char** argv) {
  ArgSpec spec{kModelOptions, kModelFlags};
  spec.options.insert({"output", "scheduler", "input", "random-input"});
  auto args = parse_args(argc, argv, 2, spec);
  if (!args.ok()) return fail("trace", args.status().message());
  if (args->flags.count("help")) return std::fputs(kHelp, stdout), 0;
  auto path = model_path(*args);
  if (!path.ok()) return fail("trace", path.status().message());
  if (!args->has("output")) return fail("trace", "-o trace.json is required");
  auto threads = args->get_int("threads", 2, 1, 256);
  if (!threads.ok()) return fail("trace", threads.status().message());
  RunOptions run_options;
  if (!parse_scheduler(args->get("scheduler", "dynamic"), &run_options.scheduler)) {
    return fail("trace", "--scheduler must be dynamic, barrier or shuffle");
  }
  auto options = compile_options(*args, *threads);
  if (!options.ok()) return fail("trace", options.status().message());
  auto model = Model::load_file(*path, *options);
  if (!model.ok()) return fail("trace", model.status().message());
  auto dims = input_dims(*model.value(), *args);
  if (!dims.ok()) return fail("trace", dims.status().message());
  auto inputs = make_inputs(*model.value(), *dims, *args);
  if (!inputs.ok()) return fail("trace", inputs.status().message());
  Session session(model.value(), Executor::create(*threads));
  // Warm up for about half a second so the trace shows steady state (caches, page tables).
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 3 || std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500); ++i) {
    if (auto warm = session.run(*inputs, run_options); !warm.ok()) return fail("trace", warm.status().message());
  }
  run_options.trace = true;
  if (auto traced = session.run(*inputs, run_options); !traced.ok()) return fail("trace", traced.status().message());
  const std::vector<TileEvent>& events = session.last_trace();
  const std::string output = args->get("output", "");
  std::ofstream file(output);
  file << chrome_trace_json(session.last_info(), events);
  if (!file) return fail("trace", "cannot write \"" + output + "\"");
  int64_t end_ns = 0;
  for (const TileEvent& e : events) end_ns = std::max(end_ns, e.end_ns);
  std::printf("%zu tiles on %d threads in %.3f ms (%s scheduler) -> %s\n", events.size(), *threads, end_ns / 1e6,
              scheduler_name(run_options.scheduler), output.c_str());
  return 0;
}

}  // namespace tessera::cli
