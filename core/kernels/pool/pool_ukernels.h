// The per-ISA pooling kernels (pool_<isa>.cc); only pool.cc's list names them.
#pragma once

#include <cstddef>

#include "core/kernels/pool/pool.h"

namespace tessera::kernels {

#define TESSERA_POOL_KERNEL(name)                                                                            \
  void name(const PoolGeometry& g, const float* x, float* y, size_t oh_begin, size_t oh_end, size_t c_begin, \
            size_t c_end)
#define TESSERA_GLOBAL_POOL_KERNEL(name) \
  void name(size_t pixels, size_t channels, const float* x, float* y, size_t c_begin, size_t c_end)

TESSERA_POOL_KERNEL(f32_max_pool_avx512);
TESSERA_POOL_KERNEL(f32_average_pool_avx512);
TESSERA_GLOBAL_POOL_KERNEL(f32_global_average_pool_avx512);

TESSERA_POOL_KERNEL(f32_max_pool_avx2);
TESSERA_POOL_KERNEL(f32_average_pool_avx2);
TESSERA_GLOBAL_POOL_KERNEL(f32_global_average_pool_avx2);

TESSERA_POOL_KERNEL(f32_max_pool_scalar);
TESSERA_POOL_KERNEL(f32_average_pool_scalar);
TESSERA_GLOBAL_POOL_KERNEL(f32_global_average_pool_scalar);

TESSERA_POOL_KERNEL(f32_max_pool_wasm128);
TESSERA_POOL_KERNEL(f32_average_pool_wasm128);
TESSERA_GLOBAL_POOL_KERNEL(f32_global_average_pool_wasm128);

}  // namespace tessera::kernels
