// The machine profile and the cost model against values worked out by hand: profiles through
// JSON and every way reading one fails, the ISA/build check, the GEMM curve's interpolation,
// bandwidth per thread, tile prices, and predictions of hand-built tile graphs on one and two
// threads under both schedulers.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/base/cpu_features.h"
#include "core/kernels/dwconv/dwconv.h"
#include "core/kernels/gemm/gemm.h"
#include "core/plan/cost_model.h"
#include "core/plan/profile.h"

namespace tessera::plan {
namespace {

using json = nlohmann::json;

// GFLOP/s of the hand profile's GEMM grid at rows index r, columns index c, depths index d:
// distinct everywhere, so a wrong index shows.
double grid_rate(size_t r, size_t c, size_t d) { return 10.0 * static_cast<double>(r + 1) + 3.0 * c + d; }

// Every field filled, none at its default.
Profile hand_profile() {
  Profile p;
  p.calibrated = true;
  p.cpu = "Test CPU 9000";
  p.isa = "avx2";
  p.build = "native";
  p.cores = 4;
  p.date = "2025-01-02T03:04:05Z";
  p.quick = true;
  p.gemm.kernel = "f32_gemm_test";
  p.gemm.mr = 8;
  p.gemm.nr = 16;
  p.gemm.rows = {8, 64, 512};
  p.gemm.columns = {16, 128};
  p.gemm.depths = {32, 512};
  for (size_t r = 0; r < 3; ++r) {
    for (size_t c = 0; c < 2; ++c) {
      for (size_t d = 0; d < 2; ++d) p.gemm.gflops.push_back(grid_rate(r, c, d));
    }
  }
  p.depthwise_gflops = 12.5;
  p.depthwise_output_ns = 0.375;
  p.elementwise_ns = 0.25;
  p.unary_ns = {{"Relu", 0.5}, {"Erf", 2.0}};
  p.softmax_ns = 1.5;
  p.normalize_ns = 1.25;
  p.pool_tap_ns = 0.125;
  p.permute_ns = 0.0625;
  p.winograd_input_ns = 2.5;
  p.winograd_output_ns = 3.5;
  p.winograd_f2_input_ns = 0.75;
  p.winograd_f2_output_ns = 0.625;
  p.memory = {{"L1", 32 << 10, 100, 60, 100},
              {"L2", 1 << 20, 50, 40, 50},
              {"L3", 16 << 20, 30, 20, 30},
              {"DRAM", 0, 15, 10, 20}};
  p.executor = {1e-7, 3e-8, 2e-6, 5e-7};
  p.executor.remote_input = 1.5e-6;
  p.transfer = {3e-5, 12.5};
  p.cross_core_gbps = 25;
  p.shared_overwrite_gbps = 8;
  p.in_model["gemm"] = InModel{1.5, 2e-6, 1e-8};
  p.in_model["depthwise"] = InModel{1.25, 0, 0};
  return p;
}

// The hand profile with a flat GEMM curve at `gflops`, no in-model fit and no executor costs.
Profile flat_profile(double gflops) {
  Profile p = hand_profile();
  p.gemm.gflops.assign(p.gemm.gflops.size(), gflops);
  p.in_model.clear();
  p.executor = {};
  return p;
}

json profile_doc() { return json::parse(profile_to_json(hand_profile())); }

// The message of reading `text` (or `doc`), which must fail.
std::string rejection(const std::string& text) {
  const Result<Profile> r = profile_from_json(text);
  REQUIRE_FALSE(r.ok());
  return r.status().message();
}
std::string rejection_of(const json& doc) { return rejection(doc.dump()); }

// One task of a hand-built graph: its node (nodes contiguous, in order), its work, its
// output elements and the tasks (by index) it feeds.
struct TaskSpec {
  uint32_t node = 0;
  ops::OpCost cost;
  int64_t elements = 1;
  std::vector<uint32_t> children = {};
};

// A tile graph of these tasks; node n reaches reach_bytes[n] of activations (default 8: they
// fit in L1) and reads weight_bytes[n] of constants (default none).
tiles::TileGraph hand_graph(const std::vector<TaskSpec>& specs, const std::vector<int64_t>& reach_bytes = {},
                            const std::vector<int64_t>& weight_bytes = {}) {
  tiles::TileGraph g;
  for (uint32_t t = 0; t < specs.size(); ++t) {
    const TaskSpec& s = specs[t];
    if (g.nodes.empty() || s.node != g.nodes.size() - 1) {
      REQUIRE(s.node == g.nodes.size());
      tiles::CompiledNode node;
      node.name = "node" + std::to_string(s.node);
      node.op = "Test";
      node.reach_bytes = s.node < reach_bytes.size() ? reach_bytes[s.node] : 8;
      node.weight_bytes = s.node < weight_bytes.size() ? weight_bytes[s.node] : 0;
      node.first_task = t;
      g.nodes.push_back(std::move(node));
    }
    tiles::CompiledNode& node = g.nodes.back();
    ++node.task_count;
    node.flops += s.cost.flops;
    tiles::Task task;
    task.node = s.node;
    task.region.rank = 1;
    task.region.end[0] = s.elements;
    task.cost = s.cost;
    task.children_begin = static_cast<uint32_t>(g.children.size());
    g.children.insert(g.children.end(), s.children.begin(), s.children.end());
    task.children_end = static_cast<uint32_t>(g.children.size());
    g.tasks.push_back(task);
  }
  for (uint32_t child : g.children) ++g.tasks[child].parents;
  for (int64_t w : weight_bytes) g.weight_bytes += w;
  g.data_edges = g.children.size();
  return g;
}

// `batches` GEMMs of rows x columns x depth (taps kernel taps), then `unary` per output element.
ops::OpCost gemm_cost(int64_t rows, int64_t columns, int64_t depth, double batches = 1, int64_t taps = 1,
                      kernels::UnaryOp unary = kernels::UnaryOp::kCopy) {
  ops::OpCost c;
  c.kind = ops::WorkKind::kGemm;
  c.gemm = {rows, columns, depth, taps};
  c.flops = 2.0 * static_cast<double>(rows * columns * depth) * batches;
  c.unary = unary;
  return c;
}

ops::OpCost elementwise_cost(double bytes) {
  ops::OpCost c;
  c.kind = ops::WorkKind::kElementwise;
  c.bytes = bytes;
  return c;
}

// ---------------------------------------------------------------------------------------------
// Profiles

TEST_CASE("a profile goes through JSON and back unchanged") {
  const Profile given = hand_profile();
  const std::string text = profile_to_json(given);
  const Result<Profile> read = profile_from_json(text);
  REQUIRE(read.ok());
  CHECK(profile_to_json(*read) == text);

  const Profile& p = *read;
  CHECK(p.version == kProfileVersion);
  CHECK(p.calibrated);
  CHECK(p.cpu == "Test CPU 9000");
  CHECK(p.isa == "avx2");
  CHECK(p.build == "native");
  CHECK(p.cores == 4);
  CHECK(p.date == "2025-01-02T03:04:05Z");
  CHECK(p.quick);
  CHECK(p.gemm.kernel == "f32_gemm_test");
  CHECK(p.gemm.mr == 8);
  CHECK(p.gemm.nr == 16);
  CHECK(p.gemm.rows == given.gemm.rows);
  CHECK(p.gemm.columns == given.gemm.columns);
  CHECK(p.gemm.depths == given.gemm.depths);
  CHECK(p.gemm.gflops == given.gemm.gflops);
  CHECK(p.gemm.short_blocks);
  CHECK(p.depthwise_gflops == 12.5);
  CHECK(p.depthwise_output_ns == 0.375);
  CHECK(p.unary_ns == given.unary_ns);
  CHECK(p.permute_ns == 0.0625);
  CHECK(p.winograd_input_ns == 2.5);
  CHECK(p.winograd_output_ns == 3.5);
  CHECK(p.winograd_f2_input_ns == 0.75);
  CHECK(p.winograd_f2_output_ns == 0.625);
  REQUIRE(p.memory.size() == 4);
  CHECK(p.memory[2].name == "L3");
  CHECK(p.memory[2].bytes == 16 << 20);
  CHECK(p.memory[3].bytes == 0);
  CHECK(p.memory[3].shared_gbps == 20);
  CHECK(p.memory[1].copy_gbps == 40);
  // Executor costs and fits are kept in seconds, written in nanoseconds.
  CHECK(p.executor.task == Approx(1e-7));
  CHECK(p.executor.edge == Approx(3e-8));
  CHECK(p.executor.steal == Approx(2e-6));
  CHECK(p.executor.wake == Approx(5e-7));
  CHECK(p.executor.remote_input == Approx(1.5e-6));
  CHECK(p.transfer.message == Approx(3e-5));
  CHECK(p.transfer.copy_gbps == 12.5);
  CHECK(p.cross_core_gbps == 25);
  CHECK(p.shared_overwrite_gbps == 8);
  REQUIRE(p.in_model.size() == 2);
  CHECK(p.in_model.at("gemm").scale == 1.5);
  CHECK(p.in_model.at("gemm").tile == Approx(2e-6));
  CHECK(p.in_model.at("gemm").tap == Approx(1e-8));
  CHECK(p.in_model.at("depthwise").scale == 1.25);
}

TEST_CASE(
    "a profile made before transfers, cross-core reads and overwrites, remote inputs, the depthwise cost per output, "
    "the short GEMM blocks and the Winograd transforms (either tile's) were measured still reads, with none") {
  json doc = profile_doc();
  doc.erase("winograd_input_ns");
  doc.erase("winograd_output_ns");
  doc.erase("winograd_f2_input_ns");
  doc.erase("winograd_f2_output_ns");
  doc.erase("transfer");
  doc.erase("depthwise_output_ns");
  doc.erase("cross_core_gbps");
  doc.erase("shared_overwrite_gbps");
  doc["executor_ns"].erase("remote_input");
  doc["gemm"].erase("short_blocks");
  const Result<Profile> read = profile_from_json(doc.dump());
  REQUIRE(read.ok());
  CHECK_FALSE(read->gemm.short_blocks);  // its rows were rounded up to the kernel's
  CHECK(read->transfer.message == 0);
  CHECK(read->transfer.copy_gbps == 0);
  CHECK(read->cross_core_gbps == 0);
  CHECK(read->shared_overwrite_gbps == 0);
  CHECK(read->executor.remote_input == 0);
  CHECK(read->depthwise_output_ns == 0);
  // The transforms as the elementwise passes those profiles priced them with: 36 points.
  CHECK(read->winograd_input_ns == Approx(36 * 0.25));
  CHECK(read->winograd_output_ns == Approx(36 * 0.25));
  // F(2x2)'s, F(4x4)'s per point: 16 of its 36.
  CHECK(read->winograd_f2_input_ns == Approx(16 * 0.25));
  CHECK(read->winograd_f2_output_ns == Approx(16 * 0.25));
  json f4_only = profile_doc();  // measured F(4x4) transforms, made before F(2x2) ran
  f4_only.erase("winograd_f2_input_ns");
  f4_only.erase("winograd_f2_output_ns");
  const Result<Profile> f4 = profile_from_json(f4_only.dump());
  REQUIRE(f4.ok());
  CHECK(f4->winograd_f2_input_ns == Approx(2.5 * 16 / 36));
  CHECK(f4->winograd_f2_output_ns == Approx(3.5 * 16 / 36));
  doc["transfer"] = {{"message_ns", -1}, {"copy_gbps", 1}};
  const Result<Profile> bad = profile_from_json(doc.dump());
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Catch::Contains("transfer.message_ns"));
}

TEST_CASE("the uncalibrated profile goes through JSON and back, still uncalibrated") {
  const Profile guess = uncalibrated_profile("wasm-simd128", "wasm-threads");
  CHECK_FALSE(guess.calibrated);
  const std::string text = profile_to_json(guess);
  const Result<Profile> read = profile_from_json(text);
  REQUIRE(read.ok());
  CHECK(profile_to_json(*read) == text);
  CHECK_FALSE(read->calibrated);
  CHECK(read->isa == "wasm-simd128");
  CHECK(read->build == "wasm-threads");
  CHECK(read->gemm.gflops == guess.gemm.gflops);
  CHECK(read->memory.size() == guess.memory.size());
}

TEST_CASE("reading a profile refuses what is not one, naming the field at fault") {
  CHECK(rejection("{\"format\": \"tessera-profile\", ").find("not valid JSON") != std::string::npos);
  CHECK(rejection("[1, 2]").find("not a Tessera profile") != std::string::npos);

  json doc = profile_doc();
  doc["format"] = "onnx-model";
  CHECK(rejection_of(doc).find("not a Tessera profile") != std::string::npos);

  doc = profile_doc();
  doc["version"] = kProfileVersion + 1;
  const std::string version = rejection_of(doc);
  CHECK(version.find("version " + std::to_string(kProfileVersion + 1)) != std::string::npos);
  CHECK(version.find("calibrate again") != std::string::npos);

  // Missing fields, at each depth of the document.
  const std::pair<json::json_pointer, const char*> missing[] = {
      {json::json_pointer("/gemm/nr"), "gemm.nr is missing"},
      {json::json_pointer("/memory/1/read_gbps"), "memory[1].read_gbps is missing"},
      {json::json_pointer("/machine/isa"), "machine.isa is missing"},
      {json::json_pointer("/executor_ns/steal"), "executor_ns.steal is missing"},
      {json::json_pointer("/in_model/gemm/scale"), "in_model.gemm.scale is missing"},
      {json::json_pointer("/softmax_ns"), "softmax_ns is missing"},
      {json::json_pointer("/gemm"), "gemm is missing"},
  };
  for (const auto& [pointer, message] : missing) {
    INFO(pointer.to_string());
    doc = profile_doc();
    doc[pointer.parent_pointer()].erase(pointer.back());
    CHECK(rejection_of(doc).find(message) != std::string::npos);
  }

  // Rates: negative, zero, or not numbers at all.
  struct BadRate {
    const char* pointer;
    json value;
    const char* field;
  };
  const BadRate bad_rates[] = {
      {"/memory/0/copy_gbps", -5, "memory[0].copy_gbps must be a positive number"},
      {"/memory/2/shared_gbps", 0, "memory[2].shared_gbps must be a positive number"},
      {"/depthwise_gflops", "fast", "depthwise_gflops must be a positive number"},
      {"/unary_ns/Relu", nullptr, "unary_ns.Relu must be a positive number"},
      {"/executor_ns/task", -1, "executor_ns.task must be a number >= 0"},
      {"/in_model/gemm/tile_ns", "1", "in_model.gemm.tile_ns must be a number >= 0"},
      {"/gemm/gflops/3", -20, "gemm.gflops must hold positive numbers"},
  };
  for (const BadRate& bad : bad_rates) {
    INFO(bad.pointer << " = " << bad.value.dump());
    doc = profile_doc();
    doc[json::json_pointer(bad.pointer)] = bad.value;
    CHECK(rejection_of(doc).find(bad.field) != std::string::npos);
  }

  // The GEMM grid: as many rates as grid points, points ascending, axes non-empty.
  doc = profile_doc();
  doc["gemm"]["gflops"].erase(doc["gemm"]["gflops"].size() - 1);
  CHECK(rejection_of(doc).find("gemm.gflops must hold rows x columns x depths = 12 values, has 11") !=
        std::string::npos);
  doc = profile_doc();
  doc["gemm"]["gflops"].push_back(7.0);
  CHECK(rejection_of(doc).find("12 values, has 13") != std::string::npos);
  doc = profile_doc();
  doc["gemm"]["rows"] = {64, 8, 512};
  CHECK(rejection_of(doc).find("gemm grid points must ascend") != std::string::npos);
  doc = profile_doc();
  doc["gemm"]["depths"] = {32, 32};
  CHECK(rejection_of(doc).find("gemm grid points must ascend") != std::string::npos);
  doc = profile_doc();
  doc["gemm"]["columns"] = json::array();
  CHECK(rejection_of(doc).find("gemm.columns must be a non-empty array") != std::string::npos);

  doc = profile_doc();
  doc["machine"]["cores"] = 0;
  CHECK(rejection_of(doc).find("machine.cores") != std::string::npos);
  doc = profile_doc();
  doc["memory"] = json::array();
  CHECK(rejection_of(doc).find("memory must be a non-empty array") != std::string::npos);

  // The untouched document reads: every failure above came from the one change.
  CHECK(profile_from_json(profile_doc().dump()).ok());
}

TEST_CASE("a profile for another ISA or build is refused, saying how to calibrate") {
  const Profile p = hand_profile();  // avx2, native
  CHECK(check_profile_matches(p, "avx2", "native").ok());

  const Status isa = check_profile_matches(p, "avx512", "native");
  REQUIRE_FALSE(isa.ok());
  CHECK(isa.message().find("avx2") != std::string::npos);
  CHECK(isa.message().find("avx512") != std::string::npos);
  CHECK(isa.message().find("tessera calibrate --isa avx512") != std::string::npos);

  const Status build = check_profile_matches(p, "avx2", "wasm-threads");
  REQUIRE_FALSE(build.ok());
  CHECK(build.message().find("native") != std::string::npos);
  CHECK(build.message().find("wasm-threads") != std::string::npos);
  CHECK(build.message().find("calibrate") != std::string::npos);

  const Profile guess = uncalibrated_profile("scalar", "wasm-single");
  CHECK(check_profile_matches(guess, "scalar", "wasm-single").ok());
  CHECK_FALSE(check_profile_matches(guess, "scalar", "native").ok());
}

// ---------------------------------------------------------------------------------------------
// Rates

TEST_CASE("the GEMM curve: exact at grid points, log-space interpolation between, held at the edges") {
  const GemmCurve& curve = hand_profile().gemm;
  for (size_t r = 0; r < 3; ++r) {
    for (size_t c = 0; c < 2; ++c) {
      for (size_t d = 0; d < 2; ++d) {
        INFO(r << " " << c << " " << d);
        CHECK(gemm_gflops(curve, static_cast<double>(curve.rows[r]), static_cast<double>(curve.columns[c]),
                          static_cast<double>(curve.depths[d])) == Approx(grid_rate(r, c, d)));
      }
    }
  }
  // Halfway in log space (the geometric mean) is halfway between the neighbours' rates; 16
  // rows lie a third of the way from 8 to 64 in log space (a seventh in linear space).
  CHECK(gemm_gflops(curve, std::sqrt(8.0 * 64), 16, 32) == Approx((grid_rate(0, 0, 0) + grid_rate(1, 0, 0)) / 2));
  CHECK(gemm_gflops(curve, std::sqrt(64.0 * 512), 128, 512) == Approx((grid_rate(1, 1, 1) + grid_rate(2, 1, 1)) / 2));
  CHECK(gemm_gflops(curve, 16, 16, 32) == Approx(grid_rate(0, 0, 0) + (grid_rate(1, 0, 0) - grid_rate(0, 0, 0)) / 3));
  CHECK(gemm_gflops(curve, 8, 16, 128) == Approx((grid_rate(0, 0, 0) + grid_rate(0, 0, 1)) / 2));
  // At the middle of a whole cell: the mean of its eight corners.
  double corners = 0;
  for (size_t r = 0; r < 2; ++r) {
    for (size_t c = 0; c < 2; ++c) {
      for (size_t d = 0; d < 2; ++d) corners += grid_rate(r, c, d);
    }
  }
  CHECK(gemm_gflops(curve, std::sqrt(8.0 * 64), std::sqrt(16.0 * 128), std::sqrt(32.0 * 512)) == Approx(corners / 8));
  // Past the grid the nearest edge holds, on each axis alone and on all at once.
  CHECK(gemm_gflops(curve, 1, 16, 32) == Approx(grid_rate(0, 0, 0)));
  CHECK(gemm_gflops(curve, 4096, 16, 32) == Approx(grid_rate(2, 0, 0)));
  CHECK(gemm_gflops(curve, 64, 1, 512) == Approx(grid_rate(1, 0, 1)));
  CHECK(gemm_gflops(curve, 64, 128, 1e6) == Approx(grid_rate(1, 1, 1)));
  CHECK(gemm_gflops(curve, 1, 1, 1) == Approx(grid_rate(0, 0, 0)));
  CHECK(gemm_gflops(curve, 1e6, 1e6, 1e6) == Approx(grid_rate(2, 1, 1)));
  CHECK(gemm_gflops(curve, 1e6, std::sqrt(16.0 * 128), 1) == Approx((grid_rate(2, 0, 0) + grid_rate(2, 1, 0)) / 2));
}

TEST_CASE("bandwidth per thread: private levels keep the single rate, DRAM is divided, L3 grows past the cores") {
  Profile p = hand_profile();
  p.cores = 2;
  const MemoryLevel& l1 = p.memory[0];
  const MemoryLevel& l2 = p.memory[1];
  const MemoryLevel& l3 = p.memory[2];
  const MemoryLevel& dram = p.memory[3];
  for (int threads : {1, 2, 4, 64}) {
    INFO(threads << " threads");
    CHECK(thread_bandwidth(p, l1, threads) == Approx(60e9));
    CHECK(thread_bandwidth(p, l2, threads) == Approx(40e9));
    CHECK(thread_bandwidth(p, l1, threads, Traffic::kRead) == Approx(100e9));
    CHECK(thread_bandwidth(p, l2, threads, Traffic::kRead) == Approx(50e9));
  }
  // DRAM: all cores read 20 GB/s, copies 20 x 10/15; one thread copies 10 GB/s.
  const double dram_copy = 20e9 * 10 / 15;
  CHECK(thread_bandwidth(p, dram, 1) == Approx(10e9));
  CHECK(thread_bandwidth(p, dram, 2) == Approx(dram_copy / 2));
  CHECK(thread_bandwidth(p, dram, 4) == Approx(dram_copy / 4));  // past the cores: no more in all
  CHECK(thread_bandwidth(p, dram, 8) == Approx(dram_copy / 8));
  CHECK(thread_bandwidth(p, dram, 2, Traffic::kRead) == Approx(10e9));
  CHECK(thread_bandwidth(p, dram, 8, Traffic::kRead) == Approx(2.5e9));
  // Never above what one thread gets, however much all cores reached.
  MemoryLevel wide = dram;
  wide.shared_gbps = 60;
  CHECK(thread_bandwidth(p, wide, 2) == Approx(10e9));
  CHECK(thread_bandwidth(p, wide, 2, Traffic::kRead) == Approx(15e9));
  CHECK(thread_bandwidth(p, wide, 8) == Approx(60e9 * 10 / 15 / 8));
  // L3: all cores (2) copy 30 x 20/30 = 20 GB/s; past the cores every thread brings its slice,
  // so each keeps what it had at 2.
  CHECK(thread_bandwidth(p, l3, 1) == Approx(20e9));
  CHECK(thread_bandwidth(p, l3, 2) == Approx(10e9));
  CHECK(thread_bandwidth(p, l3, 4) == Approx(10e9));
  CHECK(thread_bandwidth(p, l3, 16) == Approx(10e9));
  CHECK(16 * thread_bandwidth(p, l3, 16) > 2 * thread_bandwidth(p, l3, 2));
}

TEST_CASE("data come from the first level whose half holds them") {
  const Profile p = hand_profile();
  CHECK(source_level(p, 8).name == "L1");
  CHECK(source_level(p, 16 << 10).name == "L1");
  CHECK(source_level(p, (16 << 10) + 1).name == "L2");
  CHECK(source_level(p, 2 << 20).name == "L3");
  CHECK(source_level(p, 8 << 20).name == "L3");
  CHECK(source_level(p, (8 << 20) + 1).name == "DRAM");
  CHECK(source_level(p, 1e12).name == "DRAM");
}

// ---------------------------------------------------------------------------------------------
// Tile prices

TEST_CASE("GEMM tiles cost their padded FLOPs at the curve's rate") {
  Profile p = flat_profile(50);  // mr 8, nr 16
  const tiles::TileGraph g = hand_graph({
      {0, gemm_cost(10, 20, 64)},                                      // 8 + 4 (half-height) x 32
      {0, gemm_cost(8, 16, 64)},                                       // whole blocks
      {1, gemm_cost(10, 20, 64, 3)},                                   // a batch of three
      {1, gemm_cost(10, 20, 64, 1, 1, kernels::UnaryOp::kRelu), 200},  // + Relu on 200 outputs
  });
  const double padded = 2.0 * 12 * 32 * 64;
  const std::vector<double> expected = {padded / 50e9, 2.0 * 8 * 16 * 64 / 50e9, 3 * padded / 50e9,
                                        padded / 50e9 + 200 * 0.5e-9};
  const std::vector<double> seconds = predict_task_seconds(g, p, 1);
  REQUIRE(seconds.size() == 4);
  for (size_t t = 0; t < 4; ++t) {
    INFO("task " << t);
    CHECK(seconds[t] == Approx(expected[t]));
  }
  const Prediction one = predict(g, p, 1, SimScheduler::kDynamic);
  REQUIRE(one.node_seconds.size() == 2);
  CHECK(one.node_seconds[0] == Approx(expected[0] + expected[1]));
  CHECK(one.node_seconds[1] == Approx(expected[2] + expected[3]));

  // On the hand profile's curve the rate is read at the tile's own (unpadded) shape.
  const Profile curved = hand_profile();
  const std::vector<double> on_curve = predict_task_seconds(g, curved, 1, /*in_model=*/false);
  CHECK(on_curve[0] == Approx(padded / (gemm_gflops(curved.gemm, 10, 20, 64) * 1e9)));

  // A fused scale and shift: a binary pass over the outputs each.
  ops::OpCost affine = gemm_cost(10, 20, 64, 1, 1, kernels::UnaryOp::kRelu);
  affine.affine_passes = 2;
  const tiles::TileGraph scaled = hand_graph({{0, affine, 200}});
  CHECK(predict_task_seconds(scaled, p, 1)[0] == Approx(expected[3] + 2 * 200 * 0.25e-9));

  // One row runs the one-row instance; 5 rows the whole kernel (more than half of 8).
  const auto rows = [&](int64_t m) { return predict_task_seconds(hand_graph({{0, gemm_cost(m, 16, 64)}}), p, 1)[0]; };
  CHECK(rows(1) == Approx(2.0 * 16 * 64 / 50e9));
  CHECK(rows(5) == Approx(2.0 * 8 * 16 * 64 / 50e9));
  // A profile measured before the short-block instances rounds every block up to 8 rows.
  p.gemm.short_blocks = false;
  CHECK(rows(1) == Approx(2.0 * 8 * 16 * 64 / 50e9));
  CHECK(predict_task_seconds(g, p, 1)[0] == Approx(2.0 * 16 * 32 * 64 / 50e9));
}

TEST_CASE("GEMM tiles are padded to the block of the kernel the op binds: narrower panels, fewer rows") {
  // A profile of this build's best AVX-512 kernel: layers of 16 columns run a 16-wide panel,
  // and rows 4 KiB apart a kernel of at most 8 rows (kernels::gemm_kernel_for).
  if (!isa_supported(Isa::kAvx512)) return;
  const kernels::GemmKernel& best = kernels::best_gemm_kernel(Isa::kAvx512);
  Profile p = flat_profile(50);
  p.isa = "avx512";
  p.gemm.kernel = best.name;
  p.gemm.mr = best.mr;
  p.gemm.nr = best.nr;
  const auto seconds = [&](int64_t panel_columns, int64_t row_bytes) {
    ops::OpCost c = gemm_cost(50, 16, 64);
    c.gemm.panel_columns = panel_columns;
    c.gemm.row_bytes = row_bytes;
    return predict_task_seconds(hand_graph({{0, c}}), p, 1)[0];
  };
  const auto padded = [](const kernels::GemmKernel& k) {
    const auto rows = static_cast<double>(kernels::gemm_rows_computed(50, static_cast<size_t>(k.mr)));
    return 2.0 * rows * std::ceil(16.0 / k.nr) * k.nr * 64 / 50e9;
  };
  const kernels::GemmKernel& narrow = kernels::gemm_kernel_for(Isa::kAvx512, 16, 4160);
  const kernels::GemmKernel& aliased = kernels::gemm_kernel_for(Isa::kAvx512, 16, 4096);
  REQUIRE(narrow.nr < best.nr);
  REQUIRE(aliased.mr < narrow.mr);
  CHECK(seconds(16, 4160) == Approx(padded(narrow)));
  CHECK(seconds(16, 4096) == Approx(padded(aliased)));
  CHECK(seconds(16, 4096) < seconds(16, 4160));  // 50 rows as 7 x 7 + 1, not 3 x 14 + 14
  CHECK(seconds(16, 4160) < seconds(0, 0));      // the widest kernel pads 16 columns to 32
  CHECK(seconds(0, 0) == Approx(padded(best)));
  // A profile of another build's kernel keeps its own block.
  p.gemm.kernel = "f32_gemm_test";
  CHECK(seconds(16, 4096) == Approx(seconds(0, 0)));
}

TEST_CASE(
    "depthwise tiles pay the taps inside the image and a cost per output, channels padded to the kernel's vectors") {
  Profile p = flat_profile(50);
  const auto depthwise = [](int64_t channels) {
    ops::OpCost c;
    c.kind = ops::WorkKind::kDepthwise;
    c.flops = 2.0 * 100 * channels * 25;  // a 5x5 window: what the FLOPs count
    c.depthwise = {channels, 100 * 9};    // 100 pixels, 9 taps inside the image each
    return c;
  };
  const auto seconds = [&](int64_t channels) {
    return predict_task_seconds(hand_graph({{0, depthwise(channels), 100 * channels}}), p, 1, false)[0];
  };
  const auto unpadded = [&](int64_t channels) {
    return 2.0 * 100 * channels * 9 / 12.5e9 + 100.0 * channels * 0.375e-9;
  };
  // The hand profile names another build's kernel: no padding.
  CHECK(seconds(8) == Approx(unpadded(8)));
  // A profile of this build's kernels: the detected ISA's (AVX-512 16 lanes, AVX2 8).
  const Isa isa = detected_isa();
  const int64_t lanes = static_cast<int64_t>(kernels::best_dwconv_kernel(isa).lanes);
  if (lanes == 1) return;
  p.isa = std::string(isa_name(isa));
  p.gemm.kernel = kernels::best_gemm_kernel(isa).name;
  CHECK(seconds(lanes) == Approx(unpadded(lanes)));
  CHECK(seconds(lanes / 2) == Approx(unpadded(lanes)));  // half a vector costs a whole one
  CHECK(seconds(lanes + 1) == Approx(unpadded(2 * lanes)));
}

TEST_CASE("the in-model fit scales, offsets and charges taps per kind of work") {
  Profile p = flat_profile(50);
  p.in_model["gemm"] = InModel{2, 1e-6, 1e-8};
  ops::OpCost depthwise;
  depthwise.kind = ops::WorkKind::kDepthwise;
  depthwise.flops = 1e5;
  const tiles::TileGraph g = hand_graph({
      {0, gemm_cost(10, 20, 64, 1, 9)},  // a 3x3 convolution: 2 x 2 micro-kernel blocks x 9 taps
      {1, depthwise},                    // no fit for depthwise: the rates alone
  });
  CHECK(gemm_tap_blocks(KernelBlocks(p), g.tasks[0].cost) == 36);
  CHECK(gemm_tap_blocks(KernelBlocks(p), g.tasks[1].cost) == 0);
  const double gemm = 2.0 * 12 * 32 * 64 / 50e9;  // 10 rows as 8 + 4
  const double dw = 1e5 / 12.5e9 + 0.375e-9;      // its FLOPs and its one output
  const std::vector<double> fitted = predict_task_seconds(g, p, 1);
  CHECK(fitted[0] == Approx(2 * gemm + 1e-6 + 36 * 1e-8));
  CHECK(fitted[1] == Approx(dw));
  const std::vector<double> rates = predict_task_seconds(g, p, 1, /*in_model=*/false);
  CHECK(rates[0] == Approx(gemm));
  CHECK(rates[1] == Approx(dw));
}

TEST_CASE("Winograd's point GEMMs have a fit of their own, and take the direct GEMMs' where a profile has none") {
  Profile p = flat_profile(50);
  p.in_model["gemm"] = InModel{2, 1e-6, 0};
  ops::OpCost points = gemm_cost(8, 32, 64, 36);
  points.gemm.count = 36;
  points.gemm.interleaved = true;
  points.transforms = {8 * 64, 8 * 32};
  CHECK(std::string(fit_class_name(points)) == "winograd");
  CHECK(std::string(fit_class_name(gemm_cost(8, 32, 64))) == "gemm");
  const tiles::TileGraph g = hand_graph({{0, points}, {1, gemm_cost(8, 32, 64)}});
  const std::vector<double> rates = predict_task_seconds(g, p, 1, /*in_model=*/false);
  const std::vector<double> as_gemm = predict_task_seconds(g, p, 1);
  CHECK(as_gemm[0] == Approx(2 * rates[0] + 1e-6));
  p.in_model["winograd"] = InModel{3, 2e-6, 0};
  const std::vector<double> own = predict_task_seconds(g, p, 1);
  CHECK(own[0] == Approx(3 * rates[0] + 2e-6));
  CHECK(own[1] == Approx(as_gemm[1]));  // the direct GEMM keeps its fit
  ops::OpCost f2 = points;              // F(2x2)'s points share the class
  f2.gemm.count = 16;
  f2.transforms.side = 2;
  CHECK(std::string(fit_class_name(f2)) == "winograd");
}

TEST_CASE(
    "memory: the longer of compute and traffic in a core's caches, their sum from shared levels, "
    "from the level a tile's own bytes fit in when they overflow its node's") {
  const Profile p = flat_profile(50);
  // 1000 outputs of an add: 250 ns of compute. Node 0's data fit in L1 (copies at 60 GB/s),
  // node 1's in L2 (40 GB/s), node 2's only in DRAM (10 GB/s, shared).
  const tiles::TileGraph g = hand_graph(
      {
          {0, elementwise_cost(12000), 1000},  // 200 ns of traffic: compute is longer
          {0, elementwise_cost(30000), 1000},  // its 30 KB overflow half the L1: 750 ns from L2
          {1, elementwise_cost(30000), 1000},  // 750 ns of traffic
          {2, elementwise_cost(12000), 1000},  // 1200 ns of traffic, added to the compute
          {2, elementwise_cost(1200), 10000},  // 2500 ns of compute, 120 ns of traffic
      },
      {8000, 80000, int64_t{1} << 31});
  const std::vector<double> one = predict_task_seconds(g, p, 1);
  CHECK(one[0] == Approx(250e-9));
  CHECK(one[1] == Approx(750e-9));
  CHECK(one[2] == Approx(750e-9));
  CHECK(one[3] == Approx(250e-9 + 1200e-9));
  CHECK(one[4] == Approx(2500e-9 + 120e-9));
  // Two threads share DRAM (20 x 10/15 GB/s between them); the private levels are unchanged.
  // A tile takes at least its DRAM bytes at its half of that (1800 ns), more than alone; one
  // that asks DRAM for little runs as it does alone.
  const std::vector<double> two = predict_task_seconds(g, p, 2);
  CHECK(two[1] == Approx(one[1]));
  CHECK(two[2] == Approx(one[2]));
  CHECK(two[3] == Approx(12000 / (20e9 * 10 / 15 / 2)));
  CHECK(two[4] == Approx(one[4]));
}

TEST_CASE("weights stream once per node from the level that holds them and the arena") {
  const Profile p = flat_profile(50);
  const double gemm = 2.0 * 8 * 16 * 64 / 50e9;  // 20 ns of compute
  // 2 MB of weights in all come from L3, read at 30 GB/s by one thread and by all cores
  // together (15 each of two). A miss to a shared level stalls: each tile adds its share.
  tiles::TileGraph g = hand_graph({{0, gemm_cost(8, 16, 64)}, {0, gemm_cost(8, 16, 64)}, {1, gemm_cost(8, 16, 64)}}, {},
                                  {1'200'000, 800'000});
  const std::vector<double> one = predict_task_seconds(g, p, 1);
  CHECK(one[0] == Approx(gemm + 600'000 / 30e9));
  CHECK(one[1] == Approx(gemm + 600'000 / 30e9));
  CHECK(one[2] == Approx(gemm + 800'000 / 30e9));
  // On two threads at once, the 600 KB at 15 GB/s take longer than the tile alone.
  CHECK(predict_task_seconds(g, p, 2)[0] == Approx(600'000 / 15e9));
  // A run also passes through its arena: with 8 MB of activations the weights no longer stay
  // in half the L3, and come from DRAM.
  g.arena_bytes = 8 << 20;
  CHECK(predict_task_seconds(g, p, 1)[0] == Approx(gemm + 600'000 / 15e9));
  // From a core's own cache (200 KB in L2 at 50 GB/s) they stream under the compute: the
  // longer of the two.
  const tiles::TileGraph l2 = hand_graph({{0, gemm_cost(8, 16, 64)}, {0, gemm_cost(8, 16, 64)}}, {}, {200'000});
  CHECK(predict_task_seconds(l2, p, 1)[0] == Approx(std::max(gemm, 100'000 / 50e9)));
  const tiles::TileGraph light = hand_graph({{0, gemm_cost(8, 16, 64)}}, {}, {100});
  CHECK(predict_task_seconds(light, p, 1)[0] == Approx(gemm));
}

TEST_CASE("short input runs fetch the rest of their line pair") {
  const Profile p = flat_profile(50);
  // 4 KB of traffic in L1 (60 GB/s copy), far longer than the 1000 elementwise outputs.
  ops::OpCost long_runs = elementwise_cost(4000);
  long_runs.flops = 0;
  ops::OpCost runs_of_64 = long_runs;
  runs_of_64.input_run_bytes = 64;  // 16 channels of an NHWC tensor: half of each pair
  ops::OpCost runs_of_128 = long_runs;
  runs_of_128.input_run_bytes = 128;
  const tiles::TileGraph g = hand_graph({{0, long_runs, 10}, {0, runs_of_64, 10}, {0, runs_of_128, 10}});
  const std::vector<double> seconds = predict_task_seconds(g, p, 1, /*in_model=*/false);
  CHECK(seconds[0] == Approx(4000 / 60e9));
  CHECK(seconds[1] == Approx(2 * 4000 / 60e9));
  CHECK(seconds[2] == Approx(seconds[0]));
}

TEST_CASE(
    "a block of NHWC channels read from the shared levels costs its whole pixels, from a core's own cache its runs") {
  const Profile p = flat_profile(50);
  ops::OpCost whole = elementwise_cost(4000);
  whole.flops = 0;
  ops::OpCost quarter = whole;  // 32 of 128 channels
  quarter.input_run_bytes = 128;
  quarter.input_pixel_bytes = 512;
  // Nodes reaching 4 MB (L3: 20 GB/s copy) and 200 KB (L2).
  const tiles::TileGraph g = hand_graph({{0, whole, 10}, {1, quarter, 10}, {2, whole, 10}, {3, quarter, 10}},
                                        {4 << 20, 4 << 20, 200'000, 200'000});
  const std::vector<double> seconds = predict_task_seconds(g, p, 1, /*in_model=*/false);
  CHECK(seconds[1] - seconds[0] == Approx(3 * 4000 / 20e9));
  CHECK(seconds[3] == Approx(seconds[2]));
}

TEST_CASE("a GEMM's row blocks read its weight panels again, from the level holding the node's weights") {
  const Profile p = flat_profile(50);
  // A GEMM tile reads the panels of its columns; other tiles their share of the node's.
  CHECK(tile_weight_bytes(gemm_cost(8, 128, 512), 1e6, 4) == 4.0 * 512 * 128);
  CHECK(tile_weight_bytes(gemm_cost(8, 128, 512), 1e5, 4) == 1e5);  // no more than the node has
  CHECK(tile_weight_bytes(elementwise_cost(1000), 1e6, 4) == 250'000);
  CHECK(tile_weight_bytes(gemm_cost(8, 128, 512), 0, 4) == 0);  // a MatMul of two activations
  // 256 KB of weights in a model of 64 MB: their first read comes from DRAM (15 GB/s), the
  // second row block's from L2 (50 GB/s), where half the L2 holds the node's own weights.
  const TilePricer pricer(p, 1, 64e6, /*in_model=*/false);
  const TilePricer::Node once = pricer.node(1000, 256e3, 2, 256e3);
  const TilePricer::Node twice = pricer.node(1000, 256e3, 2, 512e3);
  CHECK(once.weight_seconds == Approx(256e3 / 15e9 / 2));
  CHECK(once.weight_again_seconds == 0);
  CHECK(twice.weight_seconds == Approx(256e3 / 15e9 / 2));
  CHECK(twice.weight_again_seconds == Approx(256e3 / 50e9 / 2));
  CHECK(twice.again_in_own_cache);
  // From a core's own cache the second read overlaps the compute, as activations there do: a
  // tile of 8.4 MFLOP (168 us at 50 GFLOP/s) does not wait for 256 KB of panels from L2.
  ops::OpCost tile = gemm_cost(64, 128, 512);
  tile.bytes = 4.0 * 512 * 128;  // its panels: the node's weight reads
  CHECK(pricer.seconds(twice, tile, 64 * 128) == Approx(pricer.seconds(once, tile, 64 * 128)));
  // From a shared level it stalls the compute: 16 MB of weights re-read from L3.
  const TilePricer::Node shared = pricer.node(1000, 16e6, 2, 32e6);
  CHECK_FALSE(shared.again_in_own_cache);
  ops::OpCost wide = gemm_cost(64, 128, 512);
  const double compute = pricer.seconds(pricer.node(1000, 0, 2, 0), wide, 64 * 128);
  CHECK(pricer.seconds(shared, wide, 64 * 128) ==
        Approx(compute + shared.weight_again_seconds + shared.weight_seconds));
}

TEST_CASE("a Winograd node's weights are its points' panels, four times a 3x3 kernel's") {
  // 32 input channels into 16 outputs, all of them in the tile: 36 points' panels of 32 x 16.
  ops::OpCost c = gemm_cost(20, 16, 32, 36);
  c.gemm.count = 36;
  c.gemm.panel_columns = 16;
  const double given = 4.0 * 32 * 16 * 9;
  CHECK(priced_weight_bytes(c, given) == given);  // GEMMs one after the other: as given
  c.gemm.interleaved = true;
  CHECK(priced_weight_bytes(c, given) == 4 * given);
  CHECK(tile_weight_bytes(c, priced_weight_bytes(c, given), 4) == 4 * given);
  CHECK(priced_weight_bytes(c, 0) == 0);  // no weights: none transformed
  CHECK(priced_weight_bytes(elementwise_cost(1e6), given) == given);
}

TEST_CASE("a Winograd tile: its points' GEMMs, its transforms per tile and channel, all points' panels per row block") {
  Profile p = flat_profile(50);  // mr 8, nr 16; L2 of 1 MiB, L3 at 30 GB/s
  // 20 tiles of 32 input channels into 16 output channels: 36 GEMMs of 20 (8 + 8 + 4) x 16 x 32.
  ops::OpCost c = gemm_cost(20, 16, 32, 36);
  c.gemm.count = 36;
  c.gemm.interleaved = true;
  c.transforms = {20 * 32, 20 * 16};
  const double gemms = 36 * 2.0 * 20 * 16 * 32 / 50e9;
  const double transforms = (20 * 32 * 2.5 + 20 * 16 * 3.5) * 1e-9;
  CHECK(predict_task_seconds(hand_graph({{0, c}}), p, 1)[0] == Approx(gemms + transforms));
  // 256 input channels into 64 outputs: each point's panels are 64 KiB, all 36 of them 2.3 MiB,
  // more than the L2 holds: every row block after the first reads them from L3 again.
  ops::OpCost wide = gemm_cost(20, 64, 256, 36);
  wide.gemm.count = 36;
  const double alone = predict_task_seconds(hand_graph({{0, wide}}), p, 1)[0];
  wide.gemm.interleaved = true;
  const double panels = 36 * 4.0 * 256 * 64;
  CHECK(predict_task_seconds(hand_graph({{0, wide}}), p, 1)[0] == Approx(alone + 2 * panels / 30e9));
}

TEST_CASE("a GEMM's panels are read again per block of rows when they and the block's rows of A overflow the L2") {
  const Profile p = flat_profile(50);  // mr 8, nr 16; L2 of 1 MiB, L3 at 30 GB/s
  Profile roomy = p;
  roomy.memory[1].bytes = 4 << 20;  // an L2 that holds everything here
  // 3 blocks of 8 rows; 1 MiB of panels (1024 deep, 256 columns), 32 KiB of A per block: the
  // panels alone fill the L2, beside the rows they do not stay.
  const ops::OpCost full = gemm_cost(24, 256, 1024);
  const double once = predict_task_seconds(hand_graph({{0, full}}), roomy, 1)[0];
  CHECK(predict_task_seconds(hand_graph({{0, full}}), p, 1)[0] == Approx(once + 2 * 4.0 * 1024 * 256 / 30e9));
  // 960 KiB of panels and 32 KiB of rows fit.
  const ops::OpCost fits = gemm_cost(24, 240, 1024);
  CHECK(predict_task_seconds(hand_graph({{0, fits}}), p, 1)[0] ==
        Approx(predict_task_seconds(hand_graph({{0, fits}}), roomy, 1)[0]));
}

TEST_CASE("a tile's weight panels are paid once, with the node's weight reads, not again with its bytes") {
  const Profile p = flat_profile(50);
  // A matrix-vector tile of a weight-bound layer: 1 row, 128 columns of depth 4096 (2 MiB of
  // panels, the node's whole weights), in a model of 64 MB whose weights come from DRAM.
  ops::OpCost c = gemm_cost(1, 128, 4096);
  const double panels = 4.0 * 4096 * 128, activations = 4.0 * (4096 + 128);
  const TilePricer pricer(p, 1, 64e6, /*in_model=*/false);
  const TilePricer::Node node = pricer.node(panels + activations, panels, 1, panels);
  c.bytes = activations;
  const double without = pricer.seconds(node, c, 128);
  c.bytes = activations + panels;  // what OpCost counts: every byte the tile reads
  const double with = pricer.seconds(node, c, 128);
  CHECK(without > node.weight_seconds);
  // The panels only push the tile's activations out of L1 (they stream through it); before,
  // they were read twice, adding 2 MiB at DRAM's rate again.
  CHECK(with - without < 0.05 * node.weight_seconds);
}

// ---------------------------------------------------------------------------------------------
// Predictions

TEST_CASE("predictions say whether the profile was calibrated") {
  const tiles::TileGraph g = hand_graph({{0, gemm_cost(8, 16, 64), 1, {1}}, {1, elementwise_cost(4096), 128}});
  const Prediction guess = predict(g, uncalibrated_profile("avx2", "native"), 1, SimScheduler::kDynamic);
  CHECK_FALSE(guess.calibrated);
  CHECK(guess.latency > 0);
  const Prediction measured = predict(g, hand_profile(), 2, SimScheduler::kBarrier);
  CHECK(measured.calibrated);
  CHECK(measured.threads == 2);
  CHECK(measured.scheduler == SimScheduler::kBarrier);
  CHECK(measured.idle.size() == 2);
}

TEST_CASE("a chain on one thread: its kernels plus the executor's costs per task") {
  Profile p = flat_profile(64);
  p.executor = {1e-7, 3e-8, 2e-6, 5e-7};  // task, edge, steal, wake
  // 8 x 16 x 1000, 8 x 16 x 3000 and 8 x 16 x 2000: 4, 12 and 8 us at 64 GFLOP/s.
  const tiles::TileGraph g = hand_graph(
      {{0, gemm_cost(8, 16, 1000), 1, {1}}, {1, gemm_cost(8, 16, 3000), 1, {2}}, {2, gemm_cost(8, 16, 2000)}});
  const SimCosts costs = sim_costs(g, p);
  const double per_task = 1e-7 + 2.0 / 3 * 3e-8;  // two edges over three tasks
  CHECK(costs.task_overhead == Approx(per_task));
  CHECK(costs.steal == Approx(2e-6));
  CHECK(costs.wake == Approx(5e-7));

  const Prediction one = predict(g, p, 1, SimScheduler::kDynamic);
  REQUIRE(one.node_seconds.size() == 3);
  CHECK(one.node_seconds[0] == Approx(4e-6));
  CHECK(one.node_seconds[1] == Approx(12e-6));
  CHECK(one.node_seconds[2] == Approx(8e-6));
  // The thread wakes once, then runs the chain through.
  CHECK(one.latency == Approx(5e-7 + 24e-6 + 3 * per_task));
  CHECK(one.critical_path == Approx(24e-6 + 3 * per_task));
  REQUIRE(one.idle.size() == 1);
  CHECK(one.idle[0] == Approx(5e-7));
  // A chain gains nothing from a second thread, under either scheduler.
  CHECK(predict(g, p, 2, SimScheduler::kDynamic).latency == Approx(one.latency));
  CHECK(predict(g, p, 2, SimScheduler::kBarrier).latency == Approx(one.latency));
}

TEST_CASE("inputs a producer just made come from the closer cache that still holds them") {
  const Profile p = flat_profile(50);
  // Node 1's data come from DRAM (copies at 10 GB/s): 250 ns of compute and 1200 of traffic,
  // 8000 bytes of it the input node 0 made.
  const tiles::TileGraph g = hand_graph({{0, elementwise_cost(12000), 1000, {1}}, {1, elementwise_cost(12000), 1000}},
                                        {8000, int64_t{1} << 31});
  const std::vector<double> cold = predict_task_seconds(g, p, 1);
  CHECK(cold[1] == Approx(1450e-9));
  const std::vector<SimTask> tasks = sim_tasks(g, cold, p, 1);
  // In the core's L2 (read at 50 GB/s) they load under the compute: 250 + 400 ns of the rest.
  CHECK(tasks[1].saving_in_own_cache == Approx(1450e-9 - 650e-9));
  // In L3 (30 GB/s) they stall it.
  CHECK(tasks[1].saving_in_shared_cache == Approx(1450e-9 - (250e-9 + 8000 / 30e9 + 400e-9)));
  // Node 0's data sit in a core's own caches: nothing closer.
  CHECK(tasks[0].saving_in_own_cache == 0);
  CHECK(tasks[0].saving_in_shared_cache == 0);
  // Half of each cache keeps a task's output.
  CHECK(sim_costs(g, p).own_cache_bytes == 512 << 10);
  CHECK(sim_costs(g, p).shared_cache_bytes == 8 << 20);
  // Task 1 runs right after its producer, on its thread: the prediction takes the L2 price.
  const Prediction one = predict(g, p, 1, SimScheduler::kDynamic);
  CHECK(one.latency == Approx(250e-9 + 650e-9));
  CHECK(one.node_seconds[1] == Approx(650e-9));
}

TEST_CASE("inputs from another core cost the cross-core rate beyond a local read, in a core's own caches") {
  Profile p = hand_profile();  // L2 read at 50 GB/s, another core's data at 25 GB/s
  const tiles::TileGraph g = hand_graph({{0, elementwise_cost(12000), 1000, {1}},  // 4000 of output
                                         {1, elementwise_cost(12000), 1000}},
                                        {8000, 32 << 20});  // node 1's data come from DRAM
  CHECK(sim_costs(g, p).cross_core_byte == Approx(1 / 25e9 - 1 / 50e9));
  CHECK(sim_costs(g, p).remote_input == Approx(1.5e-6));
  const std::vector<SimTask> tasks = sim_tasks(g, std::vector<double>(2, 1e-6), p, 1);
  CHECK(tasks[0].input_bytes == 8000);  // 12000 of traffic less its 4000 of output
  CHECK(tasks[1].input_bytes == 0);     // from DRAM, wherever they were made
  p.cross_core_gbps = 0;                // not measured: no charge
  CHECK(sim_costs(g, p).cross_core_byte == 0);
}

TEST_CASE("writing over what another core read costs the measured rate, handed to the simulator with the readers") {
  Profile p = hand_profile();  // writes over another core's lines: 8 GB/s of extra time
  tiles::TileGraph g = hand_graph({{0, elementwise_cost(12000), 1000, {1}}, {1, elementwise_cost(12000), 1000}});
  g.overwrites = {{0, 2500}};  // task 1 writes over 2500 bytes task 0 read
  g.tasks[1].overwrites_begin = 0;
  g.tasks[1].overwrites_end = 1;
  CHECK(sim_costs(g, p).overwrite_byte == Approx(1 / 8e9));
  const std::vector<SimTask> tasks = sim_tasks(g, std::vector<double>(2, 1e-6), p, 1);
  CHECK(tasks[0].overwrites.empty());
  REQUIRE(tasks[1].overwrites.size() == 1);
  CHECK(tasks[1].overwrites[0].reader == 0);
  CHECK(tasks[1].overwrites[0].bytes == 2500);
  p.shared_overwrite_gbps = 0;  // not measured: no charge
  CHECK(sim_costs(g, p).overwrite_byte == 0);
}

TEST_CASE("writing lines nobody wrote this run costs reading them from where the model's data live") {
  Profile p = flat_profile(50);
  // Two 1000-element tiles (4000 bytes out each); the second writes over 2500 bytes an earlier
  // occupant wrote; the rest of its output, like all of the first's, was last touched a run ago.
  tiles::TileGraph g = hand_graph({{0, elementwise_cost(12000), 1000, {1}}, {1, elementwise_cost(12000), 1000}});
  g.tasks[1].stale_share = 1500.0f / 4000;
  const auto stale = [&](int threads) {
    const std::vector<SimTask> tasks = sim_tasks(g, std::vector<double>(2, 1e-6), p, threads);
    return std::pair{tasks[0].stale_write_seconds, tasks[1].stale_write_seconds};
  };
  // A model that fits a core's L2 leaves them there: nothing more.
  CHECK(stale(1) == std::pair{0.0, 0.0});
  // 4 MB of weights and arena live in L3 (30 GB/s).
  g.arena_bytes = 4 << 20;
  CHECK(stale(1).first == Approx(4000 / 30e9));
  CHECK(stale(1).second == Approx(1500 / 30e9));
  // 16 MB in DRAM (15 GB/s alone, 10 each of two).
  g.arena_bytes = 16 << 20;
  CHECK(stale(1).first == Approx(4000 / 15e9));
  CHECK(stale(2).first == Approx(4000 / 10e9));
  // A node whose own data come from L3 (8 MB reach) already pays L3 for its output lines.
  g.nodes[0].reach_bytes = 8 << 20;
  CHECK(stale(1).first == Approx(4000 / 15e9 - 4000 / 20e9));
  // The simulator adds them to the tasks' time.
  const std::vector<double> seconds = predict_task_seconds(g, p, 1);
  const Prediction with = predict(g, p, 1, SimScheduler::kDynamic);
  CHECK(with.node_seconds[1] == Approx(seconds[1] + stale(1).second));
}

TEST_CASE("a node's predicted time includes what its tiles pay for inputs made on another thread") {
  Profile p = flat_profile(64);
  p.executor.remote_input = 3e-6;
  // Two 8 us tiles feed one 4 us tile: on two threads they run side by side, and the third
  // reads one of its inputs from the other thread.
  const tiles::TileGraph g = hand_graph(
      {{0, gemm_cost(8, 16, 2000), 1, {2}}, {0, gemm_cost(8, 16, 2000), 1, {2}}, {1, gemm_cost(8, 16, 1000)}});
  const Prediction one = predict(g, p, 1, SimScheduler::kDynamic);
  const Prediction two = predict(g, p, 2, SimScheduler::kDynamic);
  CHECK(one.node_seconds[1] == Approx(4e-6));
  CHECK(two.node_seconds[0] == Approx(16e-6));
  CHECK(two.node_seconds[1] == Approx(4e-6 + 3e-6));
}

TEST_CASE("independent equal tiles on two threads take about half as long as on one") {
  Profile p = flat_profile(64);
  p.executor = {1e-7, 0, 2e-6, 5e-7};
  std::vector<TaskSpec> tasks(8, TaskSpec{0, gemm_cost(8, 16, 1000)});  // 4 us each
  const tiles::TileGraph g = hand_graph(tasks);
  const Prediction one = predict(g, p, 1, SimScheduler::kDynamic);
  const Prediction two = predict(g, p, 2, SimScheduler::kDynamic);
  CHECK(one.latency == Approx(5e-7 + 8 * (4e-6 + 1e-7)));
  CHECK(two.latency == Approx(5e-7 + 4 * (4e-6 + 1e-7)));  // four tiles at home on each thread
  CHECK(two.latency == Approx(one.latency / 2).epsilon(0.05));
  CHECK(two.critical_path == Approx(4e-6 + 1e-7));
  CHECK(predict(g, p, 2, SimScheduler::kBarrier).latency == Approx(two.latency));
}

TEST_CASE("fork-join: the dynamic scheduler overlaps what the barrier one serialises") {
  // root (1) -> x (3), y (1) -> x' (1) after x, y' (3) after y -> join (1), in units of 4 us.
  // Dynamic, 2 threads: x on thread 0 from 1 to 4, y on thread 1 from 1 to 2, then y' from 2
  // to 5 while thread 0 runs x' from 4 to 5; the join 5 to 6. Barrier: the second node starts
  // only when x is done (4), the join when y' is (7): 8.
  Profile p = flat_profile(64);
  const auto unit = [](int64_t units) { return gemm_cost(8, 16, 1000 * units); };
  const tiles::TileGraph g = hand_graph({
      {0, unit(1), 1, {1, 2}},
      {1, unit(3), 1, {3}},
      {1, unit(1), 1, {4}},
      {2, unit(1), 1, {5}},
      {2, unit(3), 1, {5}},
      {3, unit(1)},
  });
  const double u = 4e-6;
  CHECK(predict(g, p, 1, SimScheduler::kDynamic).latency == Approx(10 * u));
  CHECK(predict(g, p, 1, SimScheduler::kBarrier).latency == Approx(10 * u));
  const Prediction dynamic = predict(g, p, 2, SimScheduler::kDynamic);
  const Prediction barrier = predict(g, p, 2, SimScheduler::kBarrier);
  CHECK(dynamic.latency == Approx(6 * u));
  CHECK(barrier.latency == Approx(8 * u));
  CHECK(dynamic.critical_path == Approx(6 * u));
  CHECK(barrier.critical_path == Approx(6 * u));
  REQUIRE(barrier.idle.size() == 2);
  CHECK(barrier.idle[0] + barrier.idle[1] == Approx(2 * 8 * u - 10 * u));

  // With the executor's costs the order stays: hand-overs cost both schedulers alike.
  p.executor = {1e-7, 3e-8, 1e-7, 1e-7};
  CHECK(predict(g, p, 2, SimScheduler::kDynamic).latency < predict(g, p, 2, SimScheduler::kBarrier).latency);
}

}  // namespace
}  // namespace tessera::plan
