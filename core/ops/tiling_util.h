// Tiling hints shared by ops whose tiles are plain blocks of memory.
#pragma once

#include "core/ops/op_contract.h"

namespace tessera::ops {

// Split outer memory dimensions first; never the innermost (it is the vectorised run).
TilingHints elementwise_tiling_hints(const Shape& shape, const Layout& layout);

// Same, but never splitting the logical dimensions in `keep_whole` (e.g. a softmax axis).
TilingHints elementwise_tiling_hints(const Shape& shape, const Layout& layout, const std::vector<bool>& keep_whole);

}  // namespace tessera::ops
