// tessera plan, --plan and --planner end to end on the tiny zoo: the explained plan, the saved
// plan file that run loads back, bench comparing planners, and plans refused with the reason.
// Plans are searched on the uncalibrated cost model; only what they report is checked.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/cli_run.h"

namespace {

using json = nlohmann::json;

using Outcome = tessera::testing::CliOutcome;
using tessera::testing::read_text;
using tessera::testing::write_text;

const std::string& work_dir() { return tessera::testing::work_dir("plan_cli_test"); }

std::string in_work_dir(const std::string& name) { return work_dir() + "/" + name; }

// Runs the CLI with no profile to find: a profile this machine has saved must not change the
// plans these tests see.
Outcome run_cli(const std::string& arguments) {
  return tessera::testing::run_cli(TESSERA_CLI, arguments, work_dir(),
                                   "TESSERA_PROFILE_DIR=" + in_work_dir("no-profiles"));
}

std::string zoo_model(const std::string& name) { return std::string(TESSERA_ZOO_DIR) + "/" + name + ".json"; }
std::string tiny_cnn() { return zoo_model("tiny_cnn"); }

json read_json(const std::string& path) {
  const json doc = json::parse(read_text(path), nullptr, /*allow_exceptions=*/false);
  REQUIRE_FALSE(doc.is_discarded());
  return doc;
}

// `tessera plan MODEL --explain -o PLAN --json REPORT` on a tiny zoo model, run once for the
// test cases that need its plan.
struct Planned {
  std::string plan, report;
  Outcome outcome;
};
const Planned& planned(const std::string& model) {
  static std::map<std::string, Planned> done;
  auto it = done.find(model);
  if (it == done.end()) {
    const std::string plan = in_work_dir(model + ".plan.json"), report = in_work_dir(model + ".report.json");
    const Outcome o = run_cli("plan " + zoo_model(model) + " --explain -o " + plan + " --json " + report);
    it = done.emplace(model, Planned{plan, report, o}).first;
  }
  INFO(it->second.outcome.err);
  REQUIRE(it->second.outcome.exit_code == 0);
  return it->second;
}

std::string grid_string(const json& grid) {
  std::string s;
  for (const json& d : grid) {
    if (!s.empty()) s += "x";
    s += std::to_string(d.get<int64_t>());
  }
  return s;
}

// The --explain row of a node: its name, op, grid and default grid, then the times.
std::vector<std::string> explain_row(const std::string& out, const std::string& node) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> row;
    for (std::string w; words >> w;) row.push_back(w);
    if (row.size() == 8 && row[0] == node) return row;
  }
  return {};
}

// Runs MODEL with `options`, writing its outputs to a directory of their own: the bytes of
// every output file, by name.
std::map<std::string, std::string> run_outputs(const std::string& model, const std::string& options,
                                               const std::string& dir_name) {
  const std::string dir = in_work_dir(dir_name);
  const Outcome o = run_cli("run " + model + " --threads 2 " + options + " --output-dir " + dir);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".bin") files[entry.path().filename()] = read_text(entry.path());
  }
  REQUIRE_FALSE(files.empty());
  return files;
}

}  // namespace

TEST_CASE("tessera plan --explain shows every node's grid and saves a plan that run loads back") {
  const Planned& p = planned("tiny_cnn");
  const std::string& out = p.outcome.out;
  CHECK(out.find("tiny_cnn: planner search, 2 threads, dynamic scheduler") != std::string::npos);
  CHECK(out.find("UNCALIBRATED") != std::string::npos);
  CHECK(out.find("simulated latency: default plan ") != std::string::npos);
  CHECK(out.find("arena reuse: ") != std::string::npos);
  CHECK(out.find("plan written to " + p.plan) != std::string::npos);

  const json report = read_json(p.report);
  CHECK(report["planner"] == "search");
  CHECK(report["searched"] == true);
  CHECK(report["calibrated"] == false);
  CHECK(report["threads"] == 2);
  CHECK(report["kept_default"].is_boolean());
  CHECK(report["search_path"].is_string());
  for (const char* count : {"configurations", "nodes_eliminated", "edges_eliminated", "core_nodes"}) {
    INFO(count);
    CHECK(report[count].is_number_unsigned());
  }
  CHECK(report["reuse_memory"].is_boolean());
  for (const char* ms : {"planning_ms", "predicted_ms", "default_predicted_ms", "exposure_ms", "default_exposure_ms",
                         "no_reuse_predicted_ms"}) {
    INFO(ms);
    REQUIRE(report[ms].is_number());
    CHECK(report[ms].get<double>() >= 0);
  }
  CHECK(report["predicted_ms"].get<double>() <= report["default_predicted_ms"].get<double>());
  CHECK(report["predicted_ms"].get<double>() + report["exposure_ms"].get<double>() <=
        report["default_predicted_ms"].get<double>() + report["default_exposure_ms"].get<double>());

  const json file = read_json(p.plan);
  CHECK(file["format"] == "tessera-plan");
  CHECK(file["version"] == 1);
  CHECK(file["model"] == "tiny_cnn");
  CHECK(file["threads"] == 2);
  CHECK(file["reuse_memory"] == report["reuse_memory"]);
  CHECK(file["planner"] == "search");
  CHECK(file["inputs"] == json::parse(R"([{"name": "image", "dims": [2, 3, 17, 19]}])"));

  // The report, the explanation and the file describe the same nodes, tiled alike.
  const json& nodes = report["nodes"];
  REQUIRE_FALSE(nodes.empty());
  REQUIRE(file["nodes"].size() == nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const json& node = nodes[i];
    const std::string name = node["name"];
    INFO(name);
    CHECK(node["predicted_ms"].is_number());
    CHECK(node["default_ms"].is_number());
    const std::vector<std::string> row = explain_row(out, name);
    REQUIRE(row.size() == 8);
    CHECK(row[1] == node["op"].get<std::string>().substr(0, 20));  // the column's width
    CHECK(row[2] == grid_string(node["grid"]));
    CHECK(row[3] == grid_string(node["default_grid"]));
    const std::string algorithm = node["algorithm"];
    CHECK(row[4] == (algorithm.empty() ? "-" : algorithm));
    const json& saved = file["nodes"][i];
    CHECK(saved["name"] == name);
    CHECK(saved["op"] == node["op"]);
    REQUIRE(saved["cuts"].size() == node["grid"].size());
    for (size_t d = 0; d < node["grid"].size(); ++d)
      CHECK(saved["cuts"][d].size() == node["grid"][d].get<size_t>() + 1);
  }

  CHECK(run_outputs(tiny_cnn(), "--plan " + p.plan, "with_plan") == run_outputs(tiny_cnn(), "", "default_plan"));
}

