// Seeded random inputs for any model's input shapes.
#include <random>

#include "core/ops/geometry.h"
#include "tessera/engine.h"

namespace tessera {

std::vector<Tensor> random_inputs(const std::vector<Tensor>& specs, uint64_t seed) {
  std::mt19937_64 engine(seed);  // fully specified by the standard: the same values everywhere
  std::vector<Tensor> inputs;
  for (const Tensor& spec : specs) {
    Tensor t{spec.name, spec.dims, std::vector<float>(ops::element_count(spec.dims))};
    // 53 random bits scaled to [0, 2) is exact in double, so only the final rounding remains.
    for (float& v : t.data) v = static_cast<float>(static_cast<double>(engine() >> 11) * 0x1p-52 - 1.0);
    inputs.push_back(std::move(t));
  }
  return inputs;
}

}  // namespace tessera
