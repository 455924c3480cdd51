// Folding a per-output-channel affine (y * scale + shift) into a Conv or ConvTranspose's
// weights and bias: what BatchNorm folding and constant Mul / Add fusion share.
#pragma once

#include <vector>

#include "core/graph/graph.h"

namespace tessera::graph {

bool is_convolution(const Node& node);

// Output channels of a Conv / ConvTranspose node.
int64_t output_channels(const Graph& g, const Node& conv);

// Replaces the node's weights and bias (adding a bias if it had none) so that it computes
// its old output * scale[m] + shift[m] for each output channel m.
void fold_channel_affine(Graph& g, Node& conv, const std::vector<float>& scale, const std::vector<float>& shift);

}  // namespace tessera::graph
