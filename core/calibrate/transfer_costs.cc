// What moving a tensor between two workers of one engine costs natively: the sender hands a
// buffer over (a message: an atomic word one thread waits on), the receiver copies it into
// its own memory. Timed as round trips, empty and with a tensor larger than the last cache.
#include <atomic>
#include <cstring>
#include <thread>

#include "core/base/aligned_buffer.h"
#include "core/calibrate/calibrate.h"
#include "core/kernels/peak/timing.h"

namespace tessera::calibration {

plan::TransferRates measure_transfer(int cores, const Budget& budget) {
#if defined(__EMSCRIPTEN__)
  // Wasm workers are instances of their own, reached by postMessage: the JS side measures that.
  (void)cores, (void)budget;
  return {};
#else
  constexpr size_t kBytes = size_t{32} << 20;  // beyond half an L3: a stage's output arrives cold
  AlignedBuffer from = AlignedBuffer::allocate(kBytes), to = AlignedBuffer::allocate(kBytes);
  std::memset(from.data(), 1, kBytes);
  std::memset(to.data(), 2, kBytes);
  plan::TransferRates rates;
  const auto copy_seconds = [&] {
    return kernels::median_seconds(budget.point(), [&] {
      const auto start = std::chrono::steady_clock::now();
      std::memcpy(to.data(), from.data(), kBytes);
      return kernels::seconds_since(start);
    });
  };
  if (cores < 2) {
    rates.copy_gbps = static_cast<double>(kBytes) / copy_seconds() / 1e9;
    return rates;
  }
  // turn: odd while the receiver holds the buffer. `bytes` 0 times the bare hand-over.
  std::atomic<uint32_t> turn{0};
  std::atomic<size_t> bytes{0};
  std::atomic<bool> stop{false};
  std::thread receiver([&] {
    uint32_t seen = 0;
    while (true) {
      turn.wait(seen);
      seen = turn.load();
      if (stop.load()) return;
      if (const size_t n = bytes.load(); n > 0) std::memcpy(to.data(), from.data(), n);
      seen = turn.fetch_add(1) + 1;
      turn.notify_one();
    }
  });
  const auto round_trip = [&](size_t n) {
    bytes.store(n);
    return kernels::median_seconds(budget.point(), [&] {
      const auto start = std::chrono::steady_clock::now();
      const uint32_t sent = turn.fetch_add(1) + 1;
      turn.notify_one();
      uint32_t now = sent;
      while ((now = turn.load()) == sent) turn.wait(sent);
      return kernels::seconds_since(start);
    });
  };
  const double empty = round_trip(0);
  const double full = round_trip(kBytes);
  stop.store(true);
  turn.fetch_add(1);
  turn.notify_one();
  receiver.join();
  rates.message = empty / 2;
  rates.copy_gbps = static_cast<double>(kBytes) / std::max(full - empty, 1e-9) / 1e9;
  return rates;
#endif
}

}  // namespace tessera::calibration
