// The executor pool: per-thread ready deques with stealing, atomic dependency counters,
// direct continuation into a ready child, and the barrier / shuffle baselines.
#include "core/runtime/executor.h"

#include <algorithm>
#include <chrono>

#include "core/base/check.h"
#include "core/runtime/ready_queue.h"
#include "core/tiles/schedule_policy.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TESSERA_PAUSE() _mm_pause()
#else
#define TESSERA_PAUSE() ((void)0)  // WebAssembly has no spin-wait hint
#endif

namespace tessera::runtime {

namespace {

using Clock = std::chrono::steady_clock;

// Checks for work this many times (with a pause between) before going to sleep: long
// enough to bridge the gap between dependent tiles, short enough that idle costs nothing.
constexpr int kSpinRounds = 4000;

// A WebAssembly build without threads (for pages that are not cross-origin isolated) runs
// every tile on the thread that calls run().
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
constexpr bool kHasThreads = false;
#else
constexpr bool kHasThreads = true;
#endif

uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

// One run of one graph: its dependency counters and progress.
struct Job {
  const tiles::TileGraph* graph = nullptr;
  std::byte* arena = nullptr;
  RunConfig config;
  std::unique_ptr<std::atomic<uint32_t>[]> pending;  // unfinished parents per task
  // Per thread, room for the children a finishing task queues at each end (2 x
  // max_children): sized per run, so that no run leaves the heap larger than it found it.
  uint32_t max_children = 0;
  std::unique_ptr<uint32_t[]> queued;
  std::atomic<uint32_t> remaining{0};       // unfinished tasks
  std::atomic<uint32_t> node_remaining{0};  // barrier mode: of the current node
  uint32_t current_node = 0;                // barrier mode
  std::atomic<bool> done{false};
  std::span<float* const> scratch;  // one per executor thread
  std::vector<TileEvent>* events = nullptr;
  Clock::time_point start;
};

struct alignas(64) Executor::Worker {
  std::mutex mutex;
  ReadyQueue<Item> ready;
};

Executor::Executor(int threads) {
  TESSERA_CHECK(threads >= 1);
  if (!kHasThreads) threads = 1;
  for (int i = 0; i < threads; ++i) workers_.push_back(std::make_unique<Worker>());
  // Thread 0 is a caller of run(): the pool starts the others.
  for (int i = 1; i < threads; ++i) threads_.emplace_back([this, i] { worker_loop(i); });
}

Executor::~Executor() {
  stop_.store(true);
  epoch_.bump();
  for (std::thread& t : threads_) t.join();
}

void Executor::run(const tiles::TileGraph& graph, std::byte* arena, std::span<float* const> scratch,
                   const RunConfig& config, std::vector<TileEvent>* events) {
  TESSERA_CHECK(scratch.size() >= workers_.size());
  const uint32_t task_count = static_cast<uint32_t>(graph.tasks.size());
  if (events) events->assign(config.trace ? task_count : 0, TileEvent{});
  if (task_count == 0) return;
  Job job;
  job.graph = &graph;
  job.arena = arena;
  job.scratch = scratch;
  job.config = config;
  job.events = config.trace ? events : nullptr;
  job.pending = std::make_unique<std::atomic<uint32_t>[]>(task_count);
  for (uint32_t t = 0; t < task_count; ++t) {
    job.pending[t].store(graph.tasks[t].parents, std::memory_order_relaxed);
    job.max_children = std::max(job.max_children, graph.tasks[t].children_end - graph.tasks[t].children_begin);
  }
  job.queued = std::make_unique<uint32_t[]>(2 * size_t{job.max_children} * workers_.size());
  job.remaining.store(task_count);
  job.start = Clock::now();

  if (config.scheduler == Scheduler::kBarrier) {
    release_node(&job, 0);
  } else {
    std::vector<Item> roots;
    for (uint32_t t = 0; t < task_count; ++t) {
      if (graph.tasks[t].parents == 0) roots.push_back({&job, t});
    }
    if (config.scheduler == Scheduler::kShuffle) {
      std::lock_guard<std::mutex> lock(shuffle_mutex_);
      shuffle_state_ = config.seed;
      shuffle_pool_.insert(shuffle_pool_.end(), roots.begin(), roots.end());
      shuffle_pool_empty_.store(false, std::memory_order_relaxed);
      queued_.fetch_add(static_cast<int64_t>(roots.size()));
    } else {
      push_many(roots);
    }
    wake();
  }
  // One caller at a time works as thread 0 (with slot 0 of every job's scratch); the others
  // wait for their jobs, or for the seat to come free while theirs still runs.
  // The word is read before trying the seat: a holder that frees it after a failed try bumps
  // the word after this read, so the wait below cannot miss it.
  while (!job.done.load()) {
    const uint32_t seen = completions_.load();
    if (seat_.try_lock()) {
      work_until_done(job);
      seat_.unlock();
      completions_.bump();
      return;
    }
    if (job.done.load()) break;
    completions_.wait(seen);
  }
}

void Executor::work_until_done(const Job& job) {
  while (!job.done.load()) {
    Item item;
    bool found = find_work(0, &item);
    for (int spin = 0; !found && spin < kSpinRounds && !job.done.load(); ++spin) {
      TESSERA_PAUSE();
      found = find_work(0, &item);
    }
    if (!found) {
      TESSERA_CHECK(kHasThreads || job.done.load());  // alone, no work left means done
      // As a worker sleeps (worker_loop), but also woken by the job's end (execute).
      const uint32_t epoch = epoch_.load();
      sleepers_.fetch_add(1);
      found = find_work(0, &item);
      if (!found && !job.done.load()) epoch_.wait(epoch);
      sleepers_.fetch_sub(1);
      if (!found) continue;
    }
    execute(0, item);
  }
}

void Executor::release_node(Job* job, uint32_t node_index) {
  const tiles::TileGraph& g = *job->graph;
  while (node_index < g.nodes.size() && g.nodes[node_index].task_count == 0) ++node_index;
  if (node_index == g.nodes.size()) return;
  const tiles::CompiledNode& node = g.nodes[node_index];
  job->current_node = node_index;
  job->node_remaining.store(node.task_count, std::memory_order_relaxed);
  std::vector<Item> items;
  for (uint32_t t = node.first_task; t < node.first_task + node.task_count; ++t) items.push_back({job, t});
  push_many(items);
  wake();
}

int Executor::home_of(const Item& item) const {
  const tiles::TileGraph& g = *item.job->graph;
  const tiles::CompiledNode& node = g.nodes[g.tasks[item.task].node];
  return tiles::policy::home_thread(item.task - node.first_task, node.task_count, static_cast<int>(workers_.size()));
}

template <class Visit>
void Executor::push_batch(bool oldest, Visit&& visit) {
  std::unique_lock<std::mutex> held;
  int locked = -1;
  int64_t pushed = 0;
  visit([&](int thread, const Item& item) {
    if (thread != locked) {
      if (held) held.unlock();
      held = std::unique_lock<std::mutex>(workers_[thread]->mutex);
      locked = thread;
    }
    ReadyQueue<Item>& ready = workers_[thread]->ready;
    oldest ? ready.push_front(item) : ready.push_back(item);
    ++pushed;
  });
  if (held) held.unlock();
  queued_.fetch_add(pushed);
}

void Executor::push_many(const std::vector<Item>& items) {
  push_batch(/*oldest=*/false, [&](auto&& push) {
    for (auto item = items.rbegin(); item != items.rend(); ++item) push(home_of(*item), *item);
  });
}

void Executor::queue_children(int id, Job* job, std::span<const uint32_t> tasks, bool oldest) {
  if (tasks.empty()) return;
  // All to one deque, unless the children go out in bulk to their home threads.
  push_batch(oldest, [&](auto&& push) {
    tiles::policy::queue_ready_children(
        tasks, oldest, id, static_cast<int>(workers_.size()),
        [&](uint32_t task) {
          return home_of({job, task});
        },
        [&](uint32_t task, int thread) {
          push(thread, Item{job, task});
        });
  });
  wake();
}

void Executor::wake() {
  if (sleepers_.load() > 0) {
    epoch_.bump();
  }
}

bool Executor::find_work(int id, Item* item) {
  if (queued_.load() == 0) return false;
  if (!shuffle_pool_empty_.load(std::memory_order_relaxed)) {
    std::lock_guard<std::mutex> lock(shuffle_mutex_);
    if (!shuffle_pool_.empty()) {
      const size_t pick = splitmix64(&shuffle_state_) % shuffle_pool_.size();
      *item = shuffle_pool_[pick];
      shuffle_pool_[pick] = shuffle_pool_.back();
      shuffle_pool_.pop_back();
      shuffle_pool_empty_.store(shuffle_pool_.empty(), std::memory_order_relaxed);
      queued_.fetch_sub(1);
      return true;
    }
  }
  return tiles::policy::find_work(id, static_cast<int>(workers_.size()), [&](int victim, tiles::policy::End end) {
    Worker& worker = *workers_[victim];
    std::lock_guard<std::mutex> lock(worker.mutex);
    if (worker.ready.empty()) return false;
    *item = end == tiles::policy::End::kNewest ? worker.ready.pop_back() : worker.ready.pop_front();
    queued_.fetch_sub(1);
    return true;
  });
}

double Executor::idle_spin_seconds() {
  // The worker loop's spin, with nothing queued: on a real executor, so that the compiler
  // cannot fold its looks at the queue away (a local count was, in WebAssembly, where no pause
  // keeps the loop: 4000 rounds measured 81 ns).
  Item item;
  bool found = false;
  const auto start = Clock::now();
  for (int spin = 0; !found && spin < kSpinRounds; ++spin) {
    TESSERA_PAUSE();
    found = find_work(0, &item);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return found ? 0 : seconds;
}

void Executor::worker_loop(int id) {
  while (true) {
    Item item;
    bool found = find_work(id, &item);
    for (int spin = 0; !found && spin < kSpinRounds; ++spin) {
      TESSERA_PAUSE();
      found = find_work(id, &item);
    }
    if (!found) {
      // Announce the sleep, look once more, then wait for the epoch to move: a push after
      // the epoch was read always changes it, so no wake-up is lost.
      const uint32_t epoch = epoch_.load();
      sleepers_.fetch_add(1);
      found = find_work(id, &item);
      if (!found && !stop_.load()) epoch_.wait(epoch);
      sleepers_.fetch_sub(1);
      if (!found) {
        if (stop_.load()) return;
        continue;
      }
    }
    execute(id, item);
  }
}

void Executor::execute(int id, Item item) {
  while (true) {
    Job* job = item.job;
    const tiles::TileGraph& g = *job->graph;
    const tiles::Task& task = g.tasks[item.task];
    const Clock::time_point begin = job->events ? Clock::now() : Clock::time_point();
    g.nodes[task.node].kernel->run(task.region, {job->arena, job->scratch[id]});
    if (job->events) {
      const auto ns = [&](Clock::time_point t) {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(t - job->start).count();
      };
      (*job->events)[item.task] = {item.task, static_cast<uint32_t>(id), ns(begin), ns(Clock::now())};
    }

    bool has_next = false;
    Item next{job, 0};
    uint32_t* const newest = job->queued.get() + 2 * size_t{job->max_children} * static_cast<size_t>(id);
    uint32_t* const oldest = newest + job->max_children;
    uint32_t newest_count = 0, oldest_count = 0;
    if (job->config.scheduler == Scheduler::kBarrier) {
      if (job->node_remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) release_node(job, job->current_node + 1);
    } else {
      for (uint32_t c = task.children_begin; c < task.children_end; ++c) {
        const uint32_t child = g.children[c];
        if (job->pending[child].fetch_sub(1, std::memory_order_acq_rel) != 1) continue;
        if (job->config.scheduler == Scheduler::kShuffle) {
          std::lock_guard<std::mutex> lock(shuffle_mutex_);
          shuffle_pool_.push_back({job, child});
          shuffle_pool_empty_.store(false, std::memory_order_relaxed);
          queued_.fetch_add(1);
        } else {
          const bool defers = tiles::policy::defers_depth_first(g.nodes[g.tasks[child].node].weight_bytes);
          switch (tiles::policy::place_ready_child(has_next, defers)) {
            case tiles::policy::Placement::kContinue:
              next.task = child;
              has_next = true;
              continue;
            case tiles::policy::Placement::kNewest: newest[newest_count++] = child; continue;
            case tiles::policy::Placement::kOldest: oldest[oldest_count++] = child; continue;
          }
        }
        wake();
      }
    }
    queue_children(id, job, {oldest, oldest_count}, /*oldest=*/true);
    queue_children(id, job, {newest, newest_count}, /*oldest=*/false);
    // The last task releases the caller, after which the job may no longer be touched.
    if (job->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      job->done.store(true);  // sequentially consistent with sleepers_: a caller about to sleep sees one
      completions_.bump();
      wake();  // the caller working as thread 0 may sleep on the epoch
      return;
    }
    if (!has_next) return;
    item = next;
  }
}

}  // namespace tessera::runtime
