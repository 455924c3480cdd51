// Profiles to and from JSON, checked field by field (the core runs without exceptions, so
// every access is type-checked first).
#include "core/plan/profile.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/kernels/winograd/winograd.h"

namespace tessera::plan {

namespace {

using json = nlohmann::json;

constexpr const char* kFormat = "tessera-profile";

// A Winograd transform priced as elementwise passes, one per point, per tile and channel: what
// profiles without measured transforms, and the uncalibrated guesses, charge.
double transform_ns_as_passes(kernels::WinogradTile tile, double elementwise_ns) {
  return tile.points() * elementwise_ns;
}

// Reads the fields of one JSON object, remembering the first one that is missing or of
// the wrong type: callers read everything, then ask for the status once.
class Reader {
 public:
  Reader(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) fail(path_, "must be an object");
  }

  const json* field(const char* name) {
    if (!status_.ok() || !object_.is_object()) return nullptr;
    auto it = object_.find(name);
    if (it == object_.end()) {
      fail(path_ + "." + name, "is missing");
      return nullptr;
    }
    return &*it;
  }
  double number(const char* name, bool positive = true) {
    const json* v = field(name);
    if (v == nullptr) return 0;
    if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0 ||
        (positive && v->get<double>() == 0)) {
      fail(path_ + "." + name, positive ? "must be a positive number" : "must be a number >= 0");
      return 0;
    }
    return v->get<double>();
  }
  int64_t integer(const char* name) {
    const json* v = field(name);
    if (v == nullptr) return 0;
    if (!v->is_number_integer() || v->get<int64_t>() < 0) {
      fail(path_ + "." + name, "must be an integer >= 0");
      return 0;
    }
    return v->get<int64_t>();
  }
  std::string text(const char* name) {
    const json* v = field(name);
    if (v == nullptr) return "";
    if (!v->is_string()) {
      fail(path_ + "." + name, "must be a string");
      return "";
    }
    return v->get<std::string>();
  }
  bool boolean(const char* name) {
    const json* v = field(name);
    if (v == nullptr) return false;
    if (!v->is_boolean()) {
      fail(path_ + "." + name, "must be true or false");
      return false;
    }
    return v->get<bool>();
  }
  template <class T>
  std::vector<T> numbers(const char* name) {
    std::vector<T> out;
    const json* v = field(name);
    if (v == nullptr) return out;
    if (!v->is_array() || v->empty()) {
      fail(path_ + "." + name, "must be a non-empty array");
      return out;
    }
    for (const json& x : *v) {
      const bool fits = std::is_integral_v<T> ? x.is_number_integer() : x.is_number();
      if (!fits || x.get<double>() <= 0 || !std::isfinite(x.get<double>())) {
        fail(path_ + "." + name, "must hold positive numbers");
        return {};
      }
      out.push_back(x.get<T>());
    }
    return out;
  }
  void fail(const std::string& where, const std::string& what) {
    if (status_.ok()) status_ = Status::error("profile: " + where + " " + what);
  }
  const Status& status() const { return status_; }
  const std::string& path() const { return path_; }

 private:
  const json& object_;
  std::string path_;
  Status status_;
};

json gemm_json(const GemmCurve& g) {
  return {{"kernel", g.kernel}, {"mr", g.mr},           {"nr", g.nr},         {"short_blocks", g.short_blocks},
          {"rows", g.rows},     {"columns", g.columns}, {"depths", g.depths}, {"gflops", g.gflops}};
}

Status read_gemm(const json& value, GemmCurve* g) {
  Reader r(value, "gemm");
  g->kernel = r.text("kernel");
  g->mr = static_cast<int>(r.integer("mr"));
  g->nr = static_cast<int>(r.integer("nr"));
  g->rows = r.numbers<int64_t>("rows");
  g->columns = r.numbers<int64_t>("columns");
  g->depths = r.numbers<int64_t>("depths");
  g->gflops = r.numbers<double>("gflops");
  // Absent from profiles measured before the short-block instances: rows rounded up to mr.
  g->short_blocks = value.contains("short_blocks") && r.boolean("short_blocks");
  TESSERA_RETURN_IF_ERROR(r.status());
  if (g->mr < 1 || g->nr < 1) return Status::error("profile: gemm.mr and gemm.nr must be at least 1");
  for (const auto* axis : {&g->rows, &g->columns, &g->depths}) {
    for (size_t i = 1; i < axis->size(); ++i) {
      if ((*axis)[i] <= (*axis)[i - 1]) return Status::error("profile: gemm grid points must ascend");
    }
  }
  if (g->gflops.size() != g->rows.size() * g->columns.size() * g->depths.size()) {
    return Status::error("profile: gemm.gflops must hold rows x columns x depths = " +
                         std::to_string(g->rows.size() * g->columns.size() * g->depths.size()) + " values, has " +
                         std::to_string(g->gflops.size()));
  }
  return {};
}

}  // namespace

