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

#if !defined(__EMSCRIPTEN__)
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

// Pages of their own for `bytes`, on a 2 MiB boundary when a huge page fits; null when none
// are left.
std::byte* map_pages(size_t bytes) {
  if (bytes < kHugePage) {
    void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return data == MAP_FAILED ? nullptr : static_cast<std::byte*>(data);
  }
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t length = (bytes + page - 1) / page * page;
  void* whole = mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (whole == MAP_FAILED) return nullptr;
  const auto begin = reinterpret_cast<uintptr_t>(whole);
  const uintptr_t aligned = (begin + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > begin) munmap(whole, aligned - begin);
  munmap(reinterpret_cast<void*>(aligned + length), begin + kHugePage - aligned);
  auto* data = reinterpret_cast<std::byte*>(aligned);
  madvise(data, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);  // advice: failure is harmless
  return data;
}

}  // namespace
#endif

// Blocks of at least 256 KiB get pages of their own, natively: freed, they go back to the OS
// at once. In the C heap, the allocator keeps freed memory resident after large blocks
// (up to twice the largest freed), and a model's packed weights lay among the blocks its
// compile frees (docs/benchmarks.md, "Peak memory"). Blocks of at least 2 MiB start on a
// 2 MiB boundary and ask for transparent huge pages: a model's arena and packed weights then
// take a few TLB entries instead of thousands (PP-OCRv4 det, ResNet-50 and BERT-base ran 2-5 %
// faster on one thread). The tail past the last whole huge page keeps small pages, so nothing
// is rounded up.
AlignedBuffer AlignedBuffer::allocate(size_t bytes) {
  AlignedBuffer buffer;
  if (bytes == 0) return buffer;
#if !defined(__EMSCRIPTEN__)
  constexpr size_t kOwnPages = size_t{256} << 10;
  if (bytes >= kOwnPages) {
    buffer.data_ = map_pages(bytes);
    if (buffer.data_ == nullptr) return buffer;
    buffer.size_ = bytes;
    buffer.memory_ = Memory::kPages;
    return buffer;
  }
#endif
  void* data = nullptr;
  if (posix_memalign(&data, kAlignment, static_cast<size_t>(padded(static_cast<int64_t>(bytes)))) != 0) return buffer;
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
  buffer.memory_ = Memory::kFile;
  return buffer;
}

void AlignedBuffer::release_pages(const void* begin, size_t bytes) const {
  if (memory_ != Memory::kFile) return;
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
