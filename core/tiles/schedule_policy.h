// How ready tiles are placed and picked under the dynamic scheduler: the one description the
// executor (core/runtime) runs and the simulator (core/plan/simulator.h) replays, so that
// predictions follow the runtime's policy rather than a copy of it.
#pragma once

#include <cstdint>
#include <span>

namespace tessera::tiles::policy {

// The thread a task starts on when its node's tasks are released together (the graph's
// roots; every node in barrier mode): each node's tasks are split into contiguous runs, one
// per thread, so a thread keeps the same part of every tensor. Tasks queued together go to
// the newest end in reverse, so that a thread takes them in order: a node's tiles in the
// order of its output, which walks its weights' panels and its tensors' rows forward, as the
// caches' prefetchers and the GEMM's (gemm.h) guess.
inline int home_thread(uint32_t index_in_node, uint32_t node_tasks, int threads) {
  return static_cast<int>(uint64_t{index_in_node} * static_cast<uint64_t>(threads) / node_tasks);
}

// The end of a ready deque a thread takes from: its own newest task (depth-first: its
// inputs are still in cache), another thread's oldest (most work behind it, least cache lost).
enum class End { kNewest, kOldest };

// Looks for work as thread `id` of `threads` does: its own deque first, then the others from
// id + 1 on. `take(thread, end)` tries one deque and says whether it got a task.
template <class Take>
bool find_work(int id, int threads, Take&& take) {
  for (int k = 0; k < threads; ++k) {
    if (take((id + k) % threads, k == 0 ? End::kNewest : End::kOldest)) return true;
  }
  return false;
}

// The weights (as given) past which a layer's tiles stop taking turns with another layer's.
// Measured, not derived: at 2 MiB VGG-16's 56 x 56 x 256 Winograd layers (2.4 MB given, 9.4
// packed) defer and MobileNetV2's last 1x1 convolutions (1.2-1.6 MB) do not; a core's L2 is
// 1 MiB on the Zen 4 and Zen 5 cores measured.
inline constexpr int64_t kDeferWeightBytes = int64_t{2} << 20;

// Whether a node's tiles wait for the work already queued when they become ready (`weight_bytes`:
// the constants it reads). Depth-first, a row band of the next layer starts as soon as its
// rows exist, so consecutive layers run band by band, interleaved: where their weights do not
// fit the caches together, every band reads them again from further out (VGG-16's three
// 56 x 56 x 256 Winograd layers, 9.4 MB of packed weights each, took 1.6-1.9x as long).
inline bool defers_depth_first(int64_t weight_bytes) { return weight_bytes > kDeferWeightBytes; }

// Where a child that a finishing task made ready goes, in the order of the task's child list:
// the first runs next on the same thread, straight away (no queue round trip); the others are
// queued at the newest end once the list is done, in reverse, so that they are taken in list
// order; a child whose node defers depth-first is queued at the oldest end, behind the work
// queued before it, in list order (where the taking thread reaches them in list order too).
enum class Placement { kContinue, kNewest, kOldest };
inline Placement place_ready_child(bool continuing, bool defers) {
  if (defers) return Placement::kOldest;
  return continuing ? Placement::kNewest : Placement::kContinue;
}

// Whose deques the queued children go to: a few stay with the finishing thread (depth-first,
// their inputs are in its cache); a bulk of at least two per thread (a layer after an
// all-to-all boundary) goes out as a released node's tasks do, each to its home thread, so
// that every thread walks a run of its own in order. Left to one deque, the thread that steals
// walks from the far end, backwards through the weights' panels (BERT-base on two threads:
// 54.6 against 51.2 ms).
inline bool queued_in_bulk(uint32_t queued, int threads) {
  return threads > 1 && queued >= 2 * static_cast<uint32_t>(threads);
}

// Queues the children thread `thread` placed at one end (`oldest`: the kOldest ones, else the
// kNewest ones), as the executor does and the simulator replays: `push(task, to)` puts a task
// at that end of thread `to`'s deque, the finishing thread's or, in bulk, its home's
// (`home(task)`). Reversed at the newest end and as listed at the oldest, so that whichever
// thread takes them takes them in list order.
template <class Home, class Push>
void queue_ready_children(std::span<const uint32_t> tasks, bool oldest, int thread, int threads, Home&& home,
                          Push&& push) {
  const bool bulk = queued_in_bulk(static_cast<uint32_t>(tasks.size()), threads);
  const auto queue = [&](uint32_t task) { push(task, bulk ? home(task) : thread); };
  if (oldest) {
    for (const uint32_t task : tasks) queue(task);
  } else {
    for (auto task = tasks.rbegin(); task != tasks.rend(); ++task) queue(*task);
  }
}

}  // namespace tessera::tiles::policy
