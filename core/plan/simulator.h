// A discrete-event simulation of one run of a tile graph on P threads, under the runtime's
// scheduling policy (core/tiles/schedule_policy.h, which the executor runs too). Plain data in,
// plain data out, no threads. Task times come from the caller (a cost model, or measured
// tiles); the simulation adds what scheduling costs: a fixed overhead per task, a steal, the
// wake-up of an idle thread when work appears, reading inputs another thread made, and
// writing over memory another thread has just read; and takes off what a task saves when its
// inputs, made just before (depth-first), are still in a closer cache.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/tiles/tile_graph.h"

namespace tessera::plan {

enum class SimScheduler {
  kDynamic,  // per-thread LIFO deques, home threads for bulk releases, stealing the oldest
  kBarrier,  // one node at a time, its tasks released to their home threads
};

// A task that read `bytes` of what another task then writes over (arena reuse).
struct SimOverwrite {
  uint32_t reader = 0;
  double bytes = 0;
};

struct SimTask {
  uint32_t node = 0;  // tasks are grouped by node, nodes in topological order
  double seconds = 0;
  std::vector<uint32_t> children;  // in the order the runtime visits them
  double input_bytes = 0;          // what it reads of other tasks' outputs, where another core's cost more
  double bytes = 0;                // all it touches: what pushes older data out of its core's cache
  double output_bytes = 0;
  // Where its node's data come from a shared level (L3, DRAM): the seconds it saves when all
  // its inputs are still in its core's own cache (its producers just ran on the same core),
  // and when they are still in the shared cache (from DRAM: they ran not long before).
  double saving_in_own_cache = 0;
  double saving_in_shared_cache = 0;
  // The tasks that read the memory it writes (its previous occupant's), all before it.
  std::vector<SimOverwrite> overwrites = {};
  // Writing its output lines that no task wrote before in this run: they were last touched a
  // run ago, and come from wherever that left them.
  double stale_write_seconds = 0;
  bool defers_depth_first = false;  // tiles::policy::defers_depth_first of its node's weights
};

struct SimCosts {
  double task_overhead = 0;  // per task: dispatch, dependency counters
  double steal = 0;          // taking a task from another thread's deque
  double wake = 0;           // an idle thread that went to sleep starting on work that appeared
  double spin = 0;           // how long an idle thread spins before it sleeps (threads spin at the start)
  // Per input byte made on another thread, beyond what the task's own time charges: those
  // bytes sit in the other core's cache. A task whose parents ran on other threads pays it
  // for their share of its input bytes (every parent counted alike: the edges say neither
  // how many bytes each hands over nor which only order a reuse of memory).
  double cross_core_byte = 0;
  // Per task with a parent on another thread, whatever its bytes: what handing work between
  // cores costs beyond them (cache lines of counters and task records, a cold start).
  double remote_input = 0;
  // Per byte a task writes over lines another thread read and still holds in its core's own
  // cache, beyond writing its own: the lines must be taken from that core first. A task pays
  // it on the bytes such readers read, up to its output bytes.
  double overwrite_byte = 0;
  // A task's output stays in its core's own cache until its thread has touched this many bytes
  // since, and in the shared cache until all threads have (0: no task saves anything there).
  double own_cache_bytes = 0;
  double shared_cache_bytes = 0;
};

struct SimOptions {
  int threads = 1;
  SimScheduler scheduler = SimScheduler::kDynamic;
  SimCosts costs;
};

struct SimEvent {
  int thread = 0;
  double start = 0;
  double end = 0;
};

struct SimResult {
  double latency = 0;
  std::vector<double> busy;      // per thread: time in tasks, overheads included
  std::vector<double> idle;      // per thread: latency - busy
  double critical_path = 0;      // the longest dependency chain (with overheads): no P beats it
  std::vector<SimEvent> events;  // per task, in task order
  // Per task: what where its data were last touched added to it (inputs another thread made,
  // memory another thread read that it writes over, memory no task wrote this run: more) or
  // took from it (inputs made just before, still in a closer cache: less).
  std::vector<double> locality;
};

SimResult simulate(std::span<const SimTask> tasks, const SimOptions& options);

}  // namespace tessera::plan
