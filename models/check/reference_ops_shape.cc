// TEST-ONLY ORACLE (see reference_interpreter.h): data-movement ops — Reshape, Flatten,
// Transpose, Concat, Squeeze, Unsqueeze.
#include <algorithm>

#include "models/check/reference_ops.h"

namespace tessera::zoo_check {

namespace {

RefTensor with_shape(const RefTensor& x, Shape shape) {
  require(element_count(shape) == element_count(x.shape), "new shape holds a different element count");
  return RefTensor{std::move(shape), x.data};
}

RefTensor reshape(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  Shape shape = ctx.ints(1);
  const bool allow_zero = ctx.attr_int("allowzero", 0) != 0;
  int64_t infer = -1, known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allow_zero) {
      require(i < x.shape.size(), "Reshape copies a dimension the input does not have");
      shape[i] = x.shape[i];
    }
    if (shape[i] == -1) {
      require(infer < 0, "Reshape has more than one -1");
      infer = static_cast<int64_t>(i);
    } else {
      require(shape[i] > 0, "Reshape dimension must be positive");
      known *= shape[i];
    }
  }
  if (infer >= 0) shape[infer] = element_count(x.shape) / known;
  return with_shape(x, shape);
}

RefTensor flatten(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = ctx.attr_int("axis", 1);
  if (axis < 0) axis += rank;
  require(axis >= 0 && axis <= rank, "Flatten axis out of range");
  const int64_t outer = element_count(Shape(x.shape.begin(), x.shape.begin() + axis));
  return with_shape(x, {outer, element_count(x.shape) / outer});
}

RefTensor transpose(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  const size_t rank = x.shape.size();
  Shape perm(rank);
  for (size_t i = 0; i < rank; ++i) perm[i] = static_cast<int64_t>(rank - 1 - i);
  perm = ctx.attr_ints("perm", perm);
  require(perm.size() == rank, "perm must list every axis");
  Shape sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < rank; ++i) require(sorted[i] == static_cast<int64_t>(i), "perm is not a permutation");
  Shape in_strides(rank, 1), out_shape(rank);
  for (size_t i = rank - 1; i-- > 0;) in_strides[i] = in_strides[i + 1] * x.shape[i + 1];
  for (size_t i = 0; i < rank; ++i) out_shape[i] = x.shape[perm[i]];
  RefTensor y{out_shape, std::vector<float>(x.data.size())};
  Shape idx(rank, 0);
  for (size_t flat = 0; flat < y.data.size(); ++flat) {
    int64_t src = 0;
    for (size_t i = 0; i < rank; ++i) src += idx[i] * in_strides[perm[i]];
    y.data[flat] = x.data[src];
    for (size_t i = rank; i-- > 0;) {
      if (++idx[i] < out_shape[i]) break;
      idx[i] = 0;
    }
  }
  return y;
}

RefTensor concat(OpContext& ctx) {
  const RefTensor& first = ctx.in(0);
  const int64_t rank = static_cast<int64_t>(first.shape.size());
  const int64_t axis = normalize_axis(ctx.attr_int("axis", 0), rank);
  Shape out = first.shape;
  out[axis] = 0;
  for (size_t i = 0; i < ctx.input_count(); ++i) {
    const Shape& s = ctx.in(i).shape;
    require(static_cast<int64_t>(s.size()) == rank, "Concat inputs differ in rank");
    for (int64_t d = 0; d < rank; ++d) require(d == axis || s[d] == first.shape[d], "Concat inputs differ off-axis");
    out[axis] += s[axis];
  }
  const int64_t outer = element_count(Shape(out.begin(), out.begin() + axis));
  const int64_t inner = element_count(Shape(out.begin() + axis + 1, out.end()));
  RefTensor y{out, {}};
  y.data.reserve(static_cast<size_t>(element_count(out)));
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < ctx.input_count(); ++i) {
      const RefTensor& x = ctx.in(i);
      const int64_t chunk = x.shape[axis] * inner;
      y.data.insert(y.data.end(), x.data.begin() + o * chunk, x.data.begin() + (o + 1) * chunk);
    }
  }
  return y;
}

Shape axes_of(const OpContext& ctx) { return ctx.has_input(1) ? ctx.ints(1) : ctx.attr_ints("axes", {}); }

RefTensor squeeze(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  std::vector<bool> drop(static_cast<size_t>(rank), false);
  const Shape axes = axes_of(ctx);
  for (int64_t i = 0; i < rank; ++i) drop[i] = axes.empty() && x.shape[i] == 1;
  for (int64_t a : axes) {
    const int64_t n = normalize_axis(a, rank);
    require(x.shape[n] == 1, "Squeeze axis does not have size 1");
    drop[n] = true;
  }
  Shape out;
  for (int64_t i = 0; i < rank; ++i) {
    if (!drop[i]) out.push_back(x.shape[i]);
  }
  return with_shape(x, out);
}

RefTensor unsqueeze(OpContext& ctx) {
  const RefTensor& x = ctx.in(0);
  const Shape axes = axes_of(ctx);
  const int64_t rank = static_cast<int64_t>(x.shape.size() + axes.size());
  std::vector<bool> inserted(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    const int64_t n = normalize_axis(a, rank);
    require(!inserted[n], "Unsqueeze axes repeat");
    inserted[n] = true;
  }
  Shape out;
  size_t next = 0;
  for (int64_t i = 0; i < rank; ++i) out.push_back(inserted[i] ? 1 : x.shape[next++]);
  return with_shape(x, out);
}

}  // namespace

void add_shape_ops(OpTable& t) {
  t["Reshape"] = {reshape, {"allowzero"}};
  t["Flatten"] = {flatten, {"axis"}};
  t["Transpose"] = {transpose, {"perm"}};
  t["Concat"] = {concat, {"axis"}};
  t["Squeeze"] = {squeeze, {"axes"}};
  t["Unsqueeze"] = {unsqueeze, {"axes"}};
}

}  // namespace tessera::zoo_check
