// Throughput of the elementwise kernels in elements per nanosecond, one thread, for an
// L1-resident array (4096 floats) and a larger one: `elementwise_benchmark [n ...]`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "core/kernels/elementwise/elementwise.h"

namespace {

using tessera::isa_supported;
using namespace tessera::kernels;

struct Op {
  UnaryOp op;
  const char* name;
};

constexpr Op kOps[] = {{UnaryOp::kExp, "exp"},
                       {UnaryOp::kErf, "erf"},
                       {UnaryOp::kGelu, "gelu"},
                       {UnaryOp::kGeluTanh, "gelu_tanh"},
                       {UnaryOp::kSigmoid, "sigmoid"},
                       {UnaryOp::kTanh, "tanh"},
                       {UnaryOp::kRelu, "relu"},
                       {UnaryOp::kLog, "log"},
                       {UnaryOp::kSoftplus, "softplus"},
                       {UnaryOp::kElu, "elu"},
                       {UnaryOp::kMish, "mish"},
                       {UnaryOp::kRound, "round"},
                       {UnaryOp::kSin, "sin"}};

double elements_per_ns(const ElementwiseKernels& k, UnaryOp op, std::vector<float>& x, std::vector<float>& y) {
  using Clock = std::chrono::steady_clock;
  const size_t n = x.size();
  double best = 0;
  for (int trial = 0; trial < 5; ++trial) {
    size_t reps = 0;
    const Clock::time_point start = Clock::now();
    double ns = 0;
    do {
      k.unary(op, {}, n, x.data(), y.data());
      ++reps;
      ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    } while (ns < 4e7);
    best = std::max(best, static_cast<double>(reps * n) / ns);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {4096, 1 << 20};
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-6.0f, 6.0f);
  for (size_t n : sizes) {
    std::vector<float> x(n), y(n);
    for (float& v : x) v = dist(rng);
    for (const ElementwiseKernels& k : elementwise_kernels()) {
      if (!isa_supported(k.isa)) continue;
      std::printf("%-24s n=%-8zu", k.name, n);
      for (const Op& op : kOps) std::printf(" %s %.2f", op.name, elements_per_ns(k, op.op, x, y));
      std::printf("  (elements/ns)\n");
    }
  }
  return 0;
}
