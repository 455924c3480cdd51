// SubgraphBuilder: the XNNPACK values and nodes expressing graph nodes, one subgraph at a time.
#pragma once

#include <xnnpack.h>

#include <deque>
#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "tessera/status.h"

namespace tessera::xnnpack {

// "invalid parameter", for messages.
const char* xnn_status_name(enum xnn_status status);

// Defines the values and nodes of one XNNPACK subgraph from graph nodes, in order. Repacked
// constants go to `static_data`, which must outlive the subgraph and its runtimes.
class SubgraphBuilder {
 public:
  SubgraphBuilder(const graph::Graph& g, xnn_subgraph_t subgraph, std::deque<std::vector<float>>& static_data);

  // A run-time tensor bound to a runner buffer: external value `external_id`.
  Status define_external(int tensor, uint32_t external_id, bool is_input);
  // Emits a node that classify_node accepted as kXnnpack; `path` names it in messages.
  Status emit(const graph::Node& node, const std::string& path);
  int nodes_defined() const { return nodes_; }

 private:
  Status check(enum xnn_status status, const char* what);
  Result<uint32_t> define_value(const std::vector<int64_t>& dims, const float* data, uint32_t external_id,
                                uint32_t flags);
  Result<uint32_t> internal(const std::vector<int64_t>& dims) {
    return define_value(dims, nullptr, XNN_INVALID_VALUE_ID, 0);
  }
  Result<uint32_t> constant(const std::vector<int64_t>& dims, std::vector<float> data);
  // The node's output value (defined now unless it is external).
  Result<uint32_t> output_value(const graph::Node& node);
  // Tensor `operand` as a value that broadcasts (numpy rules) against `out`'s physical dims.
  Result<uint32_t> operand(int operand, const graph::Tensor& out, float scale = 1.0f);
  // y = activation(clamp(x + residual)) after `produce(x, clamp)` computed x: the fused epilogue.
  template <class Produce>
  Status with_epilogue(const ops::Epilogue& e, uint32_t residual, uint32_t out, const std::vector<int64_t>& dims,
                       bool producer_clamps, Produce&& produce);
  Status emit_unary(kernels::UnaryOp op, const kernels::UnaryParams& params, uint32_t in, uint32_t out,
                    const std::vector<int64_t>& dims);

  Status emit_conv(const graph::Node& node);
  Status emit_matmul(const graph::Node& node);
  Status emit_pool(const graph::Node& node);
  Status emit_binary(const graph::Node& node);
  Status emit_deconvolution(const graph::Node& node);

  const graph::Graph& g_;
  xnn_subgraph_t subgraph_;
  std::deque<std::vector<float>>& static_data_;
  std::vector<uint32_t> values_;  // per graph tensor; XNN_INVALID_VALUE_ID until defined
  std::string path_;
  int nodes_ = 0;
};

}  // namespace tessera::xnnpack
