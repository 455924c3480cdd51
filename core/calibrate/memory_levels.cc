// Bandwidth of one thread and of all cores at working sets inside each level of the memory
// hierarchy.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/base/aligned_buffer.h"
#include "core/calibrate/calibrate.h"
#include "core/kernels/peak/timing.h"

namespace tessera::calibration {

namespace {

// A cache level's capacity as Linux describes cpu0's caches ("32768K"), 0 if it does not.
// sysfs rather than sysconf: in a VM sysconf may report the socket's L3, not the slice a
// core reaches.
int64_t sysfs_cache_bytes(int level) {
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), type_file(dir + "type"), size_file(dir + "size");
    int found = 0;
    std::string type, size;
    if (!(level_file >> found) || !(type_file >> type) || !(size_file >> size)) return 0;
    if (found != level || type == "Instruction") continue;
    const int64_t number = std::atoll(size.c_str());
    return size.back() == 'K' ? number << 10 : size.back() == 'M' ? number << 20 : number;
  }
  return 0;
}

// Capacities as the system describes them; elsewhere (a browser) those of a typical core of
// the 2020s, which the profile then states.
int64_t cache_bytes(int level) {
#if !defined(__EMSCRIPTEN__)
  if (const int64_t bytes = sysfs_cache_bytes(level); bytes > 0) return bytes;
  const int name = level == 1 ? _SC_LEVEL1_DCACHE_SIZE : level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL3_CACHE_SIZE;
  if (const long bytes = sysconf(name); bytes > 0) return bytes;
#endif
  return level == 1 ? 32 << 10 : level == 2 ? 1 << 20 : 32 << 20;
}

// Reads every byte: XOR over 16-byte vectors (the baseline ISA's loads natively and in
// WebAssembly), four chains so loads overlap; bound by the memory, not by load slots.
using Block = uint64_t __attribute__((vector_size(16)));
uint64_t read_all(const uint64_t* p, size_t words) {
  const auto* blocks = reinterpret_cast<const Block*>(p);
  Block a = {}, b = {}, c = {}, d = {};
  for (size_t i = 0; i + 4 <= words / 2; i += 4) {
    a ^= blocks[i];
    b ^= blocks[i + 1];
    c ^= blocks[i + 2];
    d ^= blocks[i + 3];
  }
  a ^= b ^ c ^ d;
  return a[0] ^ a[1];
}

// Copies every byte with plain vector stores, as the kernels store (memcpy streams large
// copies past the caches with non-temporal stores, which no kernel does). The XOR with a
// key the compiler cannot see keeps the loop from becoming a memcpy call.
void copy_all(const uint64_t* from, uint64_t* to, size_t words, uint64_t key) {
  const auto* in = reinterpret_cast<const Block*>(from);
  auto* out = reinterpret_cast<Block*>(to);
  const Block k = {key, key};
  for (size_t i = 0; i < words / 2; ++i) out[i] = in[i] ^ k;
}

struct Rates {
  double read_gbps = 0;
  double copy_gbps = 0;
};

// One thread's rates over the `bytes` at `data` (the copy: half read, half written).
Rates measure_rates(std::byte* data, size_t bytes, double seconds, bool copy_too) {
  Rates r;
  volatile uint64_t sink = 0;
  const double read = kernels::median_seconds_of(
      seconds, [&] { sink = sink ^ read_all(reinterpret_cast<const uint64_t*>(data), bytes / sizeof(uint64_t)); });
  r.read_gbps = static_cast<double>(bytes) / read * 1e-9;
  if (copy_too) {
    const size_t half = bytes / 2;
    volatile uint64_t key = 0;
    const double t = kernels::median_seconds_of(seconds, [&] {
      copy_all(reinterpret_cast<const uint64_t*>(data), reinterpret_cast<uint64_t*>(data + half),
               half / sizeof(uint64_t), key);
    });
    r.copy_gbps = static_cast<double>(2 * half) / t * 1e-9;
  }
  return r;
}

