// CPU feature detection through the compiler's cpuid wrapper, which also checks that the
// OS saves the vector registers (xgetbv), so a kernel is never picked that would fault.
#include "core/base/cpu_features.h"

namespace tessera {

namespace {

Isa detect() {
#if defined(__EMSCRIPTEN__)
#if defined(__wasm_simd128__)
  return Isa::kWasmSimd128;
#else
  return Isa::kScalar;
#endif
#elif defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl")) {
    return Isa::kAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::kAvx2Fma;
  return Isa::kScalar;
#else
  return Isa::kScalar;
#endif
}

}  // namespace

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::kScalar: return "scalar";
    case Isa::kWasmSimd128: return "wasm-simd128";
    case Isa::kAvx2Fma: return "avx2";
    case Isa::kAvx512: return "avx512";
  }
  return "?";
}

bool parse_isa(std::string_view name, Isa* isa) {
  for (Isa candidate : {Isa::kScalar, Isa::kWasmSimd128, Isa::kAvx2Fma, Isa::kAvx512}) {
    if (isa_name(candidate) == name) {
      *isa = candidate;
      return true;
    }
  }
  return false;
}

Isa detected_isa() {
  static const Isa isa = detect();
  return isa;
}

bool isa_supported(Isa isa) {
  const Isa best = detected_isa();
  if (isa == Isa::kScalar) return true;
  if (isa == Isa::kWasmSimd128) return best == Isa::kWasmSimd128;
  if (best == Isa::kWasmSimd128) return false;
  return static_cast<int>(isa) <= static_cast<int>(best);
}

}  // namespace tessera
