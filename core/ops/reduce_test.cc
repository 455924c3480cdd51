// The Reduce family against the reference: every kind over several axis sets, keepdims,
// axes as attribute and as input, and the noop with empty axes.
#include <catch2/catch.hpp>

#include "tests/support/engine_check.h"

namespace tessera::testing {
namespace {

const char* const kReduceOps[] = {"ReduceSum", "ReduceMax",    "ReduceMin",       "ReduceProd",      "ReduceL1",
                                  "ReduceL2",  "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", "ReduceMean"};

TEST_CASE("every reduce kind matches the reference over axes and keepdims") {
  const std::vector<std::vector<int64_t>> axes_sets = {{1}, {2, 3}, {0, -1}, {0, 1, 2, 3}};
  uint32_t seed = 1;
  for (const char* op : kReduceOps) {
    INFO(op);
    ModelBuilder b(seed++);
    // Positive values keep LogSum defined and Prod well scaled.
    const bool positive = std::string(op) == "ReduceLogSum" || std::string(op) == "ReduceProd";
    const auto x = b.input({3, 4, 5, 2}, positive ? 0.5f : -2.0f, positive ? 1.5f : 2.0f);
    std::vector<std::string> outputs;
    for (const auto& axes : axes_sets) {
      for (int keepdims = 0; keepdims < 2; ++keepdims) {
        outputs.push_back(b.node(op, {x, b.ints(axes)}, {{"keepdims", keepdims}}));
      }
    }
    outputs.push_back(b.node(op, {x}, {{"axes", {1, 3}}}));             // opset < 18 attribute
    outputs.push_back(b.node(op, {x}));                                 // all axes
    outputs.push_back(b.node(op, {x}, {{"noop_with_empty_axes", 1}}));  // no axes at all
    CHECK(b.shape_of(outputs[2]) == Dims{3, 4});
    CHECK(b.shape_of(outputs[3]) == Dims{3, 4, 1, 1});
    CHECK(b.shape_of(outputs[6]) == Dims{1});
    check_against_reference(b.build(outputs), {.tolerance = 1e-6, .threads = {2}});
  }
}

TEST_CASE("reduce kinds compute the ONNX values") {
  const std::vector<std::pair<std::string, float>> expected = {
      {"ReduceSum", 2},
      {"ReduceMax", 3},
      {"ReduceMin", -2},
      {"ReduceProd", -6},
      {"ReduceL1", 6},
      {"ReduceL2", std::sqrt(14.0f)},
      {"ReduceSumSquare", 14},
      {"ReduceMean", 2.0f / 3},
      {"ReduceLogSumExp", std::log(std::exp(1.0f) + std::exp(-2.0f) + std::exp(3.0f))}};
  for (const auto& [op, value] : expected) {
    INFO(op);
    ModelBuilder b(1);
    TestModel model = b.build({b.node(op, {b.input({1, 3})}, {{"keepdims", 0}})});
    model.inputs[0] = Tensor(model.inputs[0].name, model.inputs[0].dims, {1, -2, 3});
    const auto out = check_against_reference(model, {.tolerance = 1e-6, .threads = {1}});
    CHECK(out[0].floats()[0] == Approx(value).epsilon(1e-6));
  }
}

}  // namespace
}  // namespace tessera::testing