// Read bandwidth of `threads` threads at once, each over its own `bytes` of `data`.
double measure_shared_read(std::byte* data, size_t bytes, int threads, double seconds) {
  std::vector<double> each(threads, 0.0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] { each[t] = measure_rates(data + t * bytes, bytes, seconds, false).read_gbps; });
  }
  for (std::thread& t : pool) t.join();
  double total = 0;
  for (double g : each) total += g;
  return total;
}

// The capacity of the L3 a core actually reaches, up to the `described` one: the working set,
// doubling from the L2's capacity, up to which reads stay at least 1.5x faster than from
// DRAM, twice over (a level serves data up to half its capacity: cost_model.h). In a VM, sysfs
// may describe the host socket's L3 (480 MB where a guest's reads fall to DRAM's rate past
// 64 MB); with no such working set, twice the L2.
int64_t reached_l3_bytes(std::byte* data, int64_t l2, int64_t described, double dram_read, double seconds) {
  int64_t fast = l2;
  for (int64_t working_set = l2; working_set <= described / 2; working_set *= 2) {
    const double read = measure_rates(data, static_cast<size_t>(working_set), seconds, false).read_gbps;
    if (read < 1.5 * dram_read) break;
    fast = working_set;
  }
  return 2 * fast;
}

// The faster half of timed rounds, summed: another process taking a core only ever adds
// time, and a sum of many rounds outlasts a coarse clock's tick (a browser's 5 us or more).
double fastest_half_sum(std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  double sum = 0;
  for (size_t i = 0; i < seconds.size() / 2; ++i) sum += seconds[i];
  return sum;
}

}  // namespace

double measure_cross_core_read(int cores) {
  if (cores < 2) return 0;
  // Half the L2: what one tile of a model hands the next, in the writer's L2 when read.
  const auto bytes = static_cast<size_t>(cache_bytes(2) / 2) / 64 * 64;
  AlignedBuffer buffer = AlignedBuffer::allocate(bytes);
  if (buffer.data() == nullptr) return 0;
  auto* words = reinterpret_cast<uint64_t*>(buffer.data());
  const size_t count = bytes / sizeof(uint64_t);
  constexpr int kRounds = 64;
  std::atomic<int> turn{0};  // even: the writer's, odd: the reader's
  std::vector<double> reads;
  std::thread writer([&] {
    for (int round = 0; round < kRounds; ++round) {
      while (turn.load(std::memory_order_acquire) != 2 * round) {
      }
      for (size_t i = 0; i < count; ++i) words[i] = static_cast<uint64_t>(round) + i;
      turn.store(2 * round + 1, std::memory_order_release);
    }
  });
  volatile uint64_t sink = 0;
  for (int round = 0; round < kRounds; ++round) {
    while (turn.load(std::memory_order_acquire) != 2 * round + 1) {
    }
    const auto start = std::chrono::steady_clock::now();
    sink = sink ^ read_all(words, count);
    reads.push_back(kernels::seconds_since(start));
    turn.store(2 * round + 2, std::memory_order_release);
  }
  writer.join();
  const double seconds = fastest_half_sum(std::move(reads));
  const double gbps = static_cast<double>(bytes) * (kRounds / 2) / seconds * 1e-9;
  return std::isfinite(gbps) ? gbps : 0;  // no tick at all: not measured
}

