// Plan files: one specialisation's tiling as JSON (docs/planning.md), so that a plan searched
// offline can ship with a model, and be checked against it when loaded.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/graph/graph.h"
#include "core/tiles/tiling_plan.h"
#include "tessera/engine.h"

namespace tessera {

struct SavedPlan {
  std::string model;
  InputDims inputs;  // the dims it was made for, in the model's input order
  struct Node {
    std::string name;
    std::string op;
    std::vector<int64_t> shape;
    std::vector<std::vector<int64_t>> cuts;
    std::string algorithm;  // ops::op_algorithm_name; empty: the op's own choice
  };
  std::vector<Node> nodes;   // the computing nodes (not views), in graph order
  bool reuse_memory = true;  // whether the arena shares bytes between tensors (absent: true)
};

std::string plan_file_json(const std::string& model, const InputDims& inputs, const graph::Graph& g,
                           const tiles::TilingPlan& plan, const PlanReport& report);

// Parses a plan file; errors name the field ("plan file: nodes[3].cuts: ...").
Result<SavedPlan> parse_plan_file(const std::string& text);

// OK when `saved` was made for the model named `model`; else the message names both.
Status saved_plan_matches_model(const SavedPlan& saved, const std::string& model);

// OK when `saved` was made for these input dims; else the message names both.
Status plan_matches_inputs(const SavedPlan& saved, const InputDims& inputs);

// Runs each node a plan entry names an algorithm for by that algorithm, where the node has
// it (saved_tiling refuses the plan where it has not).
void apply_saved_algorithms(const SavedPlan& saved, graph::Graph& g);

// The saved plan as a tiling of `g` (of the model it was made for), refused unless it has the
// same node names, ops, output shapes and algorithms in the same order, and cuts the ops allow
// for the kernels of `isa`.
Result<tiles::TilingPlan> saved_tiling(const SavedPlan& saved, const graph::Graph& g, Isa isa);

}  // namespace tessera
