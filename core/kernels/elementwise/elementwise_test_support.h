// What the elementwise kernel tests share: the kernel entries this CPU can run, and the special
// floats they probe.
#pragma once

#include <limits>
#include <vector>

#include "core/kernels/elementwise/elementwise.h"

namespace tessera::kernels {

inline constexpr float kInf = std::numeric_limits<float>::infinity();
inline constexpr float kFltMin = std::numeric_limits<float>::min();

inline std::vector<const ElementwiseKernels*> supported_kernels() {
  std::vector<const ElementwiseKernels*> kernels;
  for (const ElementwiseKernels& k : elementwise_kernels()) {
    if (isa_supported(k.isa)) kernels.push_back(&k);
  }
  return kernels;
}

}  // namespace tessera::kernels
