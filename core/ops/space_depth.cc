// DepthToSpace / SpaceToDepth. Both relate a "space" tensor S [N, C, H*b, W*b] and a "depth"
// tensor D [N, C*b*b, H, W]: for each block offset (i, j) in [0, b)^2,
//   S[n, c, h*b + i, w*b + j] = D[n, depth_channel(c, i, j), h, w],
// so one block offset of an output region is a 4-D box in (n, c, h, w) copied with strides:
// a tile makes at most b*b strided copies, and its footprint is the hull of the boxes' sources.
#include "core/ops/space_depth.h"

#include <algorithm>

#include "core/base/checked_math.h"
#include "core/ops/element_bits.h"
#include "core/ops/parsers.h"

namespace tessera::ops {

namespace {

// Where block (i, j) of output region `out` lies, in (n, c, h, w) box coordinates.
struct Block {
  Region box;
  int64_t i = 0, j = 0;
};

int64_t space_channels(const SpaceDepthAttrs& a, const OpShapes& s) { return (a.to_space ? s.output : s.inputs[0])[1]; }

// Depth channel of space channel c at block offset (i, j): DCR puts the block offset outermost.
int64_t depth_channel(const SpaceDepthAttrs& a, int64_t channels, int64_t c, int64_t i, int64_t j) {
  const int64_t offset = i * a.block + j;
  return a.crd ? c * a.block * a.block + offset : offset * channels + c;
}

// The block-(i, j) box of output region `out`, or nullopt if the region holds none of it.
std::optional<Block> block_of(const SpaceDepthAttrs& a, const OpShapes& s, const Region& out, int64_t i, int64_t j) {
  const int64_t b = a.block;
  Block block{out, i, j};
  Region& box = block.box;
  if (a.to_space) {
    // Output rows h*b + i in [begin, end): h in [ceil((begin - i) / b), ceil((end - i) / b)).
    for (int d = 2; d < 4; ++d) {
      const int64_t offset = d == 2 ? i : j;
      box.begin[d] = (out.begin[d] - offset + b - 1) / b;
      box.end[d] = (out.end[d] - offset + b - 1) / b;
    }
  } else {
    const int64_t channels = space_channels(a, s);
    const int64_t first = depth_channel(a, channels, 0, i, j);
    box.begin[1] = std::max<int64_t>(out.begin[1] - first, 0);
    box.end[1] = std::min<int64_t>(out.end[1] - first, channels);
  }
  if (box.empty()) return std::nullopt;
  return block;
}

// Strides and base offset that address a block's box in the space tensor (strides `space`)
// and in the depth tensor (strides `depth`).
struct BlockAccess {
  Strides space{}, depth{};
  int64_t space_base = 0, depth_base = 0;
};

BlockAccess access(const SpaceDepthAttrs& a, int64_t channels, const Block& block, const Strides& space,
                   const Strides& depth) {
  const int64_t b = a.block;
  BlockAccess r;
  r.space = {space[0], space[1], b * space[2], b * space[3]};
  r.space_base = block.i * space[2] + block.j * space[3];
  const int64_t first = depth_channel(a, channels, 0, block.i, block.j);
  const int64_t step = depth_channel(a, channels, 1, block.i, block.j) - first;
  r.depth = {depth[0], step * depth[1], depth[2], depth[3]};
  r.depth_base = first * depth[1];
  return r;
}

// The box as a region of the space tensor (rows h*b + i) or of the depth tensor.
Region space_region(const SpaceDepthAttrs& a, const Block& block) {
  Region r = block.box;
  for (int d = 2; d < 4; ++d) {
    const int64_t offset = d == 2 ? block.i : block.j;
    r.begin[d] = r.begin[d] * a.block + offset;
    r.end[d] = (r.end[d] - 1) * a.block + offset + 1;
  }
  return r;
}

Region depth_region(const SpaceDepthAttrs& a, int64_t channels, const Block& block) {
  Region r = block.box;
  const int64_t first = depth_channel(a, channels, r.begin[1], block.i, block.j);
  const int64_t last = depth_channel(a, channels, r.end[1] - 1, block.i, block.j);
  r.begin[1] = first;
  r.end[1] = last + 1;
  return r;
}

template <class Fn>
void for_each_block(const SpaceDepthAttrs& a, const OpShapes& s, const Region& out, Fn&& fn) {
  for (int64_t i = 0; i < a.block; ++i) {
    for (int64_t j = 0; j < a.block; ++j) {
      if (std::optional<Block> block = block_of(a, s, out, i, j)) fn(*block);
    }
  }
}

template <class T>
class SpaceDepthKernel final : public TileKernel {
 public:
  SpaceDepthKernel(const SpaceDepthAttrs& a, const BindArgs& args)
      : attrs_(a), shapes_(args.shapes), in_(args.inputs[0]), out_(args.output) {}

