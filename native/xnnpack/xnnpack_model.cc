// Loading a model through Tessera's graph passes and cutting it into stages: XNNPACK
// subgraphs between the relayouts that move bytes, with buffers where tensors cross.
#include "native/xnnpack/xnnpack_model.h"

#include <algorithm>
#include <cstring>

#include "core/graph/build.h"
#include "core/model/load.h"
#include "native/xnnpack/xnnpack_subgraph.h"
#include "native/xnnpack/xnnpack_support.h"

namespace tessera::xnnpack {

Status initialize_xnnpack() {
  static const enum xnn_status status = xnn_initialize(nullptr);  // once; the library stays up
  if (status != xnn_status_success) return Status::error("xnnpack baseline: xnn_initialize failed (unsupported CPU?)");
  return Status();
}

// Builds an XnnpackModel from a graph: classification, stages, buffers, subgraphs.
class Translator {
 public:
  Translator(XnnpackModel& m, const graph::Graph& g) : m_(m), g_(g) {}

  Status run() {
    TESSERA_RETURN_IF_ERROR(check_supported());
    plan_stages();
    TESSERA_RETURN_IF_ERROR(assign_buffers());
    for (size_t s = 0; s < m_.stages_.size(); ++s) {
      switch (m_.stages_[s].kind) {
        case StageKind::kSubgraph: TESSERA_RETURN_IF_ERROR(build_subgraph(static_cast<int>(s))); break;
        case StageKind::kRelayout: build_relayout(static_cast<int>(s)); break;
        case StageKind::kConcat: build_concat(static_cast<int>(s)); break;
      }
    }
    return Status();
  }

 private:
  // One error listing every op kind XNNPACK cannot express, with counts, in graph order.
  Status check_supported() {
    std::vector<std::pair<std::string, int>> missing;
    roles_.resize(g_.nodes.size());
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      const NodeSupport s = classify_node(g_, g_.nodes[n]);
      roles_[n] = s.role;
      if (s.role != NodeRole::kUnsupported) continue;
      auto it = std::find_if(missing.begin(), missing.end(), [&](const auto& p) { return p.first == s.unsupported; });
      if (it == missing.end()) {
        missing.push_back({s.unsupported, 1});
      } else {
        ++it->second;
      }
    }
    for (int output : g_.outputs) {
      if (g_.tensors[output].producer < 0)
        missing.push_back({"output \"" + g_.tensors[output].name + "\" not computed", 1});
    }
    if (missing.empty()) return Status();
    std::string list;
    for (const auto& [what, count] : missing) list += (list.empty() ? "" : ", ") + what + " x" + std::to_string(count);
    return Status::error("xnnpack baseline: unsupported ops: " + list);
  }

