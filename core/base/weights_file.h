// WeightsFile: a model's weights file in memory. Either the whole file in one buffer (mapped
// read-only natively, whose packed pages can be given back and are read again when touched;
// or heap memory), or one heap buffer per stretch of initializers (segments), each of which
// can be freed once every kernel reading it holds a copy: packed copies then take the place
// of the weights as they are made, instead of beside all of them.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/base/aligned_buffer.h"

namespace tessera {

class WeightsFile {
 public:
  WeightsFile() = default;
  explicit WeightsFile(AlignedBuffer whole);
  // Heap buffers holding the [offset, offset + bytes) extents of a `file_bytes`-byte file
  // (extents that overlap share one); none when memory runs out.
  static std::optional<WeightsFile> segmented(std::vector<std::pair<int64_t, int64_t>> extents, int64_t file_bytes);

  int64_t size() const { return file_bytes_; }  // the file's bytes, held or not
  bool mapped() const { return segments_.size() == 1 && segments_[0].bytes.mapped(); }
  // Where the file's byte `offset` is held and how many bytes from there are held in a row;
  // where it is not held, null and how many bytes to skip to the next that is (or the end).
  std::pair<std::byte*, int64_t> span(int64_t offset);
  // The file's byte `offset`, or null when it is not held (or was freed).
  const std::byte* at(int64_t offset) const;
  // How many bytes from `offset` on are held in a row (0: none).
  int64_t held_from(int64_t offset) const;
  // Whether it holds stretches of the file, each freed on its own (segmented), rather than
  // the whole file, which goes when the last graph pointing into it lets go.
  bool piecewise() const { return piecewise_; }
  // The segment holding `p` (one while memory is held), or -1.
  int segment_of(const void* p) const;
  int segments() const { return static_cast<int>(segments_.size()); }
  const AlignedBuffer& segment(int s) const { return segments_[s].bytes; }
  // The buffer holding the whole file, when one does (else null).
  const AlignedBuffer* whole() const {
    return segments_.size() == 1 && segments_[0].offset == 0 &&
                   segments_[0].bytes.size() == static_cast<size_t>(file_bytes_)
               ? &segments_[0].bytes
               : nullptr;
  }
  // Frees segment `s`: nothing reads its bytes any more (const: the file is shared read-only
  // by the graphs that point into it, and this is the end of that).
  void free_segment(int s) const { segments_[s].bytes = AlignedBuffer(); }
  // Drops the resident pages of a mapped file inside [begin, begin + bytes), or all of them
  // (AlignedBuffer::release_pages); heap memory stays.
  void release_pages(const void* begin, size_t bytes) const;
  void release_all_pages() const;

 private:
  struct Segment {
    int64_t offset = 0;  // in the file
    mutable AlignedBuffer bytes;
    int64_t end() const { return offset + static_cast<int64_t>(bytes.size()); }
  };
  // The first segment after `offset`'s (segments_.end() for none).
  std::vector<Segment>::const_iterator after(int64_t offset) const;
  // The held segment holding the file's byte `offset`, or null.
  const Segment* holding(int64_t offset) const;
  std::vector<Segment> segments_;                             // by offset, disjoint
  std::vector<std::pair<const std::byte*, int>> by_address_;  // each segment's first byte, sorted
  int64_t file_bytes_ = 0;
  bool piecewise_ = false;
};

}  // namespace tessera
