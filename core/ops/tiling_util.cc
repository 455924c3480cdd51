// Tiling hints shared by ops whose tiles are plain blocks of memory.
#include "core/ops/tiling_util.h"

namespace tessera::ops {

TilingHints elementwise_tiling_hints(const Shape& shape, const Layout& layout) {
  return elementwise_tiling_hints(shape, layout, std::vector<bool>(shape.size(), false));
}

TilingHints elementwise_tiling_hints(const Shape& shape, const Layout& layout, const std::vector<bool>& keep_whole) {
  TilingHints hints;
  for (size_t p = 0; p + 1 < layout.perm.size(); ++p) {
    const int d = layout.perm[p];
    if (shape[d] > 1 && !keep_whole[d]) hints.dims.push_back({d, 1});
  }
  return hints;
}

}  // namespace tessera::ops
