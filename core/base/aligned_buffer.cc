// File mappings for AlignedBuffer: POSIX natively; WebAssembly has no pages to give back, so
// its buffers are always heap memory.
#include "core/base/aligned_buffer.h"

#include <algorithm>
#include <cstdint>

#if !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace tessera {

#if !defined(__EMSCRIPTEN__)

AlignedBuffer AlignedBuffer::map_file(int fd, size_t bytes) {
  AlignedBuffer buffer;
  if (bytes == 0) return buffer;
  void* data = mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, fd, 0);
  if (data == MAP_FAILED) return buffer;
  buffer.data_ = static_cast<std::byte*>(data);
  buffer.size_ = bytes;
  buffer.mapped_ = true;
  return buffer;
}

void AlignedBuffer::release_pages(const void* begin, size_t bytes) const {
  if (!mapped_) return;
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t start = std::max(reinterpret_cast<uintptr_t>(begin), reinterpret_cast<uintptr_t>(data_));
  const uintptr_t end =
      std::min(reinterpret_cast<uintptr_t>(begin) + bytes, reinterpret_cast<uintptr_t>(data_) + size_);
  const uintptr_t first = (start + page - 1) / page * page;
  const uintptr_t last = end / page * page;
  // A private read-only mapping holds no changes of its own: dropped pages read back as they were.
  if (first < last) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

void AlignedBuffer::unmap() { munmap(data_, size_); }

#else

AlignedBuffer AlignedBuffer::map_file(int, size_t) { return {}; }
void AlignedBuffer::release_pages(const void*, size_t) const {}
void AlignedBuffer::unmap() {}

#endif

}  // namespace tessera
