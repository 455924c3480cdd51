// ModelDesc -> Graph: every node parsed by its op (attributes, shapes), then optimised.
#pragma once

#include "core/graph/graph.h"
#include "core/model/model_desc.h"
#include "tessera/status.h"

namespace tessera::graph {

// Parses and shape-checks every node; the graph's declared output shapes must match.
Result<Graph> build_graph(const model::ModelDesc& model);

// The passes, in order: fold/lower BatchNorm, fold constants, recognise activations,
// fuse epilogues, assign layouts, alias views, drop dead nodes. Failures are internal
// invariants only.
Status optimize(Graph& graph);

}  // namespace tessera::graph
