// Executor: a pool of threads that runs tile graphs. Each thread owns a ready deque: it
// pushes tiles its work made ready and pops the newest (depth-first, data still in cache),
// and an idle thread steals the oldest tile of another. A finishing tile continues directly
// into a child it made ready. Idle threads spin briefly, then sleep. Thread 0 is the caller
// of run(), which works tiles like the others: a run starts without waiting for a sleeping
// thread to wake and ends without handing back to a sleeping caller; the pool starts the
// other threads.
//
// Thread safety: run() may be called from several threads at once (e.g. two sessions of
// two models sharing one pool); their tiles interleave on the same threads, one caller works
// as thread 0 and the others wait. A WebAssembly build without threads has no pool: run()
// works through the tiles on the caller's thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "core/runtime/wait_word.h"
#include "core/tiles/tile_graph.h"

namespace tessera::runtime {

enum class Scheduler {
  kDynamic,  // dependency-driven, depth-first, work stealing: no barrier between ops
  kBarrier,  // one op at a time with all threads on its tiles: the operator-at-a-time baseline
  kShuffle,  // ready tiles picked in a seeded random order (tests schedule independence)
};

struct RunConfig {
  Scheduler scheduler = Scheduler::kDynamic;
  uint64_t seed = 0;   // shuffle order
  bool trace = false;  // record a TileEvent per task
};

// One task as it ran: which thread, and when (nanoseconds since the run started).
struct TileEvent {
  uint32_t task = 0;
  uint32_t thread = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

struct Job;

class Executor {
 public:
  explicit Executor(int threads);
  ~Executor();  // stops and joins the threads; no run() may be in flight
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  int threads() const { return static_cast<int>(workers_.size()); }

  // Seconds an idle thread spins looking for work before it sleeps, on this machine: the
  // spin loop timed (what the cost model needs to know when a hand-over also pays a wake-up).
  // Call it while nothing runs: 0 if it found work.
  double idle_spin_seconds();

  // Runs every task of `graph` over `arena` (graph.arena_bytes, 64-byte aligned) and
  // returns when all have finished. `scratch[i]` is thread i's scratch space of at least
  // graph.scratch_floats floats (the caller owns it, so a run never allocates). With
  // config.trace, `events` receives one entry per task.
  void run(const tiles::TileGraph& graph, std::byte* arena, std::span<float* const> scratch, const RunConfig& config,
           std::vector<TileEvent>* events);

 private:
  struct Item {
    Job* job;
    uint32_t task;
  };
  struct Worker;

  void worker_loop(int id);
  // A caller of run() working as thread 0 until its job is done.
  void work_until_done(const Job& job);
  bool find_work(int id, Item* item);
  void execute(int id, Item item);
  // The thread a task starts on when released in bulk (tiles::policy::home_thread).
  int home_of(const Item& item) const;
  // Calls visit(push) and pushes each item it hands to push(thread, item) onto that thread's
  // deque, at the newest end or (oldest) the oldest. Consecutive pushes to one deque share its
  // lock, never two held at once, and the count of queued items moves once.
  template <class Visit>
  void push_batch(bool oldest, Visit&& visit);
  void push_many(const std::vector<Item>& items);  // each to its home thread
  // Children a task on thread id made ready, to the newest or oldest end of its deque, or in
  // bulk to their home threads (tiles::policy), so that each is taken in order.
  void queue_children(int id, Job* job, std::span<const uint32_t> tasks, bool oldest);
  void wake();
  void release_node(Job* job, uint32_t node_index);  // barrier mode: all tasks of one node

  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;  // threads 1 and up; thread 0 is a caller of run()
  std::mutex seat_;                   // held by the caller working as thread 0
  WaitWord epoch_;                    // bumped when work arrives for sleeping threads
  // Bumped when any job completes: callers wait on it, never on the job itself, because
  // the caller may destroy its job as soon as it sees it done.
  WaitWord completions_;
  std::atomic<int> sleepers_{0};
  std::atomic<bool> stop_{false};
  // Items waiting in any deque or the shuffle pool: lets idle threads spin without locking.
  std::atomic<int64_t> queued_{0};

  // Shuffle mode: one pool of ready tiles, drawn from at random.
  std::mutex shuffle_mutex_;
  std::vector<Item> shuffle_pool_;
  std::atomic<bool> shuffle_pool_empty_{true};
  uint64_t shuffle_state_ = 0;
};

}  // namespace tessera::runtime
