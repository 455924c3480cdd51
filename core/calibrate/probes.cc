// Measurements on compiled models: small networks built here, compiled and run like any
// other on one thread, every tile traced.
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/aligned_buffer.h"
#include "core/calibrate/calibrate.h"
#include "core/engine/compiled_model.h"
#include "core/kernels/peak/timing.h"
#include "core/plan/cost_model.h"

namespace tessera::calibration {

namespace {

using json = nlohmann::json;

// A model under construction: float initializers with random values, and nodes.
class Network {
 public:
  explicit Network(std::vector<int64_t> input) {
    doc_ = {{"format", "tessera"},
            {"version", 1},
            {"name", "calibration"},
            {"inputs", {{{"name", "x"}, {"dtype", "float32"}, {"shape", input}}}},
            {"initializers", json::array()},
            {"nodes", json::array()}};
  }
  std::string weight(std::vector<int64_t> shape) {
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    const std::string name = "w" + std::to_string(doc_["initializers"].size());
    doc_["initializers"].push_back({{"name", name},
                                    {"dtype", "float32"},
                                    {"shape", shape},
                                    {"offset", weights_.size()},
                                    {"length", count * 4}});
    std::uniform_real_distribution<float> dist(-0.2f, 0.2f);
    for (int64_t i = 0; i < count; ++i) {
      const float v = dist(rng_);
      const auto* bytes = reinterpret_cast<const uint8_t*>(&v);
      weights_.insert(weights_.end(), bytes, bytes + 4);
    }
    return name;
  }
  std::string ints(std::vector<int64_t> values) {
    const std::string name = "i" + std::to_string(doc_["initializers"].size());
    doc_["initializers"].push_back({{"name", name},
                                    {"dtype", "int64"},
                                    {"shape", {values.size()}},
                                    {"offset", weights_.size()},
                                    {"length", values.size() * 8}});
    for (int64_t v : values) {
      const auto* bytes = reinterpret_cast<const uint8_t*>(&v);
      weights_.insert(weights_.end(), bytes, bytes + 8);
    }
    return name;
  }
  std::string node(const std::string& op, std::vector<std::string> inputs, json attributes = json::object()) {
    const std::string out = "n" + std::to_string(doc_["nodes"].size());
    doc_["nodes"].push_back(
        {{"op", op}, {"name", out}, {"inputs", inputs}, {"outputs", {out}}, {"attributes", attributes}});
    return out;
  }
  // The compiled model, `output` its only output (its shape left for the loader to check).
  Result<std::shared_ptr<const Model>> compile(const std::string& output, std::vector<int64_t> shape, Isa isa,
                                               double tile_flops = CompileOptions().tile_flops) {
    doc_["outputs"] = {{{"name", output}, {"dtype", "float32"}, {"shape", shape}}};
    AlignedBuffer weights = AlignedBuffer::allocate(weights_.size());
    if (!weights_.empty()) std::memcpy(weights.data(), weights_.data(), weights_.size());
    CompileOptions options;
    options.isa = std::string(isa_name(isa));
    options.tile_flops = tile_flops;
    return CompiledModel::compile(doc_.dump(), std::move(weights), options);
  }

