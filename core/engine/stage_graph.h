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

}  // namespace tessera
