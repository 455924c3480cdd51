// tessera place end to end on the tiny zoo: the report's stages cover every compiled node once
// and in order, its totals add up, memory budgets split the model, and bad budgets, objectives
// and a node too large for any worker are refused with the reason. Uncalibrated predictions:
// only what the report says of itself is checked.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/cli_run.h"
#include "tests/support/op_model.h"

namespace {

using json = nlohmann::json;
using Outcome = tessera::testing::CliOutcome;

const std::string& work_dir() { return tessera::testing::work_dir("place_cli_test"); }
std::string in_work_dir(const std::string& name) { return work_dir() + "/" + name; }

Outcome run_cli(const std::string& arguments) {
  return tessera::testing::run_cli(TESSERA_CLI, arguments, work_dir(),
                                   "TESSERA_PROFILE_DIR=" + in_work_dir("no-profiles"));
}

std::string tiny_cnn() { return std::string(TESSERA_ZOO_DIR) + "/tiny_cnn.json"; }

json read_json(const std::string& path) {
  const json doc = json::parse(tessera::testing::read_text(path), nullptr, /*allow_exceptions=*/false);
  REQUIRE_FALSE(doc.is_discarded());
  return doc;
}

// `tessera place tiny_cnn ARGS --json FILE`, which must succeed; the report.
json place(const std::string& args, std::string* out = nullptr) {
  const std::string report = in_work_dir("report.json");
  const Outcome o = run_cli("place " + tiny_cnn() + " " + args + " --json " + report);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  if (out) *out = o.out;
  return read_json(report);
}

std::vector<std::string> compiled_nodes() {
  const std::string info = in_work_dir("info.json");
  const Outcome o = run_cli("inspect " + tiny_cnn() + " --json " + info);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  const json doc = read_json(info);
  std::vector<std::string> names;
  for (const json& node : doc["nodes"]) names.push_back(node["name"]);
  return names;
}

// Every node once, in order; the totals the stages add up to; memory within the budget.
void check_report(const json& r, int64_t budget) {
  std::vector<std::string> placed;
  double latency = 0, period = 0;
  int previous_worker = -1;
  for (const json& stage : r["stages"]) {
    CHECK(stage["worker"].get<int>() > previous_worker);
    previous_worker = stage["worker"];
    for (const json& node : stage["nodes"]) placed.push_back(node);
    const double seconds = stage["compute_ms"].get<double>() + stage["transfer_ms"].get<double>();
    latency += seconds;
    period = std::max(period, seconds);
    CHECK(stage["memory_bytes"].get<int64_t>() >= stage["weight_bytes"].get<int64_t>());
    if (budget > 0) CHECK(stage["memory_bytes"].get<int64_t>() <= budget);
    CHECK(stage["bytes_in"].get<int64_t>() > 0);
    CHECK(stage["bytes_out"].get<int64_t>() > 0);
  }
  CHECK(placed == compiled_nodes());
  CHECK(r["latency_ms"].get<double>() == Approx(latency));
  CHECK(r["period_ms"].get<double>() == Approx(period));
  CHECK(r["layers"].get<size_t>() == placed.size());
  CHECK(r["ideals"].get<size_t>() > placed.size());
  CHECK(r["coarsening"].get<std::string>().find("not coarsened") == 0);
  const std::string choice = r["choice"];
  CHECK((choice == "single" || choice == "replicas" || choice == "stages"));
}

}  // namespace

TEST_CASE("tessera place splits a model into stages whose report adds up") {
  std::string out;
  const json r = place("--workers 2 --threads 2 --objective throughput --explain", &out);
  CHECK(out.find("tiny_cnn: 2 workers x 1 thread, throughput objective, worker memory unlimited") != std::string::npos);
  CHECK(out.find("UNCALIBRATED") != std::string::npos);
  CHECK(out.find("predicted: latency ") != std::string::npos);
  CHECK(out.find("stage 0 (worker ") != std::string::npos);  // --explain lists each stage's nodes
  CHECK(r["calibrated"] == false);
  CHECK(r["objective"] == "throughput");
  CHECK(r["workers"] == 2);
  CHECK(r["threads_per_worker"] == 1);
  CHECK(r["single_ms"].get<double>() > 0);
  CHECK(r["replicas_period_ms"].get<double>() > 0);
  check_report(r, 0);
}

