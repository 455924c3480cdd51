// tessera inspect: the compiled model, node by node, and its totals.
#include <cstdio>
#include <fstream>

#include "native/commands.h"
#include "native/common.h"

namespace tessera::cli {

namespace {

constexpr const char* kHelp =
    "usage: tessera inspect MODEL.json [--threads N] [--json FILE] [model options]\n"
    "\n"
    "Compiles MODEL.json for N threads (default 1) and prints each compiled node: op,\n"
    "kernel, output shape and memory layout, fused epilogue, FLOPs, tile grid and count,\n"
    "edges into its tiles; then totals: FLOPs, tiles, data and reuse edges, the critical\n"
    "path (the FLOPs no thread count can overlap), and the arena plan (peak vs the sum of\n"
    "all intermediates). --json writes the same as JSON.\n";

std::string join(const std::vector<int64_t>& v, const char* sep) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : sep) + std::to_string(x);
  return s;
}

}  // namespace

int inspect_command(int argc, char** argv) {
  ArgSpec spec{kModelOptions, kModelFlags};
  spec.options.insert("json");
  auto args = parse_args(argc, argv, 2, spec);
  if (!args.ok()) return fail("inspect", args.status().message());
  if (args->flags.count("help")) return std::fputs(kHelp, stdout), 0;
  auto path = model_path(*args);
  if (!path.ok()) return fail("inspect", path.status().message());
  auto threads = args->get_int("threads", 1, 1, 256);
  if (!threads.ok()) return fail("inspect", threads.status().message());
  auto options = compile_options(*args, *threads);
  if (!options.ok()) return fail("inspect", options.status().message());
  auto model = Model::load_file(*path, *options);
  if (!model.ok()) return fail("inspect", model.status().message());
  auto dims = input_dims(*model.value(), *args);
  if (!dims.ok()) return fail("inspect", dims.status().message());
  auto compiled = model.value()->info(*dims);
  if (!compiled.ok()) return fail("inspect", compiled.status().message());
  const ModelInfo& info = *compiled;

  std::printf("%-32s %-18s %-24s %-18s %-8s %10s %-12s %6s %7s  %s\n", "node", "op", "kernel", "shape", "layout",
              "FLOPs", "grid", "tiles", "edges", "fused");
  for (const NodeInfo& n : info.nodes) {
    std::printf("%-32.32s %-18.18s %-24.24s %-18s %-8.8s %10s %-12s %6u %7llu  %s\n", n.name.c_str(), n.op.c_str(),
                n.kernel.c_str(), join(n.shape, "x").c_str(), n.layout.c_str(), format_count(n.flops).c_str(),
                join(n.grid, "x").c_str(), n.tiles, static_cast<unsigned long long>(n.in_edges), n.fused.c_str());
  }
  std::printf("\n%s: %zu compiled nodes, %s FLOPs, %llu tiles, %llu data edges + %llu reuse edges\n", info.name.c_str(),
              info.nodes.size(), format_count(info.flops).c_str(), static_cast<unsigned long long>(info.tiles),
              static_cast<unsigned long long>(info.data_edges), static_cast<unsigned long long>(info.reuse_edges));
  std::printf("critical path: %u tiles, %s FLOPs (%.1f%% of all work: the bound on speedup is %.1fx)\n",
              info.critical_path_tiles, format_count(info.critical_path_flops).c_str(),
              100.0 * info.critical_path_flops / info.flops, info.flops / info.critical_path_flops);
  std::printf("arena: %s peak, %s without reuse (%.1f%%); weights %s\n", format_bytes(info.arena_bytes).c_str(),
              format_bytes(info.tensor_bytes).c_str(),
              100.0 * static_cast<double>(info.arena_bytes) / info.tensor_bytes,
              format_bytes(info.weight_bytes).c_str());
  std::printf("compiled in %.1f ms with %s kernels for %d thread%s\n", info.compile_ms, info.isa.c_str(), *threads,
              *threads == 1 ? "" : "s");
  if (args->has("json")) std::ofstream(args->get("json", "")) << model_info_json(info) << "\n";
  return 0;
}

}  // namespace tessera::cli
