// The simulation: completions are processed in time order (ties by thread), and at each one
// the finishing thread and then every idle thread apply the runtime's policy to the
// simulated deques.
#include "core/plan/simulator.h"

#include <algorithm>
#include <deque>
#include <queue>
#include <tuple>

#include "core/base/check.h"
#include "core/tiles/schedule_policy.h"

namespace tessera::plan {

namespace {

namespace policy = tiles::policy;

class Simulation {
 public:
  Simulation(std::span<const SimTask> tasks, const SimOptions& options)
      : tasks_(tasks),
        options_(options),
        deques_(options.threads),
        idle_(options.threads, true),
        idle_since_(options.threads, 0.0),
        pending_(tasks.size(), 0),
        parents_(tasks.size()),
        touched_(options.threads, 0.0),
        touched_after_(tasks.size(), 0.0),
        all_touched_after_(tasks.size(), 0.0) {
    TESSERA_CHECK(options.threads >= 1);
    result_.busy.assign(options.threads, 0);
    result_.events.assign(tasks.size(), SimEvent{});
    result_.locality.assign(tasks.size(), 0.0);
    for (uint32_t t = 0; t < tasks.size(); ++t) {
      for (uint32_t child : tasks[t].children) {
        ++pending_[child];
        parents_[child].push_back(t);
      }
    }
    // Nodes: contiguous runs of tasks.
    for (uint32_t t = 0; t < tasks.size(); ++t) {
      if (t == 0 || tasks[t].node != tasks[t - 1].node) nodes_.push_back({t, 0});
      ++nodes_.back().count;
      node_of_.push_back(static_cast<uint32_t>(nodes_.size() - 1));
    }
  }

  SimResult run() {
    if (tasks_.empty()) return result_;
    if (options_.scheduler == SimScheduler::kBarrier) {
      release_node(0);
    } else {
      for (uint32_t t = static_cast<uint32_t>(tasks_.size()); t-- > 0;) {
        if (pending_[t] == 0) push_home(t);  // in reverse: each thread takes its run in order
      }
    }
    dispatch_idle(0);
    while (!completions_.empty()) {
      const auto [time, thread, task] = completions_.top();
      completions_.pop();
      finish(task, thread, time);
    }
    for (const SimEvent& event : result_.events) result_.latency = std::max(result_.latency, event.end);
    for (double busy : result_.busy) result_.idle.push_back(result_.latency - busy);
    result_.critical_path = critical_path();
    return result_;
  }

 private:
  struct Node {
    uint32_t first;
    uint32_t count;
  };
  using Completion = std::tuple<double, int, uint32_t>;  // time, thread, task

  double duration(uint32_t task) const { return tasks_[task].seconds + options_.costs.task_overhead; }

  int home_of(uint32_t task) const {
    const Node& node = nodes_[node_of_[task]];
    return policy::home_thread(task - node.first, node.count, options_.threads);
  }
  void push_home(uint32_t task) { deques_[home_of(task)].push_back(task); }

  // The executor's queue_children.
  void queue_children(int thread, std::span<const uint32_t> tasks, bool oldest) {
    policy::queue_ready_children(
        tasks, oldest, thread, options_.threads, [&](uint32_t task) { return home_of(task); },
        [&](uint32_t task, int to) { oldest ? deques_[to].push_front(task) : deques_[to].push_back(task); });
  }

  void release_node(uint32_t index) {
    if (index >= nodes_.size()) return;
    current_node_ = index;
    node_remaining_ = nodes_[index].count;
    for (uint32_t t = nodes_[index].first + nodes_[index].count; t-- > nodes_[index].first;) push_home(t);
  }

  void start(int thread, uint32_t task, double time) {
    idle_[thread] = false;
    result_.locality[task] = remote_input_seconds(task, thread) + overwrite_seconds(task, thread) +
                             tasks_[task].stale_write_seconds - warm_input_seconds(task, thread);
    touched_[thread] += tasks_[task].bytes;
    touched_after_[task] = touched_[thread];
    all_touched_ += tasks_[task].bytes;
    all_touched_after_[task] = all_touched_;
    const double busy = duration(task) + result_.locality[task];
    result_.events[task] = {thread, time, time + busy};
    result_.busy[thread] += busy;
    completions_.emplace(time + busy, thread, task);
  }

  // A task whose producers ran on other threads: the hand-over, and their share of its input
  // bytes at the price of reading them from another core's cache.
  double remote_input_seconds(uint32_t task, int thread) const {
    const std::vector<uint32_t>& parents = parents_[task];
    const auto remote =
        std::count_if(parents.begin(), parents.end(), [&](uint32_t p) { return result_.events[p].thread != thread; });
    if (remote == 0) return 0;
    return options_.costs.remote_input + tasks_[task].input_bytes * static_cast<double>(remote) /
                                             static_cast<double>(parents.size()) * options_.costs.cross_core_byte;
  }

  // A task writing memory whose last readers ran on other threads: the bytes those read,
  // while their cores still hold them (their threads touched less than their own cache holds
  // since), up to its output. A line any other core read costs, whoever else read it, and
  // readers' byte ranges overlap: hence the sum, capped.
  double overwrite_seconds(uint32_t task, int thread) const {
    const SimTask& t = tasks_[task];
    if (options_.costs.overwrite_byte <= 0) return 0;
    double held = 0;
    for (const SimOverwrite& o : t.overwrites) {
      const int reader = result_.events[o.reader].thread;
      if (reader == thread) continue;
      held +=
          o.bytes * cache_left(options_.costs.own_cache_bytes, touched_[reader] - touched_after_[o.reader], o.bytes);
    }
    return std::min(held, t.output_bytes) * options_.costs.overwrite_byte;
  }

