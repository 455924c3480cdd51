// Region arithmetic: reshapes, hulls, layouts and the strided run walker.
#include <catch2/catch.hpp>

#include "core/ops/geometry.h"
#include "core/ops/region_walk.h"

namespace tessera::ops {
namespace {

Region box(std::vector<std::pair<int64_t, int64_t>> ranges) {
  Region r;
  r.rank = static_cast<int>(ranges.size());
  for (int d = 0; d < r.rank; ++d) r.begin[d] = ranges[d].first, r.end[d] = ranges[d].second;
  return r;
}

TEST_CASE("reshape_region maps row blocks exactly through flatten and squeeze") {
  CHECK(reshape_region(box({{1, 2}, {0, 8}, {0, 1}, {0, 1}}), {4, 8, 1, 1}, {4, 8}) == box({{1, 2}, {0, 8}}));
  CHECK(reshape_region(box({{0, 2}, {0, 12}}), {4, 12}, {4, 3, 4}) == box({{0, 2}, {0, 3}, {0, 4}}));
  CHECK(reshape_region(box({{0, 1}, {2, 5}, {0, 64}}), {1, 128, 64}, {128, 64}) == box({{2, 5}, {0, 64}}));
}

TEST_CASE("reshape_region over-approximates a partial row with the smallest box") {
  // Elements 3..9 of a 4x4 tensor span rows 0..2 entirely in the box sense.
  CHECK(reshape_region(box({{3, 10}}), {16}, {4, 4}) == box({{0, 3}, {0, 4}}));
  CHECK(reshape_region(box({{5, 7}}), {16}, {4, 4}) == box({{1, 2}, {1, 3}}));
}

TEST_CASE("layout strides and byte-preserving layout changes") {
  const Shape s{2, 3, 4, 5};
  const auto nhwc = logical_strides(s, Layout::nhwc());
  CHECK(nhwc[0] == 60);
  CHECK(nhwc[1] == 1);
  CHECK(nhwc[2] == 15);
  CHECK(nhwc[3] == 3);
  const std::vector<int> itself{0, 1, 2, 3};
  CHECK(memory_order({2, 8, 1, 1}, Layout::nhwc(), itself) == memory_order({2, 8, 1, 1}, Layout::identity(4), itself));
  CHECK(memory_order({2, 8, 2, 1}, Layout::nhwc(), itself) != memory_order({2, 8, 2, 1}, Layout::identity(4), itself));
  CHECK(element_hull(box({{1, 2}, {0, 3}, {0, 1}, {0, 1}}), nhwc).first == 60);
}

TEST_CASE("walk_region merges contiguous dimensions and follows broadcast strides") {
  const Shape s{2, 3, 4};
  const auto strides = logical_strides(s, Layout::identity(3));
  int runs = 0;
  walk_region(Region::whole(s), Layout::identity(3), std::array<Strides, 1>{strides},
              [&](const std::array<int64_t, 1>& off, int64_t count, const std::array<int64_t, 1>& step) {
                CHECK(off[0] == 0);
                CHECK(count == 24);
                CHECK(step[0] == 1);
                ++runs;
              });
  CHECK(runs == 1);
  // A broadcast operand (stride 0 on dim 1) splits the runs at that dimension.
  const Strides broadcast{4, 0, 1};
  std::vector<int64_t> seen;
  walk_region(box({{0, 2}, {0, 3}, {1, 3}}), Layout::identity(3), std::array<Strides, 2>{broadcast, strides},
              [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>&) {
                CHECK(count == 2);
                seen.push_back(off[0]);
                seen.push_back(off[1]);
              });
  CHECK(seen == std::vector<int64_t>{1, 1, 1, 5, 1, 9, 5, 13, 5, 17, 5, 21});
}

// copy_region against an element-by-element copy of the same strides.
void check_copy(const Region& region, const Layout& order, const Strides& from, const Strides& to) {
  std::vector<float> src(4096), dst(4096, -1.0f), want(4096, -1.0f);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
  const int64_t src_base = 2048, dst_base = 64;  // room for negative strides
  walk_region(region, Layout::identity(region.rank), std::array<Strides, 2>{from, to},
              [&](const std::array<int64_t, 2>& off, int64_t count, const std::array<int64_t, 2>& step) {
                for (int64_t i = 0; i < count; ++i) {
                  want[dst_base + off[1] + i * step[1]] = src[src_base + off[0] + i * step[0]];
                }
              });
  copy_region(region, order, from, src.data() + src_base, to, dst.data() + dst_base);
  CHECK(dst == want);
}

TEST_CASE("copy_region copies short gathered runs, negative and broadcast strides alike") {
  // NCHW to NHWC of 3 and 9 channels (either side of the short-run path), from a non-zero begin.
  for (int64_t c : {3, 8, 9}) {
    const Shape s{1, c, 5, 7};
    const Strides nchw = logical_strides(s, Layout::identity(4));
    const Strides nhwc = logical_strides(s, Layout::nhwc());
    check_copy(box({{0, 1}, {1, c}, {1, 5}, {2, 7}}), Layout::nhwc(), nchw, nhwc);
  }
  // A negative step along the short dimension, a broadcast outer one.
  check_copy(box({{0, 4}, {0, 6}, {0, 3}}), Layout::identity(3), {0, 1, -20}, {18, 3, 1});
  // A stepped slice whose short rows make one long run: copied as one.
  check_copy(box({{0, 50}, {0, 3}}), Layout::identity(2), {6, 2}, {3, 1});
}

}  // namespace
}  // namespace tessera::ops
