// Content-interned constants.
#include "core/base/constant_store.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string_view>

#include "core/base/check.h"

namespace tessera {

std::shared_ptr<const AlignedBuffer> ConstantStore::intern(const void* data, size_t bytes) {
  const size_t hash = std::hash<std::string_view>()(std::string_view(static_cast<const char*>(data), bytes));
  std::lock_guard lock(mutex_);
  auto [first, last] = by_hash_.equal_range(hash);
  for (auto it = first; it != last;) {
    auto held = it->second.lock();
    if (!held) {
      it = by_hash_.erase(it);
      continue;
    }
    if (held->size() == bytes && (bytes == 0 || std::memcmp(held->data(), data, bytes) == 0)) return held;
    ++it;
  }
  // At least one byte, so that even an empty constant has a non-null address.
  AlignedBuffer buffer = AlignedBuffer::allocate(bytes > 0 ? bytes : 1);
  TESSERA_CHECK(buffer.data() != nullptr);
  if (bytes > 0) std::memcpy(buffer.data(), data, bytes);
  auto shared = std::make_shared<const AlignedBuffer>(std::move(buffer));
  by_hash_.emplace(hash, shared);
  return shared;
}

ConstantStore::Usage ConstantStore::usage() {
  std::lock_guard lock(mutex_);
  Usage usage;
  for (const auto& [hash, weak] : by_hash_) {
    if (auto held = weak.lock()) usage.constant_bytes += static_cast<int64_t>(held->size());
  }
  for (const auto& [key, weak] : packed_) {
    if (auto held = weak.lock()) usage.packed_bytes += static_cast<int64_t>(held->size());
  }
  return usage;
}

void ConstantStore::forget_packed_from(const void* begin, size_t bytes) {
  const auto first = reinterpret_cast<uintptr_t>(begin);
  std::lock_guard lock(mutex_);
  std::erase_if(packed_, [&](const auto& entry) {
    const auto& sources = entry.first.sources;
    return std::any_of(sources.begin(), sources.end(), [&](uintptr_t s) { return s - first < bytes; });
  });
}

}  // namespace tessera
