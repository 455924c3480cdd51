// The CLI on hand-written malformed models (tests/malformed): a clear message naming the
// problem on stderr and exit code 1, never a signal; and the commands' basic contracts.
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/cli_run.h"

namespace {

using Outcome = tessera::testing::CliOutcome;
using tessera::testing::read_text;

Outcome run_cli(const std::string& arguments) {
  const std::string dir = std::filesystem::temp_directory_path() / "tessera_cli_test";
  std::filesystem::create_directories(dir);
  return tessera::testing::run_cli(TESSERA_CLI, arguments, dir);
}

std::string malformed(const std::string& name) { return std::string(TESSERA_MALFORMED_DIR) + "/" + name; }

}  // namespace

TEST_CASE("malformed models fail with a message naming the problem and exit code 1") {
  const std::pair<const char*, const char*> cases[] = {
      {"bad_json.json", "model JSON is malformed"},
      {"not_an_object.json", "model JSON must be an object"},
      {"wrong_version.json", "format version 7 is not supported"},
      {"unknown_op.json", "nodes[0] (Convolution \"conv\"): unknown op \"Convolution\""},
      {"missing_tensor.json", "input \"weights\" is not a graph input, initializer or node output"},
      {"duplicate_tensor.json", "tensor \"y\" is already defined by nodes[0] (Conv \"conv\")"},
      {"wrong_attribute_type.json", "nodes[0] (Conv \"conv\"): attribute \"strides\" must be a list of integers"},
      {"wrong_attribute_count.json", "attribute \"strides\" must be a list of 2 values, got 3 values"},
      {"unknown_attribute.json", "unknown or unsupported attribute \"stride\""},
      {"shape_mismatch.json", "weights [3, 2, 3, 3] expect 2 input channels, input has 5"},
      {"output_shape_mismatch.json",
       "outputs[0] \"y\": declared float32 [1, 3, 5, 5] but the graph computes float32 [1, 3, 4, 4]"},
      {"cycle.json", "is part of a cycle"},
      {"weights_too_short.json", "initializers[0] \"w\": bytes [0, 216) lie past the end of the 100-byte weights file"},
      {"misaligned_weights.json", "offset 2 is not a multiple of 4"},
      {"wrong_weight_length.json", "length 200 bytes does not match shape (216 bytes expected)"},
      {"non_positive_size.json", "inputs[0] \"x\": shape dimension 0 is not positive"},
      {"overflowing_size.json", "shape holds more than 2147483648 elements"},
      {"missing_weights_file.json", "cannot open"},
      {"no_such_model.json", "cannot open"},
  };
  for (const auto& [file, message] : cases) {
    INFO(file);
    const Outcome o = run_cli("run " + malformed(file) + " --output-dir /tmp/tessera_cli_test/out");
    CHECK(o.exit_code == 1);
    CHECK(o.err.find(message) != std::string::npos);
    CHECK(o.err.find("tessera run: error: ") == 0);
  }
}

TEST_CASE("the valid twin of the malformed models runs") {
  const Outcome o = run_cli("run " + malformed("valid.json") + " --output-dir /tmp/tessera_cli_test/out");
  CHECK(o.exit_code == 0);
  CHECK(o.out.find("y float32 [1x3x4x4]") != std::string::npos);
  CHECK(std::filesystem::file_size("/tmp/tessera_cli_test/out/y.bin") == 4 * 3 * 4 * 4);
}

TEST_CASE("every command answers --help and rejects bad options") {
  for (const char* command : {"run", "bench", "inspect", "trace"}) {
    INFO(command);
    const Outcome help = run_cli(std::string(command) + " --help");
    CHECK(help.exit_code == 0);
    CHECK(help.out.find(std::string("usage: tessera ") + command) != std::string::npos);
    const Outcome bad = run_cli(std::string(command) + " " + malformed("valid.json") + " --bogus");
    CHECK(bad.exit_code == 1);
    CHECK(bad.err.find("unknown option --bogus") != std::string::npos);
  }
  CHECK(run_cli("--help").exit_code == 0);
  CHECK(run_cli("frobnicate").exit_code == 1);
  CHECK(run_cli("run " + malformed("valid.json") + " --threads 0").err.find("--threads must be an integer") !=
        std::string::npos);
  CHECK(run_cli("run " + malformed("valid.json") + " --scheduler fifo").exit_code == 1);
  CHECK(run_cli("run " + malformed("valid.json") + " --input x=/nonexistent.bin").err.find("cannot open") !=
        std::string::npos);
}

