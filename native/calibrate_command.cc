// tessera calibrate: measures this machine's kernels and runtime into a cost-model profile.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "native/commands.h"
#include "native/common.h"
#include "native/core_round_trip.h"
#include "tessera/calibration.h"

namespace tessera::cli {

namespace {

constexpr const char* kHelp =
    "usage: tessera calibrate [--isa auto|avx512|avx2|scalar] [--quick] [--threads N] [-o FILE]\n"
    "\n"
    "Measures Tessera's own kernels and runtime on this machine: the GEMM micro-kernel's rate\n"
    "over tile shapes, the depthwise, elementwise, unary, row, pool and permute kernels, read\n"
    "and copy bandwidth in each cache level and DRAM (one thread and all N at once), and the\n"
    "executor's per-tile, per-edge and hand-over costs. Writes a versioned JSON profile naming\n"
    "the CPU, ISA, build, cores and date (docs/cost-model.md). Quick mode takes under 10 s,\n"
    "full mode under 2 min.\n"
    "Without -o the profile goes where `tessera predict` finds it for this ISA:\n"
    "$TESSERA_PROFILE_DIR, else $XDG_CACHE_HOME/tessera, else ~/.cache/tessera.\n";

}  // namespace

int calibrate_command(int argc, char** argv) {
  const ArgSpec spec{{"isa", "threads", "output"}, {"quick", "help"}};
  auto args = parse_args(argc, argv, 2, spec);
  if (!args.ok()) return fail("calibrate", args.status().message());
  if (args->flags.count("help")) return std::fputs(kHelp, stdout), 0;
  if (!args->positional.empty()) return fail("calibrate", "takes no model (\"" + args->positional[0] + "\")");
  auto threads = args->get_int("threads", 0, 0, 1024);
  if (!threads.ok()) return fail("calibrate", threads.status().message());
  CalibrateOptions options;
  options.isa = args->get("isa", "auto");
  options.quick = args->flags.count("quick") > 0;
  options.threads = *threads;
  const auto start = std::chrono::steady_clock::now();
  // The cores' state around the cross-core probes (docs/benchmarks.md, "Two states of the cores").
  const std::optional<double> round_trip_before = core_round_trip_ns();
  auto profile = calibrate(options);
  const std::optional<double> round_trip_after = core_round_trip_ns();
  if (!profile.ok()) return fail("calibrate", profile.status().message());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const nlohmann::json p = nlohmann::json::parse(*profile);
  const std::string isa = p["machine"]["isa"];
  std::string output = args->get("output", "");
  if (output.empty()) {
    output = default_profile_path(isa);
    if (output.empty()) return fail("calibrate", "no home directory to keep the profile in: give -o FILE");
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(output).parent_path(), ignored);
  }
  std::ofstream file(output);
  file << *profile << "\n";
  if (!file) return fail("calibrate", "cannot write \"" + output + "\"");

  std::printf("%s, %s %s, %d cores: %s calibration in %.1f s\n", p["machine"]["cpu"].get<std::string>().c_str(),
              isa.c_str(), p["machine"]["build"].get<std::string>().c_str(), p["machine"]["cores"].get<int>(),
              options.quick ? "quick" : "full", seconds);
  const auto& gemm = p["gemm"];
  std::printf("  GEMM %s: %.1f GFLOP/s at %lldx%lldx%lld; depthwise %.1f GFLOP/s + %.3f ns per output\n",
              gemm["kernel"].get<std::string>().c_str(), gemm["gflops"].back().get<double>(),
              static_cast<long long>(gemm["rows"].back().get<int64_t>()),
              static_cast<long long>(gemm["columns"].back().get<int64_t>()),
              static_cast<long long>(gemm["depths"].back().get<int64_t>()), p["depthwise_gflops"].get<double>(),
              p["depthwise_output_ns"].get<double>());
  std::printf("  per element: add %.3f ns, softmax %.3f ns, layernorm %.3f ns, Erf %.3f ns\n",
              p["elementwise_ns"].get<double>(), p["softmax_ns"].get<double>(), p["normalize_ns"].get<double>(),
              p["unary_ns"]["Erf"].get<double>());
  std::printf(
      "  Winograd transforms per tile and channel: F(4x4) input %.2f ns, output %.2f ns; F(2x2) %.2f, %.2f ns\n",
      p["winograd_input_ns"].get<double>(), p["winograd_output_ns"].get<double>(),
      p["winograd_f2_input_ns"].get<double>(), p["winograd_f2_output_ns"].get<double>());
  for (const auto& level : p["memory"]) {
    std::printf("  %-4s %9s: read %6.1f GB/s, copy %6.1f GB/s, all cores read %6.1f GB/s\n",
                level["name"].get<std::string>().c_str(),
                level["bytes"].get<int64_t>() ? format_bytes(level["bytes"].get<int64_t>()).c_str() : "",
                level["read_gbps"].get<double>(), level["copy_gbps"].get<double>(), level["shared_gbps"].get<double>());
  }
  if (p["cross_core_gbps"].get<double>() > 0)
    std::printf("  data another core just wrote: read %.1f GB/s\n", p["cross_core_gbps"].get<double>());
  if (p["shared_overwrite_gbps"].get<double>() > 0)
    std::printf("  writing over data another core just read: %.0f ns more per KiB\n",
                1024 / p["shared_overwrite_gbps"].get<double>());
  const auto& e = p["executor_ns"];
  std::printf(
      "  executor: %.0f ns per tile, %.1f ns per edge, %.0f ns per hand-over; idle threads spin %.0f us,\n"
      "            then a wake-up costs %.1f us; a tile fed by another core pays %.2f us more\n",
      e["task"].get<double>(), e["edge"].get<double>(), e["steal"].get<double>(), e["spin"].get<double>() / 1e3,
      e["wake"].get<double>() / 1e3, e["remote_input"].get<double>() / 1e3);
  const auto& t = p["transfer"];
  if (t["copy_gbps"].get<double>() > 0)
    std::printf("  between workers: %.1f us per hand-over, copies at %.1f GB/s\n", t["message_ns"].get<double>() / 1e3,
                t["copy_gbps"].get<double>());
  if (round_trip_before && round_trip_after) {
    const double before = *round_trip_before, after = *round_trip_after;
    std::printf("  cores answered each other in %.0f ns before, %.0f ns after (round trip of a cache line)\n", before,
                after);
    if (cores_moved(before, after)) {
      std::printf("  the host moved its cores during calibration: the cross-core rates may mix two states\n");
    }
  }
  std::printf("profile -> %s\n", output.c_str());
  return 0;
}

}  // namespace tessera::cli