TEST_CASE("tessera place keeps every stage within --worker-memory") {
  const json whole = place("--workers 1");
  REQUIRE(whole["stages"].size() == 1);
  const int64_t model_bytes = whole["stages"][0]["memory_bytes"];
  // Two thirds of what the whole model needs: it must split, and three workers suffice.
  const int64_t budget = model_bytes * 2 / 3;
  const json split = place("--workers 3 --worker-memory " + std::to_string(budget / 1024) + "KiB");
  CHECK(split["stages"].size() >= 2);
  CHECK(split["worker_memory"] == budget / 1024 * 1024);
  check_report(split, budget / 1024 * 1024);
}

TEST_CASE("tessera place refuses what cannot be placed, saying why") {
  const Outcome tiny = run_cli("place " + tiny_cnn() + " --workers 3 --worker-memory 4KiB");
  CHECK(tiny.exit_code == 1);
  CHECK(tiny.err.find("alone needs") != std::string::npos);
  CHECK(tiny.err.find("more than any worker's 4.0 KiB") != std::string::npos);

  const Outcome one_byte = run_cli("place " + tiny_cnn() + " --workers 2 --worker-memory 1");
  CHECK(one_byte.exit_code == 1);
  CHECK(one_byte.err.find("alone needs") != std::string::npos);

  const Outcome few = run_cli("place " + tiny_cnn() + " --workers 1 --worker-memory 60KiB");
  CHECK(few.exit_code == 1);
  CHECK(few.err.find("no contiguous split over 1 workers fits") != std::string::npos);

  const Outcome size = run_cli("place " + tiny_cnn() + " --worker-memory 3parsecs");
  CHECK(size.exit_code == 1);
  CHECK(size.err.find("--worker-memory takes a size") != std::string::npos);

  const Outcome objective = run_cli("place " + tiny_cnn() + " --objective fastest");
  CHECK(objective.exit_code == 1);
  CHECK(objective.err.find("the objective must be latency or throughput") != std::string::npos);

  const Outcome workers = run_cli("place " + tiny_cnn() + " --workers 0");
  CHECK(workers.exit_code == 1);
  CHECK(workers.err.find("--workers") != std::string::npos);
}

TEST_CASE("tessera run --workers writes one instance's outputs, byte for byte") {
  const json whole = place("--workers 1");
  const int64_t budget = whole["stages"][0]["memory_bytes"].get<int64_t>() * 4 / 5;
  const std::string staged = in_work_dir("staged"), single = in_work_dir("single");
  const Outcome a = run_cli("run " + tiny_cnn() + " --workers 2 --threads 2 --worker-memory " + std::to_string(budget) +
                            " --output-dir " + staged);
  INFO(a.err);
  REQUIRE(a.exit_code == 0);
  CHECK(a.out.find("2 stages over 2 workers") != std::string::npos);
  const Outcome b = run_cli("run " + tiny_cnn() + " --output-dir " + single);
  REQUIRE(b.exit_code == 0);
  const std::string file = "/probs.bin";
  CHECK(tessera::testing::read_text(staged + file) == tessera::testing::read_text(single + file));
}

TEST_CASE("tessera place --measure and bench --workers --stream report measurements next to predictions") {
  const Outcome measured = run_cli("place " + tiny_cnn() + " --workers 2 --threads 2 --measure");
  INFO(measured.err);
  REQUIRE(measured.exit_code == 0);
  CHECK(measured.out.find("measured: latency ") != std::string::npos);

  const std::string report = in_work_dir("stream.json");
  const Outcome bench = run_cli("bench " + tiny_cnn() +
                                " --workers 2 --threads 2 --objective throughput --stream 4 --runs 2 --json " + report);
  INFO(bench.err);
  REQUIRE(bench.exit_code == 0);
  CHECK(bench.out.find("bitwise identical to one instance") != std::string::npos);
  const json r = read_json(report);
  CHECK(r["identical"] == true);
  CHECK(r["stream"] == 4);
  for (const char* key : {"stages_ms", "single_ms", "replicas_ms"}) {
    INFO(key);
    CHECK(r["measured"][key].get<double>() > 0);
  }
  CHECK(r["measured"]["stage_ms"].size() == r["placement"]["stages"].size());

  const Outcome lonely = run_cli("bench " + tiny_cnn() + " --stream 4");
  CHECK(lonely.exit_code == 1);
  CHECK(lonely.err.find("--stream runs a placement: give --workers K") != std::string::npos);
}

