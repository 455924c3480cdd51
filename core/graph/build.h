// ModelDesc -> Graph for one binding of the input dims (a specialisation): every node parsed
// by its op (attributes, shapes, dtypes); nodes computable from shapes and constants alone
// are evaluated on the spot, then the graph is optimised.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/base/constant_store.h"
#include "core/graph/graph.h"
#include "core/model/model_desc.h"
#include "tessera/status.h"

namespace tessera::graph {

// Concrete dims for every model input (in the model's order) and the symbols they bind.
struct InputBinding {
  std::vector<Shape> shapes;
  std::map<std::string, int64_t> symbols;
};

// Checks `given` (name -> dims) against the declared inputs: every input given once, the
// same rank, fixed dims equal, one value per symbol. Errors name the input, the dim and
// both values.
Result<InputBinding> bind_inputs(const std::vector<model::ValueInfo>& declared,
                                 const std::vector<std::pair<std::string, Shape>>& given);
// The binding of a model whose inputs have only fixed dims; fails naming a symbolic dim.
Result<InputBinding> static_binding(const std::vector<model::ValueInfo>& declared);

// Parses and shape-checks every node for `binding`; the computed outputs must match the
// declared dims (fixed ones, and symbols the inputs bind). Constants the graph computes are
// interned in `store` (shared by the model's specialisations).
Result<Graph> build_graph(const model::ModelDesc& model, const InputBinding& binding,
                          std::shared_ptr<ConstantStore> store);
// For models with only fixed input dims.
Result<Graph> build_graph(const model::ModelDesc& model);

// The passes, in order: fold/lower BatchNorm, fold constants, recognise activations,
// fuse epilogues, assign layouts, alias views, drop dead nodes. Failures are internal
// invariants only.
Status optimize(Graph& graph);

}  // namespace tessera::graph