TEST_CASE("inspect, trace and bench work on a model") {
  const Outcome inspect = run_cli("inspect " + malformed("valid.json"));
  CHECK(inspect.exit_code == 0);
  CHECK(inspect.out.find("critical path") != std::string::npos);
  CHECK(inspect.out.find("arena") != std::string::npos);
  const Outcome trace = run_cli("trace " + malformed("valid.json") + " -o /tmp/tessera_cli_test/trace.json");
  CHECK(trace.exit_code == 0);
  CHECK(read_text("/tmp/tessera_cli_test/trace.json").find("\"traceEvents\"") != std::string::npos);
  const Outcome bench = run_cli("bench " + malformed("valid.json") +
                                " --runs 3 --warmup 0.01 --no-peak --threads 1,2 "
                                "--scheduler dynamic,barrier");
  CHECK(bench.exit_code == 0);
  CHECK(bench.out.find("outputs bitwise identical across configurations: yes") != std::string::npos);
  // One model per thread count: the peak is theirs together, and says so.
  CHECK(bench.out.find("with 2 compiled models loaded side by side") != std::string::npos);
  const Outcome one = run_cli("bench " + malformed("valid.json") + " --runs 3 --warmup 0.01 --no-peak --threads 2");
  CHECK(one.exit_code == 0);
  CHECK(one.out.find("side by side") == std::string::npos);
}

TEST_CASE("bench's peak memory is its own, not that of the process that started it") {
  // Linux carries getrusage's maximum across exec: a bench started by a large process
  // reported that process's resident set. This one touches 512 MiB before starting it.
  std::vector<char> ballast(size_t{512} << 20);
  for (size_t i = 0; i < ballast.size(); i += 4096) ballast[i] = static_cast<char>(i);
  const std::string report = "/tmp/tessera_cli_test/bench_peak.json";
  const Outcome bench =
      run_cli("bench " + malformed("valid.json") + " --runs 3 --warmup 0.01 --no-peak --threads 1 --json " + report);
  REQUIRE(bench.exit_code == 0);
  const int64_t peak = nlohmann::json::parse(read_text(report))["peak_resident_bytes"].get<int64_t>();
  CHECK(peak > 0);
  CHECK(peak < (int64_t{256} << 20));
  CHECK(ballast[4096] == static_cast<char>(4096));
}

TEST_CASE("bench reports how fast two cores answer each other, where several threads run") {
  const std::string report = "/tmp/tessera_cli_test/bench_cores.json";
  const std::string bench = "bench " + malformed("valid.json") + " --runs 3 --warmup 0.01 --no-peak --json " + report;
  const Outcome one = run_cli(bench + " --threads 1");
  REQUIRE(one.exit_code == 0);
  CHECK(one.out.find("cores answer each other") == std::string::npos);
  CHECK_FALSE(nlohmann::json::parse(read_text(report)).contains("core_round_trip_ns"));
  if (std::thread::hardware_concurrency() < 2) return;  // one core: nothing to measure
  const Outcome two = run_cli(bench + " --threads 1,2");
  REQUIRE(two.exit_code == 0);
  CHECK(two.out.find("cores answer each other in ") != std::string::npos);
  const nlohmann::json doc = nlohmann::json::parse(read_text(report));
  REQUIRE(doc.contains("core_round_trip_ns"));
  // Above what a cache line can do within a core; a time slice at most (the measurement stops
  // after 20 ms, having waited for one trip at least).
  for (const char* when : {"before", "after"}) {
    INFO(when);
    CHECK(doc["core_round_trip_ns"][when].get<double>() > 10);
    CHECK(doc["core_round_trip_ns"][when].get<double>() < 1e9);
  }
}
