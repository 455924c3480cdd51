// Side-by-side timing shared by the benches: each configuration warms up, then all run in
// interleaved rounds, so that a machine whose speed drifts hits every configuration alike.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tessera/engine.h"

namespace tessera::cli {

struct TimedRun {
  std::function<Result<std::vector<Tensor>>()> run;  // one inference
  std::vector<double> ms;                            // filled: one entry per round
  std::optional<uint64_t> first_digest;              // filled: outputs_digest of the first run
  std::function<void()> timed;                       // optional: called after each timed run
};

// Warms each configuration up for `warmup_seconds` (at least two runs), then runs `rounds`
// rounds of one timed run each. With `warm_each`, every timed run follows an untimed run of
// the same configuration, so that it finds its own weights and arena in cache as a loop over
// inputs does, not the last configuration's. Fails on the first failed run.
Status run_interleaved(std::vector<TimedRun*> configs, int rounds, double warmup_seconds, bool warm_each = false);

// A fingerprint of outputs (names, dims, dtypes and bytes; 64-bit FNV-1a), so that
// configurations are compared without each keeping a copy of its outputs alive: in a bench of
// one configuration that copy would count in its peak memory.
uint64_t outputs_digest(const std::vector<Tensor>& outputs);

// The same outputs, dtype and bytes alike.
bool same_bits(const std::vector<Tensor>& a, const std::vector<Tensor>& b);

double median(std::vector<double> values);
double minimum(const std::vector<double>& values);

}  // namespace tessera::cli
