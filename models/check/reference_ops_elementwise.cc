// TEST-ONLY ORACLE (see reference_interpreter.h): elementwise ops — unary activations computed
// in double, Clip, and the broadcasting binary ops.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "models/check/reference_ops.h"

namespace tessera::zoo_check {

namespace {

template <class F>
RefTensor map_unary(const RefTensor& x, F f) {
  RefTensor y{x.shape, std::vector<float>(x.data.size())};
  for (size_t i = 0; i < x.data.size(); ++i) y.data[i] = static_cast<float>(f(static_cast<double>(x.data[i])));
  return y;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

RefTensor relu(OpContext& ctx) { return map_unary(ctx.in(0), [](double x) { return std::max(x, 0.0); }); }
RefTensor sigmoid_op(OpContext& ctx) { return map_unary(ctx.in(0), sigmoid); }
RefTensor tanh_op(OpContext& ctx) { return map_unary(ctx.in(0), [](double x) { return std::tanh(x); }); }
RefTensor erf_op(OpContext& ctx) { return map_unary(ctx.in(0), [](double x) { return std::erf(x); }); }
RefTensor sqrt_op(OpContext& ctx) { return map_unary(ctx.in(0), [](double x) { return std::sqrt(x); }); }
RefTensor identity(OpContext& ctx) { return ctx.in(0); }

RefTensor hard_swish(OpContext& ctx) {
  return map_unary(ctx.in(0), [](double x) { return x * std::clamp(x / 6.0 + 0.5, 0.0, 1.0); });
}

RefTensor hard_sigmoid(OpContext& ctx) {
  const double alpha = ctx.attr_float("alpha", 0.2), beta = ctx.attr_float("beta", 0.5);
  return map_unary(ctx.in(0), [=](double x) { return std::clamp(alpha * x + beta, 0.0, 1.0); });
}

RefTensor leaky_relu(OpContext& ctx) {
  const double alpha = ctx.attr_float("alpha", 0.01);
  return map_unary(ctx.in(0), [=](double x) { return x >= 0 ? x : alpha * x; });
}

RefTensor gelu(OpContext& ctx) {
  const std::string approximate = ctx.attr_string("approximate", "none");
  require(approximate == "none" || approximate == "tanh", "approximate must be \"none\" or \"tanh\"");
  if (approximate == "tanh") {
    return map_unary(ctx.in(0), [](double x) {
      return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / std::numbers::pi) * (x + 0.044715 * x * x * x)));
    });
  }
  return map_unary(ctx.in(0), [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); });
}

double scalar_input(const OpContext& ctx, size_t i, double fallback) {
  if (!ctx.has_input(i)) return fallback;
  require(element_count(ctx.in(i).shape) == 1, "Clip bounds must be scalars");
  return ctx.in(i).data[0];
}

RefTensor clip(OpContext& ctx) {
  const double inf = std::numeric_limits<double>::infinity();
  const double lo = ctx.has_input(1) ? scalar_input(ctx, 1, -inf) : ctx.attr_float("min", -inf);
  const double hi = ctx.has_input(2) ? scalar_input(ctx, 2, inf) : ctx.attr_float("max", inf);
  return map_unary(ctx.in(0), [=](double x) { return std::min(std::max(x, lo), hi); });
}

// Numpy broadcasting: each operand is read with stride 0 along its size-1 (or missing) axes.
template <class F>
RefTensor map_binary(const RefTensor& a, const RefTensor& b, F f) {
  const size_t rank = std::max(a.shape.size(), b.shape.size());
  Shape out(rank), sa(rank, 0), sb(rank, 0);
  auto dim = [rank](const Shape& s, size_t i) { return i + s.size() < rank ? 1 : s[i + s.size() - rank]; };
  int64_t stride_a = 1, stride_b = 1;
  for (size_t i = rank; i-- > 0;) {
    const int64_t da = dim(a.shape, i), db = dim(b.shape, i);
    require(da == db || da == 1 || db == 1, "shapes do not broadcast");
    out[i] = std::max(da, db);
    sa[i] = da == 1 ? 0 : stride_a;
    sb[i] = db == 1 ? 0 : stride_b;
    stride_a *= da;
    stride_b *= db;
  }
  RefTensor y{out, std::vector<float>(static_cast<size_t>(element_count(out)))};
  Shape idx(rank, 0);
  int64_t ia = 0, ib = 0;
  for (size_t flat = 0; flat < y.data.size(); ++flat) {
    y.data[flat] = static_cast<float>(f(static_cast<double>(a.data[ia]), static_cast<double>(b.data[ib])));
    for (size_t i = rank; i-- > 0;) {  // odometer step, keeping both operand offsets in sync
      ia += sa[i];
      ib += sb[i];
      if (++idx[i] < out[i]) break;
      ia -= sa[i] * out[i];
      ib -= sb[i] * out[i];
      idx[i] = 0;
    }
  }
  return y;
}

RefTensor add(OpContext& ctx) { return map_binary(ctx.in(0), ctx.in(1), [](double a, double b) { return a + b; }); }
RefTensor sub(OpContext& ctx) { return map_binary(ctx.in(0), ctx.in(1), [](double a, double b) { return a - b; }); }
RefTensor mul(OpContext& ctx) { return map_binary(ctx.in(0), ctx.in(1), [](double a, double b) { return a * b; }); }
RefTensor div(OpContext& ctx) { return map_binary(ctx.in(0), ctx.in(1), [](double a, double b) { return a / b; }); }
RefTensor pow_op(OpContext& ctx) {
  return map_binary(ctx.in(0), ctx.in(1), [](double a, double b) { return std::pow(a, b); });
}

}  // namespace

void add_elementwise_ops(OpTable& t) {
  t["Relu"] = {relu, {}};
  t["Sigmoid"] = {sigmoid_op, {}};
  t["Tanh"] = {tanh_op, {}};
  t["Erf"] = {erf_op, {}};
  t["Sqrt"] = {sqrt_op, {}};
  t["Identity"] = {identity, {}};
  t["HardSwish"] = {hard_swish, {}};
  t["HardSigmoid"] = {hard_sigmoid, {"alpha", "beta"}};
  t["LeakyRelu"] = {leaky_relu, {"alpha"}};
  t["Gelu"] = {gelu, {"approximate"}};
  t["Clip"] = {clip, {"min", "max"}};
  t["Add"] = {add, {}};
  t["Sub"] = {sub, {}};
  t["Mul"] = {mul, {}};
  t["Div"] = {div, {}};
  t["Pow"] = {pow_op, {}};
}

}  // namespace tessera::zoo_check
