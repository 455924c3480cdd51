// Side-by-side timing shared by the benches.
#include "native/timed_runs.h"

#include <algorithm>
#include <chrono>

namespace tessera::cli {

namespace {

using Clock = std::chrono::steady_clock;

Status time_once(TimedRun& c, double* ms) {
  const auto start = Clock::now();
  auto out = c.run();
  *ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (!out.ok()) return out.status();
  if (!c.first_digest) c.first_digest = outputs_digest(*out);
  return Status();
}

}  // namespace

Status run_interleaved(std::vector<TimedRun*> configs, int rounds, double warmup_seconds, bool warm_each) {
  double ms = 0;
  for (TimedRun* c : configs) {
    const auto start = Clock::now();
    for (int i = 0; i < 2 || std::chrono::duration<double>(Clock::now() - start).count() < warmup_seconds; ++i) {
      TESSERA_RETURN_IF_ERROR(time_once(*c, &ms));
    }
  }
  for (int r = 0; r < rounds; ++r) {
    for (TimedRun* c : configs) {
      if (warm_each) TESSERA_RETURN_IF_ERROR(time_once(*c, &ms));
      TESSERA_RETURN_IF_ERROR(time_once(*c, &ms));
      c->ms.push_back(ms);
      if (c->timed) c->timed();
    }
  }
  return Status();
}

uint64_t outputs_digest(const std::vector<Tensor>& outputs) {
  uint64_t hash = 14695981039346656037ull;
  auto mix = [&hash](const void* data, size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
  };
  for (const Tensor& t : outputs) {
    const size_t sizes[] = {t.name.size(), t.dims.size(), t.bytes.size()};
    mix(sizes, sizeof sizes);
    mix(t.name.data(), t.name.size());
    mix(t.dims.data(), t.dims.size() * sizeof(int64_t));
    mix(&t.dtype, sizeof t.dtype);
    mix(t.bytes.data(), t.bytes.size());
  }
  return hash;
}

bool same_bits(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].dtype != b[i].dtype || a[i].bytes != b[i].bytes) return false;
  }
  return true;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double minimum(const std::vector<double>& values) { return *std::min_element(values.begin(), values.end()); }

}  // namespace tessera::cli
