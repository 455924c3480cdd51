// Footprints of the index ops, checked by running each tile after only its ancestors in a
// poisoned arena (tests/support/tile_reads_check.h): an embedding lookup with run-time ids,
// GatherElements/GatherND/ScatterElements/ScatterND on tiled producers, Tile (wrapping
// footprints), TopK and ArgMax rows, OneHot, and typed moves.
#include <catch2/catch.hpp>

#include "tests/support/tile_reads_check.h"
#include "tests/support/typed_values.h"

namespace tessera::testing {
namespace {

TEST_CASE("index op footprints cover every byte their kernels read") {
  ModelBuilder b(11);
  const auto table = b.node("Relu", {b.input({40, 24})});
  const auto ids = b.input(random_typed(b.rng(), {3, 9}, DType::kInt64, -40, 39));
  const auto embedded = b.node("Gather", {table, ids});  // [3, 9, 24]
  const auto data = b.node("Sigmoid", {b.input({3, 12, 24})});
  const auto picked = b.node("GatherElements", {data, b.node("ArgMax", {embedded}, {{"axis", 1}})}, {{"axis", 1}});
  const auto rows = b.node("GatherND", {data, b.input(random_typed(b.rng(), {3, 5, 1}, DType::kInt32, 0, 11))},
                           {{"batch_dims", 1}});  // [3, 5, 24]
  const auto scattered =
      b.node("ScatterElements", {data, b.input(random_typed(b.rng(), {3, 9, 24}, DType::kInt64, -12, 11)), embedded},
             {{"axis", 1}, {"reduction", "add"}});
  const auto planes = b.node("ScatterND", {scattered, b.input(random_typed(b.rng(), {4, 2}, DType::kInt64, 0, 2)),
                                           b.node("Tanh", {b.input({4, 24})})});
  const auto tiled = b.node("Tile", {b.node("Relu", {b.input({2, 5, 7})}), b.ints({3, 2, 2})});
  const auto top = b.node_outputs("TopK", {planes, b.ints({3})}, {{"axis", 1}}, 2);
  const auto hot = b.node("OneHot", {top[1], b.ints({}, {12}), b.constant({2}, {0, 1})}, {{"axis", 1}});
  const auto lengths = b.input(random_typed(b.rng(), {6, 10}, DType::kInt32, -5, 5));
  const auto columns = b.node("Transpose", {lengths});
  const auto padded = b.node("Pad", {columns, b.ints({0, 0, 0, 2})}, {{"mode", "edge"}});
  const auto moved = b.node("Concat", {columns, padded}, {{"axis", 1}});
  check_tile_reads(b.build({picked, rows, top[0], hot, tiled, moved}), 3, 800);
}

}  // namespace
}  // namespace tessera::testing
