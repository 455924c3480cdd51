// Subnormal float constants become zero. Trained weights can hold many: a fifth of the
// weights of PP-OCRv4 rec's squeeze-excite convolutions are below 2^-126 in magnitude. On
// Intel cores every multiply meeting one takes a microcode assist of about a hundred cycles
// (one 0.1 MFLOP convolution of rec took 2 ms), natively and in WebAssembly alike. What they
// add to any normal output is below its float resolution.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/graph/passes.h"

namespace tessera::graph {

namespace {

bool is_subnormal(float v) { return std::fpclassify(v) == FP_SUBNORMAL; }

}  // namespace

void flush_subnormal_constants(Graph& g) {
  for (Tensor& t : g.tensors) {
    if (!t.is_constant() || t.dtype != model::DType::kFloat32) continue;
    const float* values = t.floats();
    const auto count = static_cast<size_t>(ops::element_count(t.shape));
    if (std::none_of(values, values + count, is_subnormal)) continue;
    std::vector<float> flushed(values, values + count);
    std::replace_if(flushed.begin(), flushed.end(), is_subnormal, 0.0f);
    t.constant = g.keep(std::move(flushed));
  }
}

}  // namespace tessera::graph
