// Weights files held whole or in segments.
#include "core/base/weights_file.h"

#include <algorithm>

namespace tessera {

WeightsFile::WeightsFile(AlignedBuffer whole) : file_bytes_(static_cast<int64_t>(whole.size())) {
  if (whole.size() > 0) {
    by_address_.emplace_back(whole.data(), 0);
    segments_.push_back({0, std::move(whole)});
  }
}

std::optional<WeightsFile> WeightsFile::segmented(std::vector<std::pair<int64_t, int64_t>> extents,
                                                  int64_t file_bytes) {
  constexpr int64_t kAlign = static_cast<int64_t>(AlignedBuffer::kAlignment);
  // Each stretch starts at a multiple of the alignment, so its bytes keep the file's alignment.
  std::vector<std::pair<int64_t, int64_t>> stretches;  // [begin, end)
  for (const auto& [offset, bytes] : extents) {
    if (bytes > 0) stretches.emplace_back(offset / kAlign * kAlign, offset + bytes);
  }
  std::sort(stretches.begin(), stretches.end());
  WeightsFile file;
  file.file_bytes_ = file_bytes;
  file.piecewise_ = true;
  for (size_t i = 0; i < stretches.size();) {
    auto [begin, end] = stretches[i];
    for (++i; i < stretches.size() && stretches[i].first < end; ++i) end = std::max(end, stretches[i].second);
    AlignedBuffer bytes = AlignedBuffer::allocate(static_cast<size_t>(end - begin));
    if (bytes.data() == nullptr) return std::nullopt;
    file.by_address_.emplace_back(bytes.data(), static_cast<int>(file.segments_.size()));
    file.segments_.push_back({begin, std::move(bytes)});
  }
  std::sort(file.by_address_.begin(), file.by_address_.end());
  return file;
}

int WeightsFile::segment_of(const void* p) const {
  const auto* byte = static_cast<const std::byte*>(p);
  auto after = std::upper_bound(by_address_.begin(), by_address_.end(), byte,
                                [](const std::byte* b, const auto& entry) { return b < entry.first; });
  if (after == by_address_.begin()) return -1;
  const int s = std::prev(after)->second;
  const AlignedBuffer& b = segments_[s].bytes;  // a freed one holds nothing
  return b.data() != nullptr && byte < b.data() + b.size() ? s : -1;
}

std::vector<WeightsFile::Segment>::const_iterator WeightsFile::after(int64_t offset) const {
  return std::upper_bound(segments_.begin(), segments_.end(), offset,
                          [](int64_t o, const Segment& s) { return o < s.offset; });
}

const WeightsFile::Segment* WeightsFile::holding(int64_t offset) const {
  const auto next = after(offset);
  if (next == segments_.begin()) return nullptr;
  const Segment& s = *std::prev(next);
  return s.bytes.data() != nullptr && offset < s.end() ? &s : nullptr;
}

const std::byte* WeightsFile::at(int64_t offset) const {
  const Segment* s = holding(offset);
  return s ? s->bytes.data() + (offset - s->offset) : nullptr;
}

int64_t WeightsFile::held_from(int64_t offset) const {
  const Segment* s = holding(offset);
  return s ? s->end() - offset : 0;
}

std::pair<std::byte*, int64_t> WeightsFile::span(int64_t offset) {
  if (const Segment* s = holding(offset)) return {s->bytes.data() + (offset - s->offset), s->end() - offset};
  const auto next = after(offset);
  return {nullptr, std::max<int64_t>((next == segments_.end() ? file_bytes_ : next->offset) - offset, 1)};
}

void WeightsFile::release_pages(const void* begin, size_t bytes) const {
  if (mapped()) segments_[0].bytes.release_pages(begin, bytes);
}

void WeightsFile::release_all_pages() const {
  if (mapped()) segments_[0].bytes.release_pages(segments_[0].bytes.data(), segments_[0].bytes.size());
}

}  // namespace tessera