std::string profile_to_json(const Profile& p) {
  json memory = json::array();
  for (const MemoryLevel& m : p.memory) {
    memory.push_back({{"name", m.name},
                      {"bytes", m.bytes},
                      {"read_gbps", m.read_gbps},
                      {"copy_gbps", m.copy_gbps},
                      {"shared_gbps", m.shared_gbps}});
  }
  json in_model = json::object();
  for (const auto& [kind, fit] : p.in_model)
    in_model[kind] = {{"scale", fit.scale}, {"tile_ns", fit.tile * 1e9}, {"tap_ns", fit.tap * 1e9}};
  json out = {
      {"format", kFormat},
      {"version", p.version},
      {"calibrated", p.calibrated},
      {"machine", {{"cpu", p.cpu}, {"isa", p.isa}, {"build", p.build}, {"cores", p.cores}}},
      {"date", p.date},
      {"quick", p.quick},
      {"gemm", gemm_json(p.gemm)},
      {"depthwise_gflops", p.depthwise_gflops},
      {"depthwise_output_ns", p.depthwise_output_ns},
      {"elementwise_ns", p.elementwise_ns},
      {"unary_ns", p.unary_ns},
      {"softmax_ns", p.softmax_ns},
      {"normalize_ns", p.normalize_ns},
      {"pool_tap_ns", p.pool_tap_ns},
      {"winograd_input_ns", p.winograd_input_ns},
      {"winograd_output_ns", p.winograd_output_ns},
      {"winograd_f2_input_ns", p.winograd_f2_input_ns},
      {"winograd_f2_output_ns", p.winograd_f2_output_ns},
      {"permute_ns", p.permute_ns},
      {"memory", memory},
      {"cross_core_gbps", p.cross_core_gbps},
      {"shared_overwrite_gbps", p.shared_overwrite_gbps},
      {"in_model", in_model},
      {"executor_ns",
       {{"task", p.executor.task * 1e9},
        {"edge", p.executor.edge * 1e9},
        {"steal", p.executor.steal * 1e9},
        {"wake", p.executor.wake * 1e9},
        {"spin", p.executor.spin * 1e9},
        {"remote_input", p.executor.remote_input * 1e9},
        {"run", p.executor.run * 1e9},
        {"run_all", p.executor.run_all * 1e9}}},
      {"transfer", {{"message_ns", p.transfer.message * 1e9}, {"copy_gbps", p.transfer.copy_gbps}}},
  };
  return out.dump(1);
}

