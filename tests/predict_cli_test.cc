// tessera calibrate and tessera predict end to end on a tiny zoo model: the profile written,
// predictions next to measurements as JSON, the uncalibrated label, refused profiles and bad
// options. Only the shape of what they report is checked, never how accurate it is.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "core/base/cpu_features.h"
#include "core/plan/profile.h"
#include "tests/support/cli_run.h"

namespace {

using json = nlohmann::json;

using Outcome = tessera::testing::CliOutcome;
using tessera::testing::read_text;
using tessera::testing::write_text;

const std::string& work_dir() { return tessera::testing::work_dir("predict_cli_test"); }

std::string in_work_dir(const std::string& name) { return work_dir() + "/" + name; }

// Runs the CLI with `arguments`, after `environment` (e.g. "TESSERA_PROFILE_DIR=/x").
Outcome run_cli(const std::string& arguments, const std::string& environment = "") {
  return tessera::testing::run_cli(TESSERA_CLI, arguments, work_dir(), environment);
}

std::string tiny_model() { return std::string(TESSERA_ZOO_DIR) + "/tiny_cnn.json"; }

std::string this_isa() { return std::string(tessera::isa_name(tessera::detected_isa())); }

// A directory nothing was ever calibrated into.
std::string empty_profile_dir() {
  const std::string dir = in_work_dir("no-profiles");
  std::filesystem::create_directories(dir);
  return dir;
}

// A quick calibration of this machine, run once for every test case that needs one: the
// profile's path and what calibrate said.
struct Calibration {
  std::string path;
  Outcome outcome;
};
const Calibration& quick_calibration() {
  static const Calibration c = [] {
    const std::string path = in_work_dir("profile.json");
    return Calibration{path, run_cli("calibrate --quick -o " + path)};
  }();
  return c;
}
const std::string& quick_profile() {
  INFO(quick_calibration().outcome.err);
  REQUIRE(quick_calibration().outcome.exit_code == 0);
  return quick_calibration().path;
}

json read_json(const std::string& path) {
  const json doc = json::parse(read_text(path), nullptr, /*allow_exceptions=*/false);
  REQUIRE_FALSE(doc.is_discarded());
  return doc;
}

}  // namespace

TEST_CASE("tessera calibrate --quick writes a profile of this machine's ISA") {
  const Outcome& o = quick_calibration().outcome;
  const std::string& path = quick_calibration().path;
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  CHECK(o.out.find("profile -> " + path) != std::string::npos);
  CHECK(o.out.find(this_isa()) != std::string::npos);
  // The cores' state the cross-core probes met, where there are two cores to measure.
  if (std::thread::hardware_concurrency() >= 2) CHECK(o.out.find("cores answered each other in ") != std::string::npos);

  const auto profile = tessera::plan::profile_from_json(read_text(path));
  INFO(profile.status().message());
  REQUIRE(profile.ok());
  CHECK(profile->calibrated);
  CHECK(profile->quick);
  CHECK(profile->isa == this_isa());
  CHECK(profile->build == "native");
  CHECK(profile->cores >= 1);
  CHECK_FALSE(profile->date.empty());
  CHECK(tessera::plan::check_profile_matches(*profile, this_isa(), "native").ok());
}