double measure_shared_overwrite(int cores) {
  if (cores < 2) return 0;
  // A quarter of the L2 copied over another quarter: a tile's output written over a tensor
  // that tiles on another core have just read, all of it still in both cores' caches.
  const auto bytes = static_cast<size_t>(cache_bytes(2) / 4) / 64 * 64;
  AlignedBuffer source = AlignedBuffer::allocate(bytes), target = AlignedBuffer::allocate(bytes);
  if (source.data() == nullptr || target.data() == nullptr) return 0;
  std::memset(source.data(), 1, bytes);
  const auto* from = reinterpret_cast<const uint64_t*>(source.data());
  auto* to = reinterpret_cast<uint64_t*>(target.data());
  const size_t count = bytes / sizeof(uint64_t);
  // Every round this thread writes the target, then writes it again, timed; in odd rounds the
  // other thread reads it in between.
  constexpr int kRounds = 64;
  std::atomic<int> turn{0};  // odd: the reader's
  std::thread reader([&] {
    volatile uint64_t sink = 0;
    for (int round = 0; round < kRounds; ++round) {
      while (turn.load(std::memory_order_acquire) != 2 * round + 1) {
      }
      if (round % 2 == 1) sink = sink ^ read_all(to, count);
      turn.store(2 * round + 2, std::memory_order_release);
    }
  });
  volatile uint64_t key = 0;
  std::vector<double> own, shared;
  for (int round = 0; round < kRounds; ++round) {
    copy_all(from, to, count, key);
    turn.store(2 * round + 1, std::memory_order_release);
    while (turn.load(std::memory_order_acquire) != 2 * round + 2) {
    }
    const auto start = std::chrono::steady_clock::now();
    copy_all(from, to, count, key);
    (round % 2 == 1 ? shared : own).push_back(kernels::seconds_since(start));
  }
  reader.join();
  const double extra = fastest_half_sum(std::move(shared)) - fastest_half_sum(std::move(own));
  const double gbps = static_cast<double>(bytes) * (kRounds / 4) / extra * 1e-9;
  return extra > 0 && std::isfinite(gbps) ? gbps : 0;  // no dearer than the core's own lines: not measured
}

std::vector<plan::MemoryLevel> measure_memory(int cores, const Budget& budget) {
  const int64_t l1 = cache_bytes(1), l2 = cache_bytes(2), described_l3 = cache_bytes(3);
  // Past the L3 four times over; one buffer serves every level (and, split, every core), so
  // that a WebAssembly heap, which never shrinks, grows by this much only.
  const int64_t dram = std::max<int64_t>(4 * described_l3, 128 << 20);
  AlignedBuffer buffer = AlignedBuffer::allocate(static_cast<size_t>(dram));
  if (buffer.data() == nullptr) return {};
  std::memset(buffer.data(), 1, buffer.size());
  const Rates from_dram = measure_rates(buffer.data(), static_cast<size_t>(dram), budget.point() * 2, true);
  const int64_t l3 = reached_l3_bytes(buffer.data(), l2, described_l3, from_dram.read_gbps, budget.point() / 3);
  // The L3 is read at a quarter of its capacity: past that, as its measured capacity is
  // approached, reads already fall towards DRAM's rate.
  struct Level {
    const char* name;
    int64_t capacity;
    int64_t working_set;
  };
  const Level levels[] = {{"L1", l1, l1 / 2}, {"L2", l2, l2 / 2}, {"L3", l3, l3 / 4}, {"DRAM", 0, dram}};
  std::vector<plan::MemoryLevel> out;
  for (const Level& level : levels) {
    const bool is_dram = level.capacity == 0;
    const double seconds = is_dram ? budget.point() * 2 : budget.point();
    const Rates one =
        is_dram ? from_dram : measure_rates(buffer.data(), static_cast<size_t>(level.working_set), seconds, true);
    plan::MemoryLevel m{level.name, level.capacity, one.read_gbps, one.copy_gbps, one.read_gbps};
    // The shared levels: every core reading its own share of the working set at once.
    if (cores > 1 && (is_dram || level.capacity == l3)) {
      const size_t share = static_cast<size_t>(level.working_set / cores) / 64 * 64;
      m.shared_gbps = measure_shared_read(buffer.data(), share, cores, seconds);
    }
    out.push_back(m);
  }
  return out;
}

}  // namespace tessera::calibration
