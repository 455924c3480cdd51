// A thread's ready tasks: a double-ended queue over one ring buffer that grows by doubling
// and never shrinks. std::deque frees and reallocates its blocks as it empties and fills, so
// what it holds between runs depended on the order of the last pushes and pops, and a long
// series of runs left the WebAssembly heap a block larger or smaller than it found it.
#pragma once

#include <cstddef>
#include <vector>

namespace tessera::runtime {

template <class T>
class ReadyQueue {
 public:
  // 256 items of 16 bytes, a page: more than a thread holds at once on the models measured.
  explicit ReadyQueue(size_t capacity = 256) : ring_(capacity) {}

  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }

  void push_back(const T& item) {
    grow_if_full();
    ring_[index(count_)] = item;
    ++count_;
  }
  void push_front(const T& item) {
    grow_if_full();
    head_ = (head_ + ring_.size() - 1) % ring_.size();
    ring_[head_] = item;
    ++count_;
  }
  T pop_back() {
    --count_;
    return ring_[index(count_)];
  }
  T pop_front() {
    const T item = ring_[head_];
    head_ = (head_ + 1) % ring_.size();
    --count_;
    return item;
  }

 private:
  size_t index(size_t i) const { return (head_ + i) % ring_.size(); }
  void grow_if_full() {
    if (count_ < ring_.size()) return;
    std::vector<T> larger(2 * ring_.size());
    for (size_t i = 0; i < count_; ++i) larger[i] = ring_[index(i)];
    ring_ = std::move(larger);
    head_ = 0;
  }

  std::vector<T> ring_;
  size_t head_ = 0;   // the oldest item
  size_t count_ = 0;  // items from head_ on, the newest last
};

}  // namespace tessera::runtime
