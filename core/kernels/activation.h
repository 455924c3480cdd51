// The clamp every fused kernel applies at its store: relu is [0, inf), relu6 is [0, 6].
#pragma once

#include <limits>

namespace tessera::kernels {

struct MinMax {
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
  bool operator==(const MinMax&) const = default;
};

}  // namespace tessera::kernels
