// AlignedBuffer: an owned, 64-byte aligned block of bytes (cache line and zmm aligned).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace tessera {

class AlignedBuffer {
 public:
  static constexpr size_t kAlignment = 64;

  AlignedBuffer() = default;
  // Returns an empty buffer (data() == nullptr) when the allocation fails; callers report it.
  static AlignedBuffer allocate(size_t bytes) {
    AlignedBuffer buffer;
    if (bytes == 0) return buffer;
    const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    buffer.data_ = static_cast<std::byte*>(std::aligned_alloc(kAlignment, rounded));
    if (buffer.data_ != nullptr) buffer.size_ = bytes;
    return buffer;
  }
  AlignedBuffer(AlignedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  ~AlignedBuffer() { std::free(data_); }

  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  size_t size() const { return size_; }
  template <class T>
  T* as() {
    return reinterpret_cast<T*>(data_);
  }
  template <class T>
  const T* as() const {
    return reinterpret_cast<const T*>(data_);
  }

 private:
  std::byte* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace tessera