TEST_CASE("tessera place --ip adds the integer program, for a stream's period or one input's latency") {
  std::string out;
  const json r = place("--workers 3 --threads 3 --objective throughput --ip 5", &out);
  CHECK(out.find("integer program: ") != std::string::npos);
  CHECK(r["ip_ran"] == true);
  CHECK(r["ip_columns"].get<uint64_t>() > 0);
  CHECK(r["ip_rows"].get<uint64_t>() > 0);
  // Never worse than the dynamic program's period.
  const json dp = place("--workers 3 --threads 3 --objective throughput");
  CHECK(r["period_ms"].get<double>() <= dp["period_ms"].get<double>() * (1 + 1e-9));
  CHECK(r["contiguous"] == (r["period_ms"].get<double>() >= dp["period_ms"].get<double>() * (1 - 1e-9)));

  const json latency = place("--workers 3 --threads 3 --ip 5");
  CHECK(latency["ip_ran"] == true);
  const json dp_latency = place("--workers 3 --threads 3");
  CHECK(latency["latency_ms"].get<double>() <= dp_latency["latency_ms"].get<double>() * (1 + 1e-9));
}

// The interleaved chain needs the integer program: the first worker runs twice per input,
// before and after the second.
TEST_CASE("tessera run and bench --ip run stages that are not contiguous, byte for byte") {
  const tessera::testing::TestModel m = tessera::testing::interleaved_chain_model();
  const std::string model = in_work_dir("chain.json");
  tessera::testing::write_text(model, m.json);
  tessera::testing::write_bytes(in_work_dir("chain.bin"), m.weights);
  const std::string budget = std::to_string(tessera::testing::kInterleavedChainWorkerBytes);
  const std::string workers = " --workers 2 --threads 2 --worker-memory " + budget;

  const Outcome contiguous = run_cli("place " + model + workers);
  CHECK(contiguous.exit_code == 1);
  CHECK(contiguous.err.find("no contiguous split") != std::string::npos);

  const std::string report = in_work_dir("chain_report.json");
  const Outcome placed = run_cli("place " + model + workers + " --ip 10 --json " + report);
  INFO(placed.err);
  REQUIRE(placed.exit_code == 0);
  const json r = read_json(report);
  CHECK(r["contiguous"] == false);
  REQUIRE(r["stages"].size() == 2);
  for (const json& stage : r["stages"])
    CHECK(stage["memory_bytes"].get<int64_t>() <= tessera::testing::kInterleavedChainWorkerBytes);

  const std::string staged = in_work_dir("chain_staged"), single = in_work_dir("chain_single");
  const Outcome a = run_cli("run " + model + workers + " --ip 10 --output-dir " + staged);
  INFO(a.err);
  REQUIRE(a.exit_code == 0);
  const Outcome one = run_cli("run " + model + " --output-dir " + single);
  REQUIRE(one.exit_code == 0);
  const std::string output = json::parse(m.json)["outputs"][0]["name"];
  const std::string file = "/" + output + ".bin";
  CHECK(tessera::testing::read_text(staged + file) == tessera::testing::read_text(single + file));

  const Outcome stream = run_cli("bench " + model + workers + " --ip 10 --objective throughput --stream 6 --runs 2");
  INFO(stream.err);
  REQUIRE(stream.exit_code == 0);
  CHECK(stream.out.find("bitwise identical to one instance") != std::string::npos);
}
