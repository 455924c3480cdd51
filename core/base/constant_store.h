// ConstantStore: where a model's computed constants live, shared by all its specialisations.
// Each specialisation rebuilds its graph and recomputes folded constants (BatchNorm folded
// into weights, constant subgraphs); interning them by content makes every specialisation
// point at the same bytes, so weights and the kernels' packed copies exist once per model.
// Thread-safe: specialisations of one model may be compiled concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/base/aligned_buffer.h"

namespace tessera {

// What a buffer was packed from and how: the kernel, its sources by address, its layout
// parameters. Addresses name sources only while they live: see forget_packed_from.
struct PackKey {
  std::string kernel;
  std::vector<uintptr_t> sources;
  std::vector<double> parameters;
  bool operator<(const PackKey& o) const {
    return std::tie(kernel, sources, parameters) < std::tie(o.kernel, o.sources, o.parameters);
  }
};

class ConstantStore {
 public:
  // A buffer holding these bytes: an existing one with the same content if some
  // specialisation still holds it, else a new copy. Aborts only if memory runs out.
  std::shared_ptr<const AlignedBuffer> intern(const void* data, size_t bytes);

  // Bytes of the live computed constants and of the live packed weights.
  struct Usage {
    int64_t constant_bytes = 0;
    int64_t packed_bytes = 0;
  };
  Usage usage();

  // Packed weights, shared the same way: `pack` returns a new buffer when none is alive for
  // `key`, or an empty one when memory runs out (then null is returned and nothing is kept).
  template <class Pack>
  std::shared_ptr<const AlignedBuffer> packed(const PackKey& key, Pack&& pack) {
    std::lock_guard lock(mutex_);
    if (auto found = packed_[key].lock()) return found;
    AlignedBuffer buffer = pack();
    if (buffer.data() == nullptr) return nullptr;
    auto shared = std::make_shared<const AlignedBuffer>(std::move(buffer));
    packed_[key] = shared;
    return shared;
  }

  // Sources inside [begin, begin + bytes) are being freed: a later source allocated at one of
  // their addresses must not find what was packed from them.
  void forget_packed_from(const void* begin, size_t bytes);

 private:
  std::mutex mutex_;
  std::unordered_multimap<size_t, std::weak_ptr<const AlignedBuffer>> by_hash_;
  std::map<PackKey, std::weak_ptr<const AlignedBuffer>> packed_;
};

}  // namespace tessera