  void run(const Region& region, const ExecContext& ctx) const override {
    const T* x = input_data<T>(in_, ctx);
    T* y = tensor_data<T>(out_, ctx);
    const int64_t channels = space_channels(attrs_, shapes_);
    const Layout order = Layout::identity(4);
    for_each_block(attrs_, shapes_, region, [&](const Block& block) {
      if (attrs_.to_space) {
        const BlockAccess m = access(attrs_, channels, block, out_.strides, in_.strides);
        copy_elements(block.box, order, m.depth, x + m.depth_base, m.space, y + m.space_base);
      } else {
        const BlockAccess m = access(attrs_, channels, block, in_.strides, out_.strides);
        copy_elements(block.box, order, m.space, x + m.space_base, m.depth, y + m.depth_base);
      }
    });
  }
  std::string kernel_name() const override {
    return std::string(element_bits_name<T>()) + (attrs_.to_space ? "_depth_to_space" : "_space_to_depth");
  }

 private:
  SpaceDepthAttrs attrs_;
  OpShapes shapes_;
  TensorBinding in_, out_;
};

Result<SpaceDepthAttrs> parse_common(NodeParser& p, bool to_space) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(1, 1));
  if (p.shape(0).size() != 4) return p.error("input must be [N, C, H, W], got " + shape_string(p.shape(0)));
  SpaceDepthAttrs a;
  a.to_space = to_space;
  if (!p.has_attribute("blocksize")) return p.error("attribute \"blocksize\" is required");
  TESSERA_ASSIGN_OR_RETURN(a.block, p.get_int("blocksize", 1));
  if (a.block < 1 || a.block > 4096) return p.error("blocksize " + std::to_string(a.block) + " is out of range");
  return a;
}

}  // namespace

Result<ParsedOp> parse_depth_to_space(NodeParser& p) {
  TESSERA_ASSIGN_OR_RETURN(SpaceDepthAttrs a, parse_common(p, true));
  TESSERA_ASSIGN_OR_RETURN(std::string mode, p.get_string("mode", "DCR"));
  if (mode != "DCR" && mode != "CRD") return p.error("mode \"" + mode + "\" must be \"DCR\" or \"CRD\"");
  a.crd = mode == "CRD";
  const Shape& x = p.shape(0);
  const int64_t area = a.block * a.block;
  if (x[1] % area != 0) {
    return p.error("channels " + std::to_string(x[1]) + " must be a multiple of blocksize^2 = " + std::to_string(area));
  }
  int64_t h = 0, w = 0;
  if (!checked_mul(x[2], a.block, &h) || !checked_mul(x[3], a.block, &w)) return p.error("output is too large");
  const Shape out{x[0], x[1] / area, h, w};
  TESSERA_RETURN_IF_ERROR(p.check_work(out, 1));
  ParsedOp op{a, out};
  op.dtype = p.dtype(0);
  return op;
}