  // The share of `bytes` still in a cache of `capacity` after `since` bytes more.
  static double cache_left(double capacity, double since, double bytes) {
    return bytes > 0 ? std::clamp(capacity - since, 0.0, bytes) / bytes : 0;
  }

  // A task whose producers ran just before finds their outputs still in its core's cache (if
  // they ran on its thread) or in the shared one, less what was touched since pushed out; the
  // parents count alike, as above.
  double warm_input_seconds(uint32_t task, int thread) const {
    const SimTask& t = tasks_[task];
    const std::vector<uint32_t>& parents = parents_[task];
    if ((t.saving_in_own_cache <= 0 && t.saving_in_shared_cache <= 0) || parents.empty()) return 0;
    double own = 0, shared = 0;
    for (uint32_t p : parents) {
      const double output = tasks_[p].output_bytes;
      const double in_own =
          result_.events[p].thread == thread
              ? cache_left(options_.costs.own_cache_bytes, touched_[thread] - touched_after_[p], output)
              : 0;
      own += in_own;
      shared += std::max(
          0.0, cache_left(options_.costs.shared_cache_bytes, all_touched_ - all_touched_after_[p], output) - in_own);
    }
    return (t.saving_in_own_cache * own + t.saving_in_shared_cache * shared) / static_cast<double>(parents.size());
  }

  // The runtime's find_work over the simulated deques; starts what it finds.
  bool pick(int thread, double now, bool woken) {
    uint32_t task = 0;
    int from = thread;
    const bool found = policy::find_work(thread, options_.threads, [&](int victim, policy::End end) {
      std::deque<uint32_t>& ready = deques_[victim];
      if (ready.empty()) return false;
      task = end == policy::End::kNewest ? ready.back() : ready.front();
      end == policy::End::kNewest ? ready.pop_back() : ready.pop_front();
      from = victim;
      return true;
    });
    if (!found) return false;
    // A thread idle for less than the spin time is still spinning: no wake-up to pay.
    const bool asleep = woken && now - idle_since_[thread] >= options_.costs.spin;
    const double delay = (asleep ? options_.costs.wake : 0) + (from != thread ? options_.costs.steal : 0);
    start(thread, task, now + delay);
    return true;
  }

  void dispatch_idle(double now) {
    for (int thread = 0; thread < options_.threads; ++thread) {
      if (idle_[thread]) pick(thread, now, /*woken=*/true);
    }
  }

  void finish(uint32_t task, int thread, double now) {
    bool continuing = false;
    uint32_t next = 0;
    newest_.clear();
    oldest_.clear();
    if (options_.scheduler == SimScheduler::kBarrier) {
      if (--node_remaining_ == 0) release_node(current_node_ + 1);
    } else {
      for (uint32_t child : tasks_[task].children) {
        if (--pending_[child] != 0) continue;
        switch (policy::place_ready_child(continuing, tasks_[child].defers_depth_first)) {
          case policy::Placement::kContinue:
            next = child;
            continuing = true;
            break;
          case policy::Placement::kNewest: newest_.push_back(child); break;
          case policy::Placement::kOldest: oldest_.push_back(child); break;
        }
      }
      queue_children(thread, oldest_, /*oldest=*/true);
      queue_children(thread, newest_, /*oldest=*/false);
    }
    if (continuing) {
      start(thread, next, now);
    } else if (!pick(thread, now, /*woken=*/false)) {
      idle_[thread] = true;
      idle_since_[thread] = now;
    }
    dispatch_idle(now);
  }

  // The longest chain of task durations, over the tasks in dependency order (Kahn).
  double critical_path() const {
    std::vector<uint32_t> parents(tasks_.size(), 0);
    for (const SimTask& task : tasks_) {
      for (uint32_t child : task.children) ++parents[child];
    }
    std::vector<double> finish(tasks_.size(), 0);
    std::vector<uint32_t> ready;
    for (uint32_t t = 0; t < tasks_.size(); ++t) {
      if (parents[t] == 0) ready.push_back(t);
    }
    double longest = 0;
    while (!ready.empty()) {
      const uint32_t t = ready.back();
      ready.pop_back();
      finish[t] += duration(t);
      longest = std::max(longest, finish[t]);
      for (uint32_t child : tasks_[t].children) {
        finish[child] = std::max(finish[child], finish[t]);
        if (--parents[child] == 0) ready.push_back(child);
      }
    }
    return longest;
  }

  std::span<const SimTask> tasks_;
  SimOptions options_;
  std::vector<std::deque<uint32_t>> deques_;
  std::vector<uint32_t> newest_, oldest_;  // children of the finishing task to queue at each end
  std::vector<bool> idle_;
  std::vector<double> idle_since_;  // when each idle thread ran out of work (0: spinning at the start)
  std::vector<uint32_t> pending_;
  std::vector<std::vector<uint32_t>> parents_;
  std::vector<double> touched_;        // per thread: bytes its tasks touched so far
  std::vector<double> touched_after_;  // per task: its thread's touched_ when it ran
  double all_touched_ = 0;             // by all threads
  std::vector<double> all_touched_after_;
  std::vector<Node> nodes_;
  std::vector<uint32_t> node_of_;  // task -> index into nodes_
  uint32_t current_node_ = 0;
  uint32_t node_remaining_ = 0;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions_;
  SimResult result_;
};

}  // namespace

SimResult simulate(std::span<const SimTask> tasks, const SimOptions& options) {
  return Simulation(tasks, options).run();
}

}  // namespace tessera::plan