  // Consecutive XNNPACK nodes share a subgraph; each byte-moving relayout or Concat is a stage.
  void plan_stages() {
    node_stage_.assign(g_.nodes.size(), -1);
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      const StageKind kind = roles_[n] == NodeRole::kRelayout ? StageKind::kRelayout
                             : roles_[n] == NodeRole::kConcat ? StageKind::kConcat
                                                              : StageKind::kSubgraph;
      if (kind != StageKind::kSubgraph || m_.stages_.empty() || m_.stages_.back().kind != StageKind::kSubgraph) {
        m_.stages_.push_back(Stage{kind, {}, {}, {}});
        stage_nodes_.emplace_back();
      }
      node_stage_[n] = static_cast<int>(m_.stages_.size()) - 1;
      stage_nodes_.back().push_back(static_cast<int>(n));
    }
  }

  int stage_of_tensor(int tensor) const {
    const int producer = g_.tensors[tensor].producer;
    return producer < 0 ? -1 : node_stage_[producer];
  }

  // Graph inputs and outputs, and tensors read in another stage than the one computing them.
  Status assign_buffers() {
    buffer_of_.assign(g_.tensors.size(), -1);
    auto add = [&](int tensor) {
      if (buffer_of_[tensor] >= 0) return;
      const graph::Tensor& t = g_.tensors[tensor];
      buffer_of_[tensor] = static_cast<int>(m_.buffers_.size());
      m_.buffers_.push_back({t.name, t.shape, ops::element_count(t.shape)});
    };
    for (int input : g_.inputs) {
      add(input);
      m_.inputs_.push_back(buffer_of_[input]);
    }
    for (int output : g_.outputs) {
      add(output);
      m_.outputs_.push_back(buffer_of_[output]);
    }
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      for (int input : g_.nodes[n].inputs) {
        if (input >= 0 && !g_.tensors[input].is_constant() && stage_of_tensor(input) != node_stage_[n]) add(input);
      }
    }
    return Status();
  }

  Status build_subgraph(int s) {
    // External values: buffered tensors this stage reads from elsewhere or computes.
    std::vector<int> read, written;
    std::vector<bool> seen(g_.tensors.size(), false);
    for (int n : stage_nodes_[s]) {
      for (int input : g_.nodes[n].inputs) {
        if (input >= 0 && buffer_of_[input] >= 0 && stage_of_tensor(input) != s && !seen[input]) {
          seen[input] = true;
          read.push_back(input);
        }
      }
      const int out = g_.nodes[n].output;
      if (buffer_of_[out] >= 0) written.push_back(out);
    }
    SubgraphStage& stage = m_.stages_[s].subgraph;
    const uint32_t externals = static_cast<uint32_t>(read.size() + written.size());
    if (xnn_create_subgraph(externals, 0, &stage.subgraph) != xnn_status_success) {
      return Status::error("xnnpack baseline: xnn_create_subgraph failed");
    }
    SubgraphBuilder builder(g_, stage.subgraph, m_.static_data_);
    uint32_t id = 0;
    for (int tensor : read) {
      TESSERA_RETURN_IF_ERROR(builder.define_external(tensor, id++, /*is_input=*/true));
      stage.externals.push_back(buffer_of_[tensor]);
    }
    for (int tensor : written) {
      TESSERA_RETURN_IF_ERROR(builder.define_external(tensor, id++, /*is_input=*/false));
      stage.externals.push_back(buffer_of_[tensor]);
    }
    for (int n : stage_nodes_[s]) TESSERA_RETURN_IF_ERROR(builder.emit(g_.nodes[n], g_.path(n)));
    m_.xnn_nodes_ += builder.nodes_defined();
    return Status();
  }

  void build_relayout(int s) {
    const graph::Node& node = g_.nodes[stage_nodes_[s][0]];
    const graph::Tensor& in = g_.tensors[node.inputs[0]];
    const graph::Tensor& out = g_.tensors[node.output];
    RelayoutStage& r = m_.stages_[s].relayout;
    r.input = buffer_of_[node.inputs[0]];
    r.output = buffer_of_[node.output];
    r.copy = plan_permuted_copy(in.shape, in.layout, out.layout);
  }

  void build_concat(int s) {
    const graph::Node& node = g_.nodes[stage_nodes_[s][0]];
    const graph::Tensor& out = g_.tensors[node.output];
    const int axis = std::get<ops::ConcatAttrs>(node.attrs).axis;
    const std::vector<int>& perm = out.layout.perm;
    const auto position = std::find(perm.begin(), perm.end(), axis) - perm.begin();
    // Elements from the axis on, in memory order: a row of the tensor seen as rows.
    auto row_floats = [&](const graph::Tensor& t) {
      const std::vector<int64_t> dims = physical_dims(t.shape, t.layout);
      int64_t floats = 1;
      for (size_t d = static_cast<size_t>(position); d < dims.size(); ++d) floats *= dims[d];
      return floats;
    };
    ConcatStage& c = m_.stages_[s].concat;
    c.output = buffer_of_[node.output];
    c.row_floats = row_floats(out);
    c.rows = c.row_floats == 0 ? 0 : ops::element_count(out.shape) / c.row_floats;
    int64_t offset = 0;
    for (int input : node.inputs) {
      const int64_t columns = row_floats(g_.tensors[input]);
      if (columns > 0) c.parts.push_back({buffer_of_[input], columns, offset});
      offset += columns;
    }
  }

  XnnpackModel& m_;
  const graph::Graph& g_;
  std::vector<NodeRole> roles_;
  std::vector<int> node_stage_;
  std::vector<std::vector<int>> stage_nodes_;
  std::vector<int> buffer_of_;
};

XnnpackModel::~XnnpackModel() {
  for (Stage& s : stages_) {
    if (s.kind == StageKind::kSubgraph && s.subgraph.subgraph != nullptr) xnn_delete_subgraph(s.subgraph.subgraph);
  }
}

Result<std::unique_ptr<XnnpackModel>> XnnpackModel::translate(graph::Graph graph) {
  TESSERA_RETURN_IF_ERROR(initialize_xnnpack());
  std::unique_ptr<XnnpackModel> model(new XnnpackModel());
  model->name_ = graph.name;
  // Every static value is a copy (repacked or rearranged), so the graph and its weights go.
  TESSERA_RETURN_IF_ERROR(Translator(*model, graph).run());
  return model;
}

namespace {

Result<std::unique_ptr<XnnpackModel>> from_text(const std::string& text, AlignedBuffer weights) {
  TESSERA_ASSIGN_OR_RETURN(model::ModelDesc desc, model::load_model(text, std::move(weights)));
  TESSERA_ASSIGN_OR_RETURN(graph::Graph g, graph::build_graph(desc));
  TESSERA_RETURN_IF_ERROR(graph::optimize(g));
  return XnnpackModel::translate(std::move(g));
}

}  // namespace

Result<std::unique_ptr<XnnpackModel>> XnnpackModel::load(const std::string& json_text,
                                                         const std::vector<uint8_t>& weights) {
  AlignedBuffer aligned = AlignedBuffer::allocate(weights.size());
  if (!weights.empty() && aligned.data() == nullptr) return Status::error("out of memory for the weights");
  if (!weights.empty()) std::memcpy(aligned.data(), weights.data(), weights.size());
  return from_text(json_text, std::move(aligned));
}

Result<std::unique_ptr<XnnpackModel>> XnnpackModel::load_file(const std::string& path) {
  TESSERA_ASSIGN_OR_RETURN(model::ModelFiles files, model::read_model_files(path));
  return from_text(files.json, std::move(files.weights));
}

}  // namespace tessera::xnnpack
