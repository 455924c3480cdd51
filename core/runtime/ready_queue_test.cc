// The ready queue against std::deque, through growth and wrap-around at both ends.
#include "core/runtime/ready_queue.h"

#include <catch2/catch.hpp>
#include <deque>
#include <random>

namespace tessera::runtime {
namespace {

TEST_CASE("the ready queue behaves as a deque at both ends, through growth and wrap-around") {
  std::mt19937 rng(5);
  ReadyQueue<int> queue(4);  // small, so that it wraps and grows often
  std::deque<int> model;
  for (int step = 0; step < 20000; ++step) {
    const int op = static_cast<int>(rng() % 4);
    // More pushes than pops early on, then more pops: the queue grows, then drains.
    const bool push = op < 2 ? step < 10000 || rng() % 3 == 0 : model.empty();
    if (push) {
      if (op % 2 == 0) {
        queue.push_back(step);
        model.push_back(step);
      } else {
        queue.push_front(step);
        model.push_front(step);
      }
    } else if (!model.empty()) {
      if (op % 2 == 0) {
        REQUIRE(queue.pop_back() == model.back());
        model.pop_back();
      } else {
        REQUIRE(queue.pop_front() == model.front());
        model.pop_front();
      }
    }
    REQUIRE(queue.size() == model.size());
    REQUIRE(queue.empty() == model.empty());
  }
}

}  // namespace
}  // namespace tessera::runtime
