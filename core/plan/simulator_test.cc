// The simulator against schedules worked out by hand from the runtime's policy: a chain,
// fork-join, unbalanced tiles, one thread and several, both schedulers, layers that defer
// depth-first, the costs of overheads, steals and wake-ups, the inputs found still in cache,
// writes over what another thread read, and writes over what nobody touched this run.
#include <catch2/catch.hpp>

#include "core/plan/simulator.h"

namespace tessera::plan {
namespace {

// Task t of the graph: node, seconds, children.
SimTask task(uint32_t node, double seconds, std::vector<uint32_t> children = {}) {
  return {node, seconds, std::move(children)};
}

SimResult run(const std::vector<SimTask>& tasks, int threads, SimScheduler scheduler = SimScheduler::kDynamic,
              SimCosts costs = {}) {
  return simulate(tasks, {threads, scheduler, costs});
}

void check_event(const SimResult& r, uint32_t t, int thread, double start, double end) {
  INFO("task " << t);
  CHECK(r.events[t].thread == thread);
  CHECK(r.events[t].start == Approx(start));
  CHECK(r.events[t].end == Approx(end));
}

TEST_CASE("a chain runs in sequence on one thread, whatever the thread count") {
  const std::vector<SimTask> chain = {task(0, 1, {1}), task(1, 2, {2}), task(2, 3)};
  for (int threads : {1, 2, 4}) {
    const SimResult r = run(chain, threads);
    CHECK(r.latency == Approx(6));
    CHECK(r.critical_path == Approx(6));
    for (uint32_t t = 0; t < 3; ++t) CHECK(r.events[t].thread == 0);  // each continues into the next
    CHECK(r.busy[0] == Approx(6));
    if (threads > 1) CHECK(r.idle[1] == Approx(6));
  }
}

// root (1) -> four children (2 each) -> join (1).
std::vector<SimTask> fork_join() {
  return {task(0, 1, {1, 2, 3, 4}), task(1, 2, {5}), task(1, 2, {5}), task(1, 2, {5}), task(1, 2, {5}), task(2, 1)};
}

TEST_CASE("fork-join, dynamic: the first child continues, the idle thread steals the oldest") {
  const SimResult one = run(fork_join(), 1);
  CHECK(one.latency == Approx(10));

  // Thread 0 runs the root, continues into child 1 and queues 2, 3, 4 to take them in that
  // order; thread 1 steals the oldest (4). At 3 thread 0 takes its newest (2), thread 1
  // steals 3. Thread 1 finishes the last child (ties go to the lower thread first) and
  // continues into the join.
  const SimResult two = run(fork_join(), 2);
  CHECK(two.latency == Approx(6));
  check_event(two, 0, 0, 0, 1);
  check_event(two, 1, 0, 1, 3);
  check_event(two, 4, 1, 1, 3);
  check_event(two, 2, 0, 3, 5);
  check_event(two, 3, 1, 3, 5);
  check_event(two, 5, 1, 5, 6);
  CHECK(two.critical_path == Approx(4));
  CHECK(two.idle[1] == Approx(1));
}

TEST_CASE("children made ready in bulk go to their home threads, each thread taking its run in order") {
  // root (1) -> six children (1 each): five queued, at least two per thread. Homes: 1-3 on
  // thread 0, 4-6 on thread 1. Thread 0 continues into 1 and takes 2, 3; thread 1 takes 4, 5,
  // 6, where left on thread 0's deque it would have stolen 6, 5, 4.
  std::vector<SimTask> bulk = {task(0, 1, {1, 2, 3, 4, 5, 6})};
  for (int i = 0; i < 6; ++i) bulk.push_back(task(1, 1));
  const SimResult r = run(bulk, 2);
  for (uint32_t t = 1; t <= 3; ++t) check_event(r, t, 0, t, t + 1);
  for (uint32_t t = 4; t <= 6; ++t) check_event(r, t, 1, t - 3, t - 2);
  // Deferring children go to their homes' oldest ends, taken in order too.
  for (uint32_t t = 1; t <= 6; ++t) bulk[t].defers_depth_first = true;
  const SimResult deferred = run(bulk, 2);
  for (uint32_t t = 1; t <= 3; ++t) check_event(deferred, t, 0, t, t + 1);
  for (uint32_t t = 4; t <= 6; ++t) check_event(deferred, t, 1, t - 3, t - 2);
}

TEST_CASE("a layer whose weights exceed a core's cache waits for the layer before, not band by band") {
  // root -> two bands of layer 1 -> one band of layer 2 each. Depth-first, band a of layer 2
  // runs as soon as band a of layer 1 is done, between the two bands of layer 1.
  std::vector<SimTask> layers = {task(0, 1, {1, 2}), task(1, 1, {3}), task(1, 1, {4}), task(2, 1), task(2, 1)};
  const SimResult interleaved = run(layers, 1);
  check_event(interleaved, 3, 0, 2, 3);
  check_event(interleaved, 2, 0, 3, 4);
  // Layer 2 defers: its ready bands go behind the work queued before them.
  layers[3].defers_depth_first = layers[4].defers_depth_first = true;
  const SimResult deferred = run(layers, 1);
  check_event(deferred, 2, 0, 2, 3);
  check_event(deferred, 3, 0, 3, 4);
  check_event(deferred, 4, 0, 4, 5);
  CHECK(deferred.latency == Approx(5));
}

TEST_CASE("fork-join, barrier: each node's tasks go to their home threads, one node at a time") {
  const SimResult r = run(fork_join(), 2, SimScheduler::kBarrier);
  CHECK(r.latency == Approx(6));
  // The children's homes: 0, 0, 1, 1; each thread takes its run in order.
  check_event(r, 1, 0, 1, 3);
  check_event(r, 2, 0, 3, 5);
  check_event(r, 3, 1, 1, 3);
  check_event(r, 4, 1, 3, 5);
  // The join's home is thread 0, but thread 1 finished the node last, released the join and,
  // looking for work before the idle thread 0, steals it.
  check_event(r, 5, 1, 5, 6);
}

TEST_CASE("unbalanced tiles: home placement, then stealing only what is queued") {
  // One node of four tiles: 5, 1, 1, 1 time units; homes 0, 0, 1, 1. Thread 0 takes its first
  // (the 5); thread 1 takes its two, then steals thread 0's queued 1 and finds nothing more.
  const std::vector<SimTask> tiles = {task(0, 5), task(0, 1), task(0, 1), task(0, 1)};
  const SimResult r = run(tiles, 2);
  check_event(r, 0, 0, 0, 5);
  check_event(r, 2, 1, 0, 1);
  check_event(r, 3, 1, 1, 2);
  check_event(r, 1, 1, 2, 3);
  CHECK(r.latency == Approx(5));
  CHECK(r.idle[1] == Approx(2));
  CHECK(run(tiles, 4).latency == Approx(5));  // one tile a thread
}

TEST_CASE("overheads, steals and wake-ups are charged where the policy pays them") {
  const SimCosts costs{0.5, 0.25, 0.125};
  const SimResult r = run(fork_join(), 2, SimScheduler::kDynamic, costs);
  // Both threads wake at 0.125; thread 0 runs the root to 1.625 and continues into child 1
  // (to 4.125); thread 1, idle, wakes and steals child 4: 1.625 + 0.125 + 0.25 = 2, to 4.5.
  check_event(r, 0, 0, 0.125, 1.625);
  check_event(r, 1, 0, 1.625, 4.125);
  check_event(r, 4, 1, 2, 4.5);
  // Thread 0 takes its own newest (2) at once; thread 1, not idle, steals 3 at 4.75.
  check_event(r, 2, 0, 4.125, 6.625);
  check_event(r, 3, 1, 4.75, 7.25);
  check_event(r, 5, 1, 7.25, 8.75);
  CHECK(r.latency == Approx(8.75));
}

TEST_CASE("inputs made on another thread cost their bytes at the cross-core rate") {
  // The fork-join on two threads: the join runs on thread 1 after children from both threads,
  // so half its input bytes cross; child 4, stolen by thread 1, reads all of the root's.
  std::vector<SimTask> tasks = fork_join();
  for (SimTask& t : tasks) t.input_bytes = 1000;
  SimCosts costs;
  costs.cross_core_byte = 1e-3;  // 1 s per 1000 bytes
  const SimResult r = run(tasks, 2, SimScheduler::kDynamic, costs);
  check_event(r, 0, 0, 0, 1);  // no parents
  check_event(r, 1, 0, 1, 3);  // continues on the root's thread
  check_event(r, 4, 1, 1, 4);  // stolen: + 1
  check_event(r, 2, 0, 3, 5);
  check_event(r, 3, 1, 4, 7);    // stolen: + 1
  check_event(r, 5, 1, 7, 8.5);  // two of its four parents ran on thread 0: + 0.5
  // One thread: nothing crosses.
  CHECK(run(tasks, 1, SimScheduler::kDynamic, costs).latency == Approx(10));
}

TEST_CASE("a task with a parent on another thread pays the remote-input cost once") {
  // The fork-join on two threads with 0.25 per task fed by another thread, whatever its bytes.
  SimCosts costs;
  costs.remote_input = 0.25;
  const SimResult r = run(fork_join(), 2, SimScheduler::kDynamic, costs);
  check_event(r, 0, 0, 0, 1);
  check_event(r, 1, 0, 1, 3);       // continues on the root's thread: nothing
  check_event(r, 4, 1, 1, 3.25);    // stolen: the root ran on thread 0
  check_event(r, 2, 0, 3, 5);       // thread 0's own: nothing
  check_event(r, 3, 1, 3.25, 5.5);  // stolen
  check_event(r, 5, 1, 5.5, 6.75);  // two of its parents ran on thread 0: charged once
  // One thread: nothing crosses.
  CHECK(run(fork_join(), 1, SimScheduler::kDynamic, costs).latency == Approx(10));
}

// Two nodes of two tasks, each of the second reading one of the first: 4 units of bytes per
// task, 1 of them output; a second-node task saves 0.5 when its input is still in its core's
// cache, 0.25 when only in the shared one.
std::vector<SimTask> two_layers() {
  std::vector<SimTask> tasks = {task(0, 1, {2}), task(0, 1, {3}), task(1, 1), task(1, 1)};
  for (SimTask& t : tasks) {
    t.bytes = 4;
    t.output_bytes = 1;
  }
  for (uint32_t t : {2, 3}) {
    tasks[t].saving_in_own_cache = 0.5;
    tasks[t].saving_in_shared_cache = 0.25;
  }
  return tasks;
}

TEST_CASE("a task finds the inputs its thread made just before in cache: depth-first saves, op by op not") {
  SimCosts costs;
  costs.own_cache_bytes = 4;  // an output of 1 stays whole while its thread touches at most 3 more
  const std::vector<SimTask> tasks = two_layers();
  // Depth-first: task 0 runs, its child continues at once (since 0: all left), and so do task
  // 1 and its child.
  const SimResult dynamic = run(tasks, 1, SimScheduler::kDynamic, costs);
  check_event(dynamic, 0, 0, 0, 1);
  check_event(dynamic, 2, 0, 1, 1.5);
  check_event(dynamic, 1, 0, 1.5, 2.5);
  check_event(dynamic, 3, 0, 2.5, 3);
  CHECK(dynamic.locality[3] == Approx(-0.5));
  // One node at a time: 4 bytes since each producer, nothing of its output left.
  const SimResult barrier = run(tasks, 1, SimScheduler::kBarrier, costs);
  CHECK(barrier.latency == Approx(4));
  // Half a byte more of cache keeps half of each producer's output (4 bytes since each).
  costs.own_cache_bytes = 4.5;
  const SimResult larger = run(tasks, 1, SimScheduler::kBarrier, costs);
  CHECK(larger.locality[2] == Approx(-0.25));
  CHECK(larger.locality[3] == Approx(-0.25));
  // No cache: no saving.
  CHECK(run(tasks, 1, SimScheduler::kDynamic, {}).latency == Approx(4));
}

TEST_CASE("inputs another thread made come only from the shared cache") {
  SimCosts costs;
  costs.own_cache_bytes = 4;
  costs.shared_cache_bytes = 100;
  // Op by op on two threads: each node's tasks go to their home threads 0 and 1, and each
  // reads its own thread's producer, pushed out of the core's cache by nothing in between.
  const std::vector<SimTask> tasks = two_layers();
  const SimResult barrier = run(tasks, 2, SimScheduler::kBarrier, costs);
  CHECK(barrier.events[2].thread == barrier.events[0].thread);
  CHECK(barrier.locality[2] == Approx(-0.5));
  // Task 2's producer on the other thread: its output only in the shared cache.
  std::vector<SimTask> crossed = two_layers();
  crossed[0].children = {3};
  crossed[1].children = {2};
  const SimResult r = run(crossed, 2, SimScheduler::kBarrier, costs);
  CHECK(r.events[2].thread != r.events[1].thread);
  CHECK(r.locality[2] == Approx(-0.25));
  CHECK(r.locality[3] == Approx(-0.25));
}

TEST_CASE("writing over memory another thread read costs its bytes while that core still holds them") {
  // Op by op on two threads, tasks 0 and 2 on thread 0, 1 and 3 on thread 1. Task 2 writes over
  // a byte task 1 read on the other thread; task 3 over one its own thread read.
  SimCosts costs;
  costs.overwrite_byte = 0.5;
  costs.own_cache_bytes = 100;
  std::vector<SimTask> tasks = two_layers();
  for (uint32_t t : {2, 3}) tasks[t].saving_in_own_cache = tasks[t].saving_in_shared_cache = 0;
  tasks[2].overwrites = {{1, 1}};
  tasks[3].overwrites = {{1, 1}};
  const SimResult r = run(tasks, 2, SimScheduler::kBarrier, costs);
  REQUIRE(r.events[1].thread == 1);
  REQUIRE(r.events[2].thread == 0);
  REQUIRE(r.events[3].thread == 1);
  CHECK(r.locality[2] == Approx(0.5));
  CHECK(r.locality[3] == 0);
  CHECK(r.latency == Approx(2.5));
  // Thread 1 touched task 3's 4 bytes since task 1 read: a cache of 4.5 still holds half.
  costs.own_cache_bytes = 4.5;
  CHECK(run(tasks, 2, SimScheduler::kBarrier, costs).locality[2] == Approx(0.25));
  // Two readers on the other thread, 2 bytes in all: charged up to the task's 1 byte of output.
  costs.own_cache_bytes = 100;
  tasks[2].overwrites = {{1, 1}, {1, 1}};
  CHECK(run(tasks, 2, SimScheduler::kBarrier, costs).locality[2] == Approx(0.5));
  // One thread: every reader ran here.
  CHECK(run(tasks, 1, SimScheduler::kBarrier, costs).latency == Approx(4));
}

TEST_CASE("writing lines nobody touched this run costs what the task says, on any thread") {
  std::vector<SimTask> chain = {task(0, 1, {1}), task(1, 2)};
  chain[1].stale_write_seconds = 0.5;
  for (int threads : {1, 2}) {
    const SimResult r = run(chain, threads);
    CHECK(r.locality[0] == 0);
    CHECK(r.locality[1] == Approx(0.5));
    CHECK(r.latency == Approx(3.5));
  }
}

TEST_CASE("no tasks: nothing to do") {
  const SimResult r = run({}, 2);
  CHECK(r.latency == 0);
  CHECK(r.events.empty());
}

}  // namespace
}  // namespace tessera::plan
