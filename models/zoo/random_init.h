// Seeded, library-independent random numbers for zoo weights: the same seed gives the same
// bits with any standard library (no std::*_distribution, whose output is unspecified).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace tessera::zoo {

// mt19937_64's sequence is fixed by the standard; only the mapping to floats is ours.
class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1) with 53 random bits; computed in double so rounding is exact IEEE.
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

  std::vector<float> uniform_values(int64_t count, double lo, double hi) {
    std::vector<float> values(static_cast<size_t>(count));
    for (float& v : values) v = static_cast<float>(uniform(lo, hi));
    return values;
  }

 private:
  std::mt19937_64 engine_;
};

// Symmetric uniform bound whose variance is `gain / fan_in` (Kaiming uniform for gain 2).
inline double kaiming_bound(double gain, int64_t fan_in) { return std::sqrt(3.0 * gain / static_cast<double>(fan_in)); }

// One stream per (seed, architecture): batch variants of a model share their weights.
inline uint64_t model_seed(uint64_t seed, std::string_view architecture) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a
  for (char c : architecture) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  uint64_t z = seed ^ h;  // splitmix64 finaliser spreads nearby seeds apart
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace tessera::zoo