TEST_CASE("tessera bench --planner default,search runs both plans and finds the same bits") {
  const std::string report = in_work_dir("bench.json");
  const Outcome o = run_cli("bench " + tiny_cnn() +
                            " --planner default,search --threads 1 --runs 2 --warmup 0.01 --no-peak --json " + report);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  CHECK(o.out.find("outputs bitwise identical across configurations: yes") != std::string::npos);
  CHECK(o.out.find("search is ") != std::string::npos);
  const json doc = read_json(report);
  CHECK(doc["identical_outputs"] == true);
  const json& configurations = doc["configurations"];
  REQUIRE(configurations.size() == 2);
  std::set<std::string> planners;
  for (const json& c : configurations) {
    INFO(c.dump());
    CHECK(c["threads"] == 1);
    CHECK(c["scheduler"] == "dynamic");
    CHECK(c["plan"] == c["planner"]);  // what tiled it is what was asked for
    planners.insert(c["planner"].get<std::string>());
  }
  CHECK(planners == std::set<std::string>{"default", "search"});
}

TEST_CASE("tessera bench --plan A --plan B runs saved plans side by side, each labelled by its file") {
  const std::string searched = planned("tiny_cnn").plan, plain = in_work_dir("tiny_cnn.default.plan.json");
  const Outcome saved = run_cli("plan " + tiny_cnn() + " --planner default -o " + plain);
  INFO(saved.err);
  REQUIRE(saved.exit_code == 0);
  const std::string report = in_work_dir("bench_plans.json");
  const Outcome o = run_cli("bench " + tiny_cnn() + " --plan " + plain + " --plan " + searched +
                            " --threads 1 --runs 2 --warmup 0.01 --no-peak --json " + report);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  CHECK(o.out.find("1 thread, dynamic scheduler: tiny_cnn.plan.json is ") != std::string::npos);
  CHECK(o.out.find("the speed of tiny_cnn.default.plan.json (median)") != std::string::npos);
  const json doc = read_json(report);
  CHECK(doc["identical_outputs"] == true);
  const json& configurations = doc["configurations"];
  REQUIRE(configurations.size() == 2);
  CHECK(configurations[0]["planner"] == "tiny_cnn.default.plan.json");
  CHECK(configurations[1]["planner"] == "tiny_cnn.plan.json");
  for (const json& c : configurations) CHECK(c["plan"] == "file");  // tiled by the saved plan
}

TEST_CASE("plans and planners the model cannot use are refused with the reason") {
  const json plan = read_json(planned("tiny_cnn").plan);
  json renamed = plan;
  const std::string first = renamed["nodes"][0]["name"];
  renamed["nodes"][0]["name"] = "renamed";
  write_text(in_work_dir("renamed.json"), renamed.dump());
  write_text(in_work_dir("truncated.json"), read_text(planned("tiny_cnn").plan).substr(0, 40));

  const std::pair<std::string, std::string> cases[] = {
      {"run " + tiny_cnn() + " --plan " + in_work_dir("renamed.json"),
       "tessera run: error: plan entry 0 is node \"renamed\""},
      {"run " + tiny_cnn() + " --plan " + planned("tiny_mlp").plan,
       "tessera run: error: the plan was made for model \"tiny_mlp\", not \"tiny_cnn\""},
      {"run " + tiny_cnn() + " --plan " + in_work_dir("truncated.json"),
       "tessera run: error: plan file: not a JSON object"},
      {"run " + tiny_cnn() + " --plan " + in_work_dir("absent.json"),
       "tessera run: error: cannot read the plan \"" + in_work_dir("absent.json") + "\""},
      {"run " + tiny_cnn() + " --planner nope", "tessera run: error: unknown planner \"nope\" (auto, default, search)"},
      {"bench " + tiny_cnn() + " --planner default,nope --runs 1 --no-peak",
       "tessera bench: error: unknown planner \"nope\""},
      {"bench " + tiny_cnn() + " --planner search --plan " + planned("tiny_cnn").plan + " --runs 1 --no-peak",
       "tessera bench: error: --planner and --plan exclude each other"},
      {"plan " + tiny_cnn() + " --scheduler shuffle", "tessera plan: error: --scheduler takes dynamic or barrier"},
  };
  for (const auto& [arguments, message] : cases) {
    INFO(arguments);
    const Outcome o = run_cli(arguments);
    INFO(o.err);
    CHECK(o.exit_code == 1);
    CHECK(o.err.find(message) == 0);
  }
  CHECK(run_cli("run " + tiny_cnn() + " --plan " + in_work_dir("renamed.json")).err.find("\"" + first + "\"") !=
        std::string::npos);
}
