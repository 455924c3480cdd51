// Heap blocks and file mappings for AlignedBuffer: POSIX natively; WebAssembly has no pages
// to give back or enlarge, so its buffers are always plain heap memory.
#include "core/base/aligned_buffer.h"

#include <algorithm>
#include <cstdint>

#if !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace tessera {

// Blocks of at least 2 MiB start on a 2 MiB boundary and ask for transparent huge pages: a
// model's arena and packed weights then take a few TLB entries instead of thousands (PP-OCRv4
// det, ResNet-50 and BERT-base ran 2-5 % faster on one thread; docs/benchmarks.md). The tail
// past the last whole huge page keeps small pages, so nothing is rounded up.
AlignedBuffer AlignedBuffer::allocate(size_t bytes) {
  AlignedBuffer buffer;
  if (bytes == 0) return buffer;
  constexpr size_t kHugePage = size_t{2} << 20;
#if defined(__EMSCRIPTEN__)
  constexpr bool huge = false;
#else
  const bool huge = bytes >= kHugePage;
#endif
  void* data = nullptr;
  if (posix_memalign(&data, huge ? kHugePage : kAlignment, static_cast<size_t>(padded(static_cast<int64_t>(bytes)))) !=
      0) {
    return buffer;
  }
#if !defined(__EMSCRIPTEN__)
  if (huge) madvise(data, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);  // advice: failure is harmless
#endif
  buffer.data_ = static_cast<std::byte*>(data);
  buffer.size_ = bytes;
  return buffer;
}

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
