// Graph passes. Each keeps the graph valid and in topological order; removed nodes are
// dropped by remove_dead_nodes, which runs last.
#pragma once

#include "core/graph/graph.h"

namespace tessera::graph {

// BatchNormalization after a Conv (its only reader) folds into the Conv's weights and bias;
// any other BatchNormalization becomes a per-channel Mul and Add.
void fold_batch_norm(Graph& g);

// Nodes whose inputs are all constants are evaluated now, by their reference kernels.
void fold_constants(Graph& g);

// Chains of elementwise ops that spell out HardSwish or Gelu become that one op.
void recognize_activations(Graph& g);

// Convolution, MatMul and binary nodes absorb what follows them when they are its only
// input: constant per-channel Add / Mul (into weights and bias), a residual Add, a scale by a
// constant scalar, one activation, and a scalar affine after it.
void fuse_epilogues(Graph& g);

// Subnormal values of float constants (weights, and what the passes above folded) become
// zero: multiplying by one is a hundred times slower on some cores.
void flush_subnormal_constants(Graph& g);

// Gives every tensor a memory layout (NHWC around convolutions and pools, row-major
// elsewhere), inserting Relayout nodes where a consumer needs another layout.
void assign_layouts(Graph& g);

// Views, and relayouts that do not move bytes, alias their input's storage.
void alias_views(Graph& g);

// MatMul and Gemm nodes whose constant weights take more than `max_weight_bytes` become column
// pieces under it, joined by a Concat named like the node (how the placement planner puts a
// layer larger than a worker on several). Runs after the passes above; nodes with a residual
// epilogue, or outputs that are not row-major matrices, stay whole. Returns how many split.
int split_wide_nodes(Graph& g, int64_t max_weight_bytes);
// How many nodes split_wide_nodes would split, without reading any weights.
int count_wide_nodes(const Graph& g, int64_t max_weight_bytes);

// Drops nodes whose output nobody reads (fused nodes, folded constants, dead code).
void remove_dead_nodes(Graph& g);

}  // namespace tessera::graph
