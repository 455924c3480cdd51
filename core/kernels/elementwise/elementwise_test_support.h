// What the elementwise kernel tests share: the kernel entries this CPU can run.
#pragma once

#include <vector>

#include "core/kernels/elementwise/elementwise.h"

namespace tessera::kernels {

inline std::vector<const ElementwiseKernels*> supported_kernels() {
  std::vector<const ElementwiseKernels*> kernels;
  for (const ElementwiseKernels& k : elementwise_kernels()) {
    if (isa_supported(k.isa)) kernels.push_back(&k);
  }
  return kernels;
}

}  // namespace tessera::kernels