TEST_CASE("tessera predict with a profile: predictions and measurements of every configuration as JSON") {
  const std::string report = in_work_dir("p.json");
  const Outcome o = run_cli("predict " + tiny_model() + " --profile " + quick_profile() +
                            " --threads 1,2 --scheduler dynamic,barrier --measure --runs 3 --json " + report);
  INFO(o.err);
  REQUIRE(o.exit_code == 0);
  CHECK(o.out.find("UNCALIBRATED") == std::string::npos);
  CHECK(o.out.find("measured ms") != std::string::npos);

  const json doc = read_json(report);
  const json& model = doc["model"];
  CHECK(model["name"] == "tiny_cnn");
  CHECK(model["calibrated"] == true);
  REQUIRE(model["profile"].is_string());
  CHECK(model["profile"].get<std::string>().find(this_isa()) != std::string::npos);
  CHECK(model["threads"] == 1);
  CHECK(model["scheduler"] == "dynamic");
  REQUIRE(model["predicted_ms"].is_number());
  REQUIRE(model["measured_ms"].is_number());
  REQUIRE(model["critical_path_ms"].is_number());
  CHECK(model["predicted_ms"].get<double>() > 0);
  CHECK(model["measured_ms"].get<double>() > 0);
  REQUIRE(model["idle_ms"].is_array());
  CHECK(model["idle_ms"].size() == 1);

  const json& nodes = doc["nodes"];
  REQUIRE(nodes.is_array());
  REQUIRE_FALSE(nodes.empty());
  double node_sum = 0;
  for (const json& node : nodes) {
    INFO(node.dump());
    REQUIRE(node["name"].is_string());
    CHECK_FALSE(node["name"].get<std::string>().empty());
    REQUIRE(node["op"].is_string());
    CHECK_FALSE(node["op"].get<std::string>().empty());
    REQUIRE(node["predicted_ms"].is_number());
    REQUIRE(node["measured_ms"].is_number());  // one thread is always measured
    CHECK(node["predicted_ms"].get<double>() >= 0);
    CHECK(node["measured_ms"].get<double>() >= 0);
    node_sum += node["predicted_ms"].get<double>();
  }
  CHECK(node_sum > 0);
  // One thread runs every tile one after another: no less than the nodes' kernel times.
  CHECK(model["predicted_ms"].get<double>() >= node_sum * (1 - 1e-9));

  const json& configurations = doc["configurations"];
  REQUIRE(configurations.is_array());
  REQUIRE(configurations.size() == 4);
  std::set<std::pair<int, std::string>> seen;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  for (const json& c : configurations) {
    INFO(c.dump());
    REQUIRE(c["threads"].is_number_integer());
    REQUIRE(c["scheduler"].is_string());
    const int threads = c["threads"].get<int>();
    seen.insert({threads, c["scheduler"].get<std::string>()});
    REQUIRE(c["predicted_ms"].is_number());
    CHECK(c["predicted_ms"].get<double>() > 0);
    REQUIRE(c["predicted_speedup"].is_number());
    CHECK(c["predicted_speedup"].get<double>() > 0);
    if (threads <= std::max(cores, 1)) {
      REQUIRE(c["measured_ms"].is_number());
      CHECK(c["measured_ms"].get<double>() > 0);
      CHECK(c["measured_speedup"].is_number());
    } else {
      CHECK(c["measured_ms"].is_null());  // past this machine's cores: a projection only
    }
  }
  const std::set<std::pair<int, std::string>> expected = {
      {1, "dynamic"}, {1, "barrier"}, {2, "dynamic"}, {2, "barrier"}};
  CHECK(seen == expected);
}

TEST_CASE("tessera predict finds the profile calibrate saved for this ISA, else says it is uncalibrated") {
  const std::string report = in_work_dir("uncalibrated.json");
  const Outcome guess =
      run_cli("predict " + tiny_model() + " --json " + report, "TESSERA_PROFILE_DIR=" + empty_profile_dir());
  INFO(guess.err);
  REQUIRE(guess.exit_code == 0);
  CHECK(guess.out.find("UNCALIBRATED") != std::string::npos);
  const json doc = read_json(report);
  CHECK(doc["model"]["calibrated"] == false);
  CHECK(doc["model"]["profile"] == "uncalibrated");
  REQUIRE(doc["model"]["predicted_ms"].is_number());
  CHECK(doc["model"]["predicted_ms"].get<double>() > 0);
  CHECK(doc["model"]["measured_ms"].is_null());  // no --measure
  REQUIRE_FALSE(doc["nodes"].empty());
  CHECK(doc["nodes"][0]["measured_ms"].is_null());

  // Where calibrate keeps it without -o: $TESSERA_PROFILE_DIR/profile-<build>-<isa>.json.
  const std::string saved = in_work_dir("saved");
  std::filesystem::create_directories(saved);
  std::filesystem::copy_file(quick_profile(), saved + "/profile-native-" + this_isa() + ".json",
                             std::filesystem::copy_options::overwrite_existing);
  const Outcome found = run_cli("predict " + tiny_model() + " --json " + report, "TESSERA_PROFILE_DIR=" + saved);
  INFO(found.err);
  REQUIRE(found.exit_code == 0);
  CHECK(found.out.find("UNCALIBRATED") == std::string::npos);
  CHECK(read_json(report)["model"]["calibrated"] == true);
}