Result<ParsedOp> parse_space_to_depth(NodeParser& p) {
  TESSERA_ASSIGN_OR_RETURN(SpaceDepthAttrs a, parse_common(p, false));
  const Shape& x = p.shape(0);
  if (x[2] % a.block != 0 || x[3] % a.block != 0) {
    return p.error("height and width " + shape_string({x[2], x[3]}) + " must be multiples of blocksize " +
                   std::to_string(a.block));
  }
  int64_t channels = 0;
  if (!checked_mul(x[1], a.block * a.block, &channels)) return p.error("output is too large");
  ParsedOp op{a, Shape{x[0], channels, x[2] / a.block, x[3] / a.block}};
  op.dtype = p.dtype(0);
  return op;
}

OpCost cost(const SpaceDepthAttrs&, const OpShapes& s, const Region& out) {
  return {.flops = 0,
          .bytes = 2.0 * static_cast<double>(out.element_count() * static_cast<int64_t>(dtype_size(s.output_dtype))),
          .kind = WorkKind::kPermute};
}

std::optional<Region> footprint(const SpaceDepthAttrs& a, const OpShapes& s, const Region& out, int input) {
  if (input != 0) return std::nullopt;
  const int64_t channels = space_channels(a, s);
  std::optional<Region> hull;
  for_each_block(a, s, out, [&](const Block& block) {
    const Region r = a.to_space ? depth_region(a, channels, block) : space_region(a, block);
    if (!hull) {
      hull = r;
      return;
    }
    for (int d = 0; d < 4; ++d) {
      hull->begin[d] = std::min(hull->begin[d], r.begin[d]);
      hull->end[d] = std::max(hull->end[d], r.end[d]);
    }
  });
  return hull;
}

TilingHints tiling_hints(const SpaceDepthAttrs& a, const OpShapes&, const TilingQuery&) {
  // Batch items and bands of rows; DepthToSpace rows in whole blocks so that no two tiles
  // read the same input row. Channel blocks only where their sources are a channel block too
  // (CRD); elsewhere every channel block reads nearly all input channels.
  TilingHints hints{{{0, 1}, {2, a.to_space ? a.block : 1}}};
  if (a.to_space && a.crd) hints.dims.push_back({1, 1});
  return hints;
}

LayoutChoice choose_layout(const SpaceDepthAttrs&, const OpShapes&, const LayoutQuery&) {
  // The input is read through its strides, in whatever layout it has.
  return {{std::nullopt}, Layout::identity(4)};
}

void reference(const SpaceDepthAttrs& a, const OpShapes& s, std::span<const void* const> in, void* out) {
  // Element by element from the formula, independent of the block boxes the kernel uses.
  const Shape& space = a.to_space ? s.output : s.inputs[0];
  const Shape& depth = a.to_space ? s.inputs[0] : s.output;
  const auto size = static_cast<int64_t>(dtype_size(s.output_dtype));
  const auto* x = static_cast<const std::byte*>(in[0]);
  auto* y = static_cast<std::byte*>(out);
  const int64_t b = a.block;
  for (int64_t n = 0; n < space[0]; ++n) {
    for (int64_t c = 0; c < space[1]; ++c) {
      for (int64_t row = 0; row < space[2]; ++row) {
        for (int64_t col = 0; col < space[3]; ++col) {
          const int64_t dc = depth_channel(a, space[1], c, row % b, col % b);
          const int64_t s_index = ((n * space[1] + c) * space[2] + row) * space[3] + col;
          const int64_t d_index = ((n * depth[1] + dc) * depth[2] + row / b) * depth[3] + col / b;
          const int64_t from = a.to_space ? d_index : s_index, to = a.to_space ? s_index : d_index;
          std::copy(x + from * size, x + (from + 1) * size, y + to * size);
        }
      }
    }
  }
}

Result<std::unique_ptr<TileKernel>> bind(const SpaceDepthAttrs& a, const BindArgs& args) {
  return with_element_bits(args.output.dtype, [&](auto zero) -> std::unique_ptr<TileKernel> {
    return std::make_unique<SpaceDepthKernel<decltype(zero)>>(a, args);
  });
}

}  // namespace tessera::ops
