// A placed model cut into one model per stage, in the model format itself: what a worker
// with its own WebAssembly instance loads (its nodes, and only the weights they read, gathered
// from the model's weights file); a stage whose nodes are not contiguous gives a model per
// segment (stage_segments). The cut follows the compiled stages: a stage's model holds
// the source nodes its compiled nodes were made from, views and shape arithmetic they read
// through, and, for a layer split into column pieces, its pieces (and the activations fused
// into them) with their columns of the weights, joined again by a Concat.
#pragma once

#include "core/engine/compiled_model.h"
#include "tessera/placement.h"

namespace tessera {

// Places `model` at `dims` as Model::place does, then cuts its stages into models.
Result<StagedModel> place_stage_models(const CompiledModel& model, const InputDims& dims, const PlaceOptions& options);

}  // namespace tessera
