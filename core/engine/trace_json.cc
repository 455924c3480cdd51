// Chrome / Perfetto trace export of a run's tile timeline.
#include <nlohmann/json.hpp>

#include "tessera/engine.h"

namespace tessera {

std::string chrome_trace_json(const ModelInfo& info, const std::vector<TileEvent>& events) {
  nlohmann::json trace = nlohmann::json::array();
  uint32_t threads = 0;
  for (const TileEvent& e : events) {
    const NodeInfo& node = info.nodes[e.node];
    threads = std::max(threads, e.thread + 1);
    trace.push_back({{"name", node.name},
                     {"cat", node.op},
                     {"ph", "X"},
                     {"pid", 1},
                     {"tid", e.thread},
                     {"ts", static_cast<double>(e.start_ns) / 1000.0},
                     {"dur", static_cast<double>(e.end_ns - e.start_ns) / 1000.0},
                     {"args", {{"tile", e.tile}, {"op", node.op}, {"kernel", node.kernel}}}});
  }
  for (uint32_t t = 0; t < threads; ++t) {
    trace.push_back({{"name", "thread_name"},
                     {"ph", "M"},
                     {"pid", 1},
                     {"tid", t},
                     {"args", {{"name", "executor " + std::to_string(t)}}}});
  }
  nlohmann::json root = {{"traceEvents", trace}, {"displayTimeUnit", "ms"}, {"otherData", {{"model", info.name}}}};
  return root.dump();
}

}  // namespace tessera
