// What the caches must hold for a node to find its inputs: its own bytes along a chain, the
// bytes touched since for an input made long before.
#include <catch2/catch.hpp>

#include "core/graph/build.h"
#include "core/model/load.h"
#include "core/tiles/data_reach.h"
#include "tests/support/op_model.h"

namespace tessera::tiles {
namespace {

TEST_CASE("data_reach_bytes counts what was touched since an input was made") {
  testing::ModelBuilder b(1);
  const std::string x = b.input({1, 8, 32, 32});
  std::string y = x;
  for (int i = 0; i < 3; ++i) y = b.node("Softmax", {y}, {{"axis", -1}});
  const testing::TestModel m = b.build({b.node("Add", {y, x})});
  auto desc = model::load_model(m.json, AlignedBuffer::allocate(0));
  REQUIRE(desc.ok());
  auto g = graph::build_graph(*desc);
  REQUIRE(g.ok());
  REQUIRE(graph::optimize(*g).ok());

  const std::vector<int64_t> reach = data_reach_bytes(*g);
  REQUIRE(reach.size() == g->nodes.size());
  const int64_t tensor = 8 * 32 * 32 * 4;
  std::vector<int64_t> softmax, add;
  for (size_t n = 0; n < g->nodes.size(); ++n) (g->nodes[n].op == "Add" ? add : softmax).push_back(reach[n]);
  // Along the chain each node reaches its input and output; the Add reaches back to the graph
  // input: the input itself and the three softmaxes' inputs and outputs since (1 + 3 x 2).
  CHECK(softmax == std::vector<int64_t>{2 * tensor, 2 * tensor, 2 * tensor});
  CHECK(add == std::vector<int64_t>{7 * tensor});
}

}  // namespace
}  // namespace tessera::tiles
