// Tile grids, producer-tile lookup, arena planning and the default tiling's cuts.
#include <catch2/catch.hpp>

#include "core/plan/default_tiling.h"
#include "core/tiles/edges.h"
#include "core/tiles/memory_plan.h"

namespace tessera::tiles {
namespace {

TEST_CASE("intersecting_tiles finds exactly the cells a region touches") {
  NodeTiling t;
  t.cuts = {{0, 1, 2}, {0, 4, 8, 12}, {0, 16}};
  ops::Region r;
  r.rank = 3;
  r.begin = {1, 3, 0};
  r.end = {2, 9, 16};
  std::vector<uint32_t> found;
  intersecting_tiles(t, 100, r, &found);
  CHECK(found == std::vector<uint32_t>{103, 104, 105});
  r.begin[1] = 4;
  r.end[1] = 8;  // exactly one cell
  found.clear();
  intersecting_tiles(t, 0, r, &found);
  CHECK(found == std::vector<uint32_t>{4});
  r.end[1] = 4;  // empty
  found.clear();
  intersecting_tiles(t, 0, r, &found);
  CHECK(found.empty());
}

TEST_CASE("overlapped_cell_count agrees with intersecting_tiles per dimension") {
  NodeTiling t;
  t.cuts = {{0, 1, 2}, {0, 4, 8, 12}, {0, 16}};
  ops::Region r;
  r.rank = 3;
  for (int64_t begin = 0; begin <= 12; ++begin) {
    for (int64_t end = begin; end <= 12; ++end) {
      r.begin = {0, begin, 3};
      r.end = {2, end, 5};
      std::vector<uint32_t> found;
      intersecting_tiles(t, 0, r, &found);
      int64_t product = 1;
      for (int d = 0; d < 3; ++d) product *= overlapped_cell_count(t.cuts[d], r.begin[d], r.end[d]);
      CHECK(product == static_cast<int64_t>(found.size()));
    }
  }
  CHECK(overlapped_cell_count(t.cuts[1], 3, 9) == 3);
  CHECK(overlapped_cell_count(t.cuts[1], 4, 8) == 1);
  CHECK(overlapped_cell_count(t.cuts[1], 4, 4) == 0);
}

TEST_CASE("even_cuts splits at aligned, near-equal positions") {
  CHECK(plan::even_cuts(10, 3, 1) == std::vector<int64_t>{0, 3, 6, 10});
  CHECK(plan::even_cuts(100, 3, 32) == std::vector<int64_t>{0, 32, 64, 100});
  CHECK(plan::even_cuts(7, 20, 1).size() == 8);
  CHECK(plan::even_cuts(5, 1, 16) == std::vector<int64_t>{0, 5});
}

TEST_CASE("for_each_tile enumerates the grid in row-major order") {
  NodeTiling t;
  t.cuts = {{0, 2, 3}, {0, 5, 10}};
  std::vector<std::pair<int64_t, int64_t>> starts;
  for_each_tile(t, [&](const ops::Region& r) { starts.emplace_back(r.begin[0], r.begin[1]); });
  CHECK(starts == std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {0, 5}, {2, 0}, {2, 5}});
  CHECK(t.tile_count() == 4);
}

}  // namespace
}  // namespace tessera::tiles
