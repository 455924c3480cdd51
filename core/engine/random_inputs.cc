// Seeded random inputs for any model's inputs: floats in [-1, 1), integers in range of what
// they index.
#include <random>
#include <variant>

#include "core/engine/compiled_model.h"
#include "core/ops/geometry.h"

namespace tessera {

namespace {

// Fills `t` with values uniform in [lo, hi) (floats) or [lo, hi] (integers, bools).
void fill(Tensor& t, std::mt19937_64& engine, int64_t lo, int64_t hi) {
  t.bytes.resize(static_cast<size_t>(t.element_count()) * dtype_size(t.dtype));
  // 53 random bits scaled to [0, 2) is exact in double, so only the final rounding remains.
  for (float& v : t.values<float>()) v = static_cast<float>(static_cast<double>(engine() >> 11) * 0x1p-52 - 1.0);
  const auto pick = [&] { return lo + static_cast<int64_t>(engine() % static_cast<uint64_t>(hi - lo + 1)); };
  for (int64_t& v : t.values<int64_t>()) v = pick();
  for (int32_t& v : t.values<int32_t>()) v = static_cast<int32_t>(pick());
  for (uint8_t& v : t.values<uint8_t>()) v = static_cast<uint8_t>(pick());
}

// The number of rows of the first table `input` indexes through a Gather, or 0.
int64_t indexed_rows(const graph::Graph& g, int input) {
  for (const graph::Node& node : g.nodes) {
    const auto* gather = std::get_if<ops::GatherAttrs>(&node.attrs);
    if (gather && node.inputs.size() > 1 && node.inputs[1] == input) {
      return g.tensors[node.inputs[0]].shape[gather->axis];
    }
  }
  return 0;
}

}  // namespace

std::vector<Tensor> random_inputs(const std::vector<Tensor>& specs, uint64_t seed) {
  std::mt19937_64 engine(seed);  // fully specified by the standard: the same values everywhere
  std::vector<Tensor> inputs;
  for (const Tensor& spec : specs) {
    Tensor t = Tensor::spec(spec.name, spec.dims, spec.dtype);
    fill(t, engine, 0, 1);
    inputs.push_back(std::move(t));
  }
  return inputs;
}

Result<std::vector<Tensor>> CompiledModel::random_inputs(const InputDims& dims, uint64_t seed) const {
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<const Specialization> s, specialize(dims));
  std::mt19937_64 engine(seed);
  std::vector<Tensor> inputs;
  for (int id : s->graph.inputs) {
    const graph::Tensor& spec = s->graph.tensors[id];
    Tensor t = Tensor::spec(spec.name, spec.shape, spec.dtype);
    const int64_t rows = spec.dtype == DType::kFloat32 ? 0 : indexed_rows(s->graph, id);
    fill(t, engine, 0, rows > 0 ? rows - 1 : 1);
    inputs.push_back(std::move(t));
  }
  return inputs;
}

}  // namespace tessera