TEST_CASE("tessera predict refuses a profile of another ISA or build, or a broken one") {
  const json profile = read_json(quick_profile());
  const std::string isa = this_isa();
  const std::string other_isa = isa == "avx2" ? "avx512" : "avx2";

  json other = profile;
  other["machine"]["isa"] = other_isa;
  write_text(in_work_dir("other_isa.json"), other.dump());
  const Outcome wrong_isa = run_cli("predict " + tiny_model() + " --profile " + in_work_dir("other_isa.json"));
  CHECK(wrong_isa.exit_code == 1);
  CHECK(wrong_isa.err.find("tessera predict: error: ") == 0);
  CHECK(wrong_isa.err.find("calibrated for " + other_isa) != std::string::npos);
  CHECK(wrong_isa.err.find("runs " + isa + " kernels") != std::string::npos);
  CHECK(wrong_isa.err.find("tessera calibrate") != std::string::npos);

  other = profile;
  other["machine"]["build"] = "wasm-threads";
  write_text(in_work_dir("other_build.json"), other.dump());
  const Outcome wrong_build = run_cli("predict " + tiny_model() + " --profile " + in_work_dir("other_build.json"));
  CHECK(wrong_build.exit_code == 1);
  CHECK(wrong_build.err.find("wasm-threads") != std::string::npos);
  CHECK(wrong_build.err.find("native") != std::string::npos);

  json broken = profile;
  broken["gemm"].erase("nr");
  write_text(in_work_dir("broken.json"), broken.dump());
  const Outcome missing = run_cli("predict " + tiny_model() + " --profile " + in_work_dir("broken.json"));
  CHECK(missing.exit_code == 1);
  CHECK(missing.err.find("gemm.nr is missing") != std::string::npos);

  write_text(in_work_dir("not_json.json"), "{\"format\": ");
  const Outcome not_json = run_cli("predict " + tiny_model() + " --profile " + in_work_dir("not_json.json"));
  CHECK(not_json.exit_code == 1);
  CHECK(not_json.err.find("not valid JSON") != std::string::npos);

  const Outcome absent = run_cli("predict " + tiny_model() + " --profile " + in_work_dir("absent.json"));
  CHECK(absent.exit_code == 1);
  CHECK(absent.err.find("cannot read the profile") != std::string::npos);
}

TEST_CASE("tessera predict and calibrate answer --help and reject bad options clearly") {
  const Outcome predict_help = run_cli("predict --help");
  CHECK(predict_help.exit_code == 0);
  CHECK(predict_help.out.find("usage: tessera predict") != std::string::npos);
  const Outcome calibrate_help = run_cli("calibrate --help");
  CHECK(calibrate_help.exit_code == 0);
  CHECK(calibrate_help.out.find("usage: tessera calibrate") != std::string::npos);

  const std::string model = tiny_model();
  const std::string env = "TESSERA_PROFILE_DIR=" + empty_profile_dir();
  const std::pair<std::string, const char*> cases[] = {
      {"predict " + model + " --scheduler shuffle", "--scheduler takes dynamic and barrier"},
      {"predict " + model + " --scheduler dynamic,fifo", "--scheduler takes dynamic and barrier"},
      {"predict " + model + " --threads 0", "--threads takes counts from 1 to 4096"},
      {"predict " + model + " --threads 1,x", "--threads takes counts from 1 to 4096"},
      {"predict " + model + " --runs 0", "--runs"},
      {"predict " + model + " --bogus", "unknown option --bogus"},
      {"calibrate --quick --isa sse9 -o " + in_work_dir("never.json"), "unknown isa \"sse9\""},
      {"calibrate " + model, "takes no model"},
  };
  for (const auto& [arguments, message] : cases) {
    INFO(arguments);
    const Outcome o = run_cli(arguments, env);
    CHECK(o.exit_code == 1);
    CHECK(o.err.find(message) != std::string::npos);
    CHECK(o.err.find(": error: ") != std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(in_work_dir("never.json")));
}
