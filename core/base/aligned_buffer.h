// AlignedBuffer: an owned, 64-byte aligned block of bytes (cache line and zmm aligned): heap
// memory, pages of its own (large blocks, natively), or a read-only mapping of a file, whose
// pages the OS reads when touched and may drop again (release_pages), so weights already
// packed need not stay resident.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace tessera {

class AlignedBuffer {
 public:
  static constexpr size_t kAlignment = 64;

  // `bytes` rounded up to a whole number of alignments: where the next block starts.
  static constexpr int64_t padded(int64_t bytes) {
    constexpr int64_t a = static_cast<int64_t>(kAlignment);
    return (bytes + a - 1) / a * a;
  }

  AlignedBuffer() = default;
  // Returns an empty buffer (data() == nullptr) when the allocation fails; callers report it.
  static AlignedBuffer allocate(size_t bytes);
  // The first `bytes` bytes of the open file `fd`, mapped read-only; an empty buffer when the
  // file cannot be mapped (or in WebAssembly), for callers to read it instead.
  static AlignedBuffer map_file(int fd, size_t bytes);
  AlignedBuffer(AlignedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        memory_(std::exchange(other.memory_, Memory::kHeap)) {}
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(memory_, other.memory_);
    return *this;
  }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  ~AlignedBuffer() { memory_ == Memory::kHeap ? std::free(data_) : unmap(); }

  // Drops the resident pages lying wholly inside [begin, begin + bytes) of a mapped file; the
  // bytes stay readable (the OS reads them from the file again when touched). Memory of any
  // other kind, and bytes outside the buffer, are left as they are.
  void release_pages(const void* begin, size_t bytes) const;
  bool mapped() const { return memory_ == Memory::kFile; }

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
  // Where the bytes live: the C heap, a file mapping, or pages mapped for this buffer alone.
  enum class Memory : uint8_t { kHeap, kFile, kPages };

  void unmap();

  std::byte* data_ = nullptr;
  size_t size_ = 0;
  Memory memory_ = Memory::kHeap;
};

}  // namespace tessera