 private:
  json doc_;
  std::vector<uint8_t> weights_;
  std::mt19937 rng_{7};
};

// Median seconds of every task of `g` over runs on one thread, for about `seconds`.
Result<std::vector<double>> time_tasks(const tiles::TileGraph& g, double seconds) {
  AlignedBuffer arena = AlignedBuffer::allocate(static_cast<size_t>(std::max<int64_t>(g.arena_bytes, 64)));
  AlignedBuffer scratch = AlignedBuffer::allocate(static_cast<size_t>(g.scratch_floats + 16) * sizeof(float));
  if (arena.data() == nullptr || scratch.data() == nullptr) return Status::error("calibrate: out of memory");
  std::memset(arena.data(), 0, arena.size());
  std::vector<float*> scratch_of{scratch.as<float>()};
  runtime::Executor executor(1);
  std::vector<runtime::TileEvent> events;
  std::vector<std::vector<double>> runs(g.tasks.size());
  kernels::median_seconds_of(seconds, [&] {
    executor.run(g, arena.data(), scratch_of, {runtime::Scheduler::kDynamic, 0, true}, &events);
    for (const runtime::TileEvent& e : events) runs[e.task].push_back(1e-9 * static_cast<double>(e.end_ns - e.start_ns));
  });
  std::vector<double> out;
  for (std::vector<double>& r : runs) {
    std::nth_element(r.begin(), r.begin() + r.size() / 2, r.end());
    out.push_back(r[r.size() / 2]);
  }
  return out;
}

// measured = scale * predicted + tile by least squares, the setup per tile held at 0 or
// more (a negative one would make small tiles free).
plan::InModel fit_line(const std::vector<std::pair<double, double>>& points) {
  double n = 0, sp = 0, sm = 0, spp = 0, spm = 0;
  for (const auto& [p, m] : points) {
    n += 1;
    sp += p;
    sm += m;
    spp += p * p;
    spm += p * m;
  }
  const double det = n * spp - sp * sp;
  if (det > 0) {
    const double scale = (n * spm - sp * sm) / det;
    const double tile = (sm - scale * sp) / n;
    if (scale > 0 && tile >= 0) return {scale, tile};
  }
  return {sp > 0 ? sm / sp : 1.0, 0.0};
}

Result<std::shared_ptr<const Specialization>> specialization(const std::shared_ptr<const Model>& model) {
  return static_cast<const CompiledModel&>(*model).specialize({});
}

}  // namespace

Result<double> measure_permute_ns(Isa isa, const Budget& budget) {
  // NCHW -> NHWC of 64 channels of 56 x 56: 800 KiB, L2-sized like the other kernel rates.
  Network net({1, 64, 56, 56});
  const std::string y = net.node("Transpose", {"x"}, {{"perm", {0, 2, 3, 1}}});
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Model> model, net.compile(y, {1, 56, 56, 64}, isa));
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> spec, specialization(model));
  const tiles::TileGraph& g = spec->tile_graph;
  TESSERA_ASSIGN_OR_RETURN(std::vector<double> seconds, time_tasks(g, budget.point()));
  double bytes = 0, total = 0;
  for (size_t t = 0; t < g.tasks.size(); ++t) {
    if (g.tasks[t].cost.kind != ops::WorkKind::kPermute) continue;
    bytes += g.tasks[t].cost.bytes;
    total += seconds[t];
  }
  if (bytes == 0) return Status::error("calibrate: the permute probe compiled to no strided copy");
  return total / bytes * 1e9;
}

Result<std::map<std::string, plan::InModel>> fit_in_model(const plan::Profile& profile, Isa isa, const Budget& budget) {
  // A little of every kind of work, in shapes no benchmarked model has: convolutions (3x3,
  // 1x1, depthwise), a pool, a unary and a binary op, a permute, a matmul and its rows.
  // Activations from 150 KiB to 3 MiB: in the private caches and past them.
  Network net({1, 20, 80, 80});
  std::string x = net.node("Conv", {"x", net.weight({40, 20, 3, 3}), net.weight({40})}, {{"pads", {1, 1, 1, 1}}});
  x = net.node("Relu", {x});
  x = net.node("Conv", {x, net.weight({120, 40, 1, 1})});
  x = net.node("Conv", {x, net.weight({120, 1, 3, 3})}, {{"group", 120}, {"pads", {1, 1, 1, 1}}, {"strides", {2, 2}}});
  x = net.node("Conv", {x, net.weight({48, 120, 1, 1})});
  x = net.node("Conv", {x, net.weight({96, 48, 3, 3})}, {{"pads", {1, 1, 1, 1}}});
  x = net.node("Conv", {x, net.weight({40, 96, 1, 1})});
  const std::string pooled = net.node("MaxPool", {x}, {{"kernel_shape", {3, 3}}, {"strides", {2, 2}}, {"pads", {1, 1, 1, 1}}});
  x = net.node("Add", {pooled, net.node("Tanh", {pooled})});
  x = net.node("Reshape", {x, net.ints({1, 40, 400})});
  x = net.node("Transpose", {x}, {{"perm", {0, 2, 1}}});
  x = net.node("MatMul", {x, net.weight({40, 160})});
  x = net.node("LayerNormalization", {x, net.weight({160}), net.weight({160})}, {{"axis", -1}});
  x = net.node("Softmax", {x}, {{"axis", -1}});
  plan::Profile unfitted = profile;
  unfitted.in_model.clear();
  // Per kind, (predicted, measured) per tile, over three tilings: small tiles to large.
  std::map<std::string, std::vector<std::pair<double, double>>> samples;
  for (double tile_flops : {2e5, 2e6, 2e7}) {
    TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Model> model, net.compile(x, {1, 400, 160}, isa, tile_flops));
    TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> spec, specialization(model));
    const tiles::TileGraph& g = spec->tile_graph;
    TESSERA_ASSIGN_OR_RETURN(std::vector<double> measured, time_tasks(g, budget.point()));
    const std::vector<double> predicted = plan::predict_task_seconds(g, unfitted, 1);
    for (size_t t = 0; t < g.tasks.size(); ++t) {
      samples[plan::work_kind_name(g.tasks[t].cost.kind)].push_back({predicted[t], measured[t]});
    }
  }
  std::map<std::string, plan::InModel> fits;
  for (const auto& [kind, points] : samples) fits[kind] = fit_line(points);
  return fits;
}

}  // namespace tessera::calibration
