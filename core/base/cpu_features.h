// The instruction sets this process may use, detected once; kernels dispatch on them.
#pragma once

#include <span>
#include <string_view>

namespace tessera {

// Ordered from least to most capable; a kernel list is tried best-first.
enum class Isa { kScalar, kWasmSimd128, kAvx2Fma, kAvx512 };

std::string_view isa_name(Isa isa);
bool parse_isa(std::string_view name, Isa* isa);

// The best ISA the CPU and OS support (AVX-512 needs F+BW+DQ+VL and OS-enabled zmm state).
Isa detected_isa();

// True when kernels compiled for `isa` can run here.
bool isa_supported(Isa isa);

// The first entry of a best-first kernel list that runs here and needs at most `max_isa`;
// every list ends with its scalar entry, which runs everywhere.
template <class Kernel>
const Kernel& best_runnable(std::span<const Kernel> list, Isa max_isa) {
  for (const Kernel& kernel : list) {
    if (isa_supported(kernel.isa) && kernel.isa <= max_isa) return kernel;
  }
  return list.back();
}

}  // namespace tessera
