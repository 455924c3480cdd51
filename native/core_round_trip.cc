// A cache line passed back and forth between two threads, timed in batches.
#include "native/core_round_trip.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace tessera::cli {

std::optional<double> core_round_trip_ns() {
  if (std::thread::hardware_concurrency() < 2) return std::nullopt;
  using Clock = std::chrono::steady_clock;
  constexpr int kBatches = 15, kTrips = 200;
  // Odd: the answerer's turn. `stop` ends the answerer even mid-wait.
  alignas(64) std::atomic<uint32_t> turn{0};
  alignas(64) std::atomic<bool> stop{false}, started{false};
  std::thread answerer([&] {
    started.store(true);
    uint32_t expect = 1;
    while (!stop.load(std::memory_order_relaxed)) {
      if (turn.load(std::memory_order_acquire) != expect) continue;
      turn.store(expect + 1, std::memory_order_release);
      expect += 2;
    }
  });
  // A new thread can take milliseconds to start where the other vCPU sleeps: not timed.
  const auto start_deadline = Clock::now() + std::chrono::milliseconds(50);
  while (!started.load() && Clock::now() < start_deadline) std::this_thread::yield();
  const auto deadline = Clock::now() + std::chrono::milliseconds(20);
  std::vector<double> batches;
  uint32_t next = 1;
  bool answered = true;
  for (int b = 0; b < kBatches && answered; ++b) {
    const auto start = Clock::now();
    int trips = 0;
    for (; trips < kTrips && answered; ++trips, next += 2) {
      turn.store(next, std::memory_order_release);
      // The clock is read once per 4096 polls: reading it on every one would add its own
      // latency to the round trip.
      for (uint32_t polls = 1; turn.load(std::memory_order_acquire) != next + 1; ++polls) {
        if (polls % 4096 == 0 && Clock::now() > deadline) {
          answered = false;
          break;
        }
      }
    }
    // Past the deadline, the time so far over the trips made (at least one: a lower bound).
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    batches.push_back(ns / std::max(1, answered ? trips : trips - 1));
  }
  stop.store(true);
  answerer.join();
  std::nth_element(batches.begin(), batches.begin() + batches.size() / 2, batches.end());
  return batches[batches.size() / 2];
}

bool cores_moved(double before_ns, double after_ns) {
  return std::max(before_ns, after_ns) > 2 * std::min(before_ns, after_ns);
}

}  // namespace tessera::cli
