// tessera-zoo-check: runs the TEST-ONLY reference oracle on generated zoo models and prints
// output statistics and the range of per-node activation scales. Exit 1 if an output is unhealthy.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "models/check/reference_interpreter.h"

namespace {

using tessera::zoo_check::TensorStats;

void print_stats(const char* label, const std::string& name, const TensorStats& s) {
  std::printf("  %s %-28s n=%-9lld min=%-11.4g max=%-11.4g mean=%-11.4g std=%-11.4g rms=%-10.4g non-finite=%lld\n",
              label, name.c_str(), static_cast<long long>(s.count), s.min, s.max, s.mean, s.std, s.rms,
              static_cast<long long>(s.non_finite));
}

}  // namespace

int main(int argc, char** argv) {
  bool trace = false, sensitivity = false;
  uint64_t seed = 7;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--trace") {
      trace = true;
    } else if (arg == "--sensitivity") {
      sensitivity = true;
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--help" || arg[0] == '-') {
      std::fprintf(stderr, "usage: tessera-zoo-check [--trace] [--sensitivity] [--seed S] MODEL.json...\n"
                           "Runs the slow test-only reference interpreter on uniform [-1,1) inputs.\n"
                           "  --trace        statistics of every node's output\n"
                           "  --sensitivity  also run a second input and report how much outputs move\n");
      return arg == "--help" ? 0 : 2;
    } else {
      paths.push_back(arg);
    }
  }
  int status = 0;
  for (const std::string& path : paths) {
    auto model = tessera::zoo_check::load_model_file(path);
    if (!model.ok()) {
      std::fprintf(stderr, "%s\n", model.status().message().c_str());
      status = 1;
      continue;
    }
    struct Extreme { double rms; std::string node; };
    Extreme low{1e300, ""}, high{-1, ""};
    long long non_finite_nodes = 0;
    double min_row_max = 1.0, max_shared = 0.0;  // attention sharpness and token collapse
    auto observer = [&](const tessera::model::NodeDesc& node, const tessera::zoo_check::RefTensor& out) {
      const TensorStats s = tessera::zoo_check::summarize(out);
      if (s.non_finite > 0) ++non_finite_nodes;
      if (s.rms < low.rms) low = {s.rms, node.name};
      if (s.rms > high.rms) high = {s.rms, node.name};
      if (trace) print_stats(node.op.c_str(), node.name, s);
      if (node.op == "Softmax") {
        const double row_max = tessera::zoo_check::mean_row_max(out);
        min_row_max = std::min(min_row_max, row_max);
        if (trace) std::printf("    mean row max %.4g (uniform: %.4g)\n", row_max, 1.0 / out.shape.back());
      }
      if (node.op == "LayerNormalization" && out.shape.size() == 3) {
        const double shared = tessera::zoo_check::token_shared_energy(out);
        max_shared = std::max(max_shared, shared);
        if (trace) std::printf("    token-shared energy %.3f\n", shared);
      }
    };
    const auto start = std::chrono::steady_clock::now();
    auto run = tessera::zoo_check::run_reference(*model, tessera::zoo_check::random_inputs(*model, seed), observer);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!run.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), run.status().message().c_str());
      status = 1;
      continue;
    }
    std::printf("%s: %zu nodes, %.3f GFLOPs (reference count), %.1f s\n", path.c_str(), model->nodes.size(),
                2e-9 * static_cast<double>(run->macs), seconds);
    for (const auto& [name, tensor] : run->outputs) {
      const TensorStats s = tessera::zoo_check::summarize(tensor);
      print_stats("output", name, s);
      if (!tessera::zoo_check::is_healthy(s)) {
        std::printf("  output %s is NOT healthy (finite, not constant, rms in [1e-2, 1e2])\n", name.c_str());
        status = 1;
      }
    }
    std::printf("  node activations: rms from %.4g (%s) to %.4g (%s); nodes with non-finite values: %lld\n",
                low.rms, low.node.c_str(), high.rms, high.node.c_str(), non_finite_nodes);
    if (sensitivity) {
      auto other = tessera::zoo_check::run_reference(*model, tessera::zoo_check::random_inputs(*model, seed + 1));
      for (const auto& [name, tensor] : other.ok() ? other->outputs : decltype(other->outputs){}) {
        const auto& first = run->outputs.at(name).data;
        double diff = 0, norm = 0;
        for (size_t i = 0; i < first.size(); ++i) {
          diff += (first[i] - tensor.data[i]) * static_cast<double>(first[i] - tensor.data[i]);
          norm += static_cast<double>(first[i]) * first[i];
        }
        std::printf("  input sensitivity of %s: rms(out(x1) - out(x2)) / rms(out(x1)) = %.4g\n", name.c_str(),
                    norm > 0 ? std::sqrt(diff / norm) : 0.0);
      }
    }
    if (max_shared > 0) {
      std::printf("  attention: lowest mean row-max probability %.4g; highest token-shared energy %.3f\n",
                  min_row_max, max_shared);
    }
    if (non_finite_nodes > 0) status = 1;
  }
  return status;
}
