// One stage of a placed model as a graph of its own: the compiled nodes placed on it, the views
// they read through, the tensors it receives from earlier stages (or the caller) as its inputs
// and the ones later stages (or the caller) read as its outputs. Its constants point into the
// model's graph, which must outlive it.
#pragma once

#include <vector>

#include "core/graph/graph.h"

namespace tessera {

// `in_stage[n]`: graph node n is one of the stage's compiled nodes (views and relayouts that
// own no tiles are added where the stage reads through them, and may be in several stages).
// Tensors it receives and sends keep their names, shapes and physical layouts: a stage's
// output bytes are the next stage's input bytes.
graph::Graph stage_graph(const graph::Graph& g, const std::vector<bool>& in_stage);

// A run of one stage's nodes, as stage_graph takes them.
struct StageSegment {
  size_t stage = 0;
  std::vector<bool> in_segment;  // over the graph's nodes
};

// The segments stages run in, in order: `stage_of` (per graph node, its stage, or -1 for a
// node that owns no tiles) cut along a topological order that stays on one stage while it has
// a ready node, and otherwise goes to the earliest stage that has one. A contiguous placement
// gives its stages whole and in order; in one that is not, a tensor going back to an earlier
// stage makes that stage run again, in a segment of its own.
std::vector<StageSegment> stage_segments(const graph::Graph& g, const std::vector<int>& stage_of);

}  // namespace tessera
