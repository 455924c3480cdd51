// Folding a per-output-channel affine (y * scale + shift) into a Conv or ConvTranspose: what
// BatchNorm folding and constant Mul / Add fusion share.
#pragma once

#include <vector>

#include "core/graph/graph.h"

namespace tessera::graph {

bool is_convolution(const Node& node);

// Output channels of a Conv / ConvTranspose node.
int64_t output_channels(const Graph& g, const Node& conv);

// Gives the node a weight scale (weight_scale_input, multiplied into the weights as they are
// packed, so no scaled copy of them is kept) and a new bias (adding one if it had none), so
// that it computes its old output * scale[m] + shift[m] for each output channel m.
void fold_channel_affine(Graph& g, Node& conv, const std::vector<float>& scale, const std::vector<float>& shift);

}  // namespace tessera::graph