Result<Profile> profile_from_json(const std::string& text) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::error("profile: not valid JSON");
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != kFormat) {
    return Status::error(std::string("profile: not a Tessera profile (\"format\" must be \"") + kFormat + "\")");
  }
  Reader r(doc, "profile");
  Profile p;
  p.version = static_cast<int>(r.integer("version"));
  TESSERA_RETURN_IF_ERROR(r.status());
  if (p.version != kProfileVersion) {
    return Status::error("profile: version " + std::to_string(p.version) + " is not the version this Tessera reads (" +
                         std::to_string(kProfileVersion) + "); calibrate again");
  }
  p.calibrated = r.boolean("calibrated");
  p.date = r.text("date");
  p.quick = r.boolean("quick");
  p.depthwise_gflops = r.number("depthwise_gflops");
  if (doc.contains("depthwise_output_ns"))  // absent from profiles that folded it into the rate
    p.depthwise_output_ns = r.number("depthwise_output_ns", false);
  p.elementwise_ns = r.number("elementwise_ns");
  p.softmax_ns = r.number("softmax_ns");
  p.normalize_ns = r.number("normalize_ns");
  p.pool_tap_ns = r.number("pool_tap_ns");
  p.permute_ns = r.number("permute_ns");
  // Absent from profiles made before the transforms were measured. F(2x2)'s, absent from those
  // made before it ran, are F(4x4)'s per point.
  const double as_passes = transform_ns_as_passes(kernels::kWinogradF4, p.elementwise_ns);
  p.winograd_input_ns = doc.contains("winograd_input_ns") ? r.number("winograd_input_ns", false) : as_passes;
  p.winograd_output_ns = doc.contains("winograd_output_ns") ? r.number("winograd_output_ns", false) : as_passes;
  const double f2_per_f4 = static_cast<double>(kernels::kWinogradF2.points()) / kernels::kWinogradF4.points();
  p.winograd_f2_input_ns =
      doc.contains("winograd_f2_input_ns") ? r.number("winograd_f2_input_ns", false) : p.winograd_input_ns * f2_per_f4;
  p.winograd_f2_output_ns = doc.contains("winograd_f2_output_ns") ? r.number("winograd_f2_output_ns", false)
                                                                  : p.winograd_output_ns * f2_per_f4;
  if (doc.contains("cross_core_gbps"))  // absent from profiles made before it was measured
    p.cross_core_gbps = r.number("cross_core_gbps", false);
  if (doc.contains("shared_overwrite_gbps"))  // likewise
    p.shared_overwrite_gbps = r.number("shared_overwrite_gbps", false);
  const json* machine = r.field("machine");
  const json* gemm = r.field("gemm");
  const json* unary = r.field("unary_ns");
  const json* memory = r.field("memory");
  const json* executor = r.field("executor_ns");
  const json* in_model = r.field("in_model");
  TESSERA_RETURN_IF_ERROR(r.status());

  Reader m(*machine, "machine");
  p.cpu = m.text("cpu");
  p.isa = m.text("isa");
  p.build = m.text("build");
  p.cores = static_cast<int>(m.integer("cores"));
  TESSERA_RETURN_IF_ERROR(m.status());
  if (p.cores < 1) return Status::error("profile: machine.cores must be at least 1");

  TESSERA_RETURN_IF_ERROR(read_gemm(*gemm, &p.gemm));

  if (!unary->is_object()) return Status::error("profile: unary_ns must be an object");
  Reader u(*unary, "unary_ns");
  for (auto it = unary->begin(); it != unary->end(); ++it) p.unary_ns[it.key()] = u.number(it.key().c_str());
  TESSERA_RETURN_IF_ERROR(u.status());

  if (!memory->is_array() || memory->empty()) return Status::error("profile: memory must be a non-empty array");
  for (size_t i = 0; i < memory->size(); ++i) {
    Reader level((*memory)[i], "memory[" + std::to_string(i) + "]");
    MemoryLevel l;
    l.name = level.text("name");
    l.bytes = level.integer("bytes");
    l.read_gbps = level.number("read_gbps");
    l.copy_gbps = level.number("copy_gbps");
    l.shared_gbps = level.number("shared_gbps");
    TESSERA_RETURN_IF_ERROR(level.status());
    p.memory.push_back(l);
  }

  if (!in_model->is_object()) return Status::error("profile: in_model must be an object");
  for (auto it = in_model->begin(); it != in_model->end(); ++it) {
    Reader f(it.value(), "in_model." + it.key());
    InModel fit{f.number("scale"), f.number("tile_ns", false) / 1e9, f.number("tap_ns", false) / 1e9};
    TESSERA_RETURN_IF_ERROR(f.status());
    p.in_model[it.key()] = fit;
  }

  Reader e(*executor, "executor_ns");
  p.executor.task = e.number("task", false) / 1e9;
  p.executor.edge = e.number("edge", false) / 1e9;
  p.executor.steal = e.number("steal", false) / 1e9;
  p.executor.wake = e.number("wake", false) / 1e9;
  p.executor.spin = e.number("spin", false) / 1e9;
  if (executor->contains("remote_input"))  // absent from profiles made before it was fitted
    p.executor.remote_input = e.number("remote_input", false) / 1e9;
  p.executor.run = e.number("run", false) / 1e9;
  p.executor.run_all = e.number("run_all", false) / 1e9;
  TESSERA_RETURN_IF_ERROR(e.status());
  if (doc.contains("transfer")) {  // absent from profiles made before transfers were measured
    Reader t(doc["transfer"], "transfer");
    p.transfer.message = t.number("message_ns", false) / 1e9;
    p.transfer.copy_gbps = t.number("copy_gbps", false);
    TESSERA_RETURN_IF_ERROR(t.status());
  }
  return p;
}

Status check_profile_matches(const Profile& profile, const std::string& isa, const std::string& build) {
  if (profile.isa == isa && profile.build == build) return {};
  return Status::error("profile was calibrated for " + profile.isa + " (" + profile.build + ") on " + profile.cpu +
                       ", but this model runs " + isa + " kernels (" + build + "): run `tessera calibrate --isa " +
                       isa + "` (or engine.calibrate() in that build)");
}

Profile uncalibrated_profile(const std::string& isa, const std::string& build) {
  // Orders of magnitude of a 2020s x86 core (AVX2): predictions are labelled uncalibrated.
  Profile p;
  p.calibrated = false;
  p.cpu = "unknown";
  p.isa = isa;
  p.build = build;
  p.gemm = {"unknown", 8, 16, {8, 256}, {16, 256}, {16, 1024}, {20, 40, 30, 50, 30, 60, 40, 80}};
  p.depthwise_gflops = 10;
  p.elementwise_ns = 0.2;
  p.softmax_ns = 1;
  p.normalize_ns = 1;
  p.pool_tap_ns = 0.1;
  p.permute_ns = 0.1;
  p.winograd_input_ns = p.winograd_output_ns = transform_ns_as_passes(kernels::kWinogradF4, p.elementwise_ns);
  p.winograd_f2_input_ns = p.winograd_f2_output_ns = transform_ns_as_passes(kernels::kWinogradF2, p.elementwise_ns);
  p.memory = {{"L1", 32 << 10, 100, 60, 100},
              {"L2", 1 << 20, 50, 30, 50},
              {"L3", 16 << 20, 30, 20, 60},
              {"DRAM", 0, 15, 10, 20}};
  p.executor = {1e-6, 2e-8, 1e-6, 2e-5, 1e-4, 2e-5, 5e-5};
  p.transfer = {2e-5, 10};
  return p;
}

}  // namespace tessera::plan
