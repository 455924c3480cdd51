// Weights packed for a kernel, shared by every specialisation of a model. A new
// specialisation binds the same (interned) constants with the same kernel, so the key,
// naming the sources and every packing parameter, finds the buffer packed the first time:
// packed once per model, whatever the number of input shapes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include "core/base/constant_store.h"
#include "core/ops/op_contract.h"

namespace tessera::ops {

inline PackKey pack_key(std::string kernel, std::initializer_list<const void*> sources,
                        std::initializer_list<double> parameters) {
  PackKey key{std::move(kernel), {}, parameters};
  for (const void* source : sources) key.sources.push_back(reinterpret_cast<uintptr_t>(source));
  return key;
}

// A buffer of `floats` floats filled by fill(float*), from args.store when it has one for
// `key`; null when memory runs out.
template <class Fill>
std::shared_ptr<const AlignedBuffer> packed_weights(const BindArgs& args, const PackKey& key, size_t floats,
                                                    Fill&& fill) {
  auto pack = [&] {
    AlignedBuffer buffer = AlignedBuffer::allocate(sizeof(float) * floats);
    if (buffer.data() != nullptr) fill(buffer.as<float>());
    return buffer;
  };
  if (args.store != nullptr) return args.store->packed(key, pack);
  AlignedBuffer buffer = pack();
  if (buffer.data() == nullptr) return nullptr;
  return std::make_shared<const AlignedBuffer>(std::move(buffer));
}

}  // namespace tessera::ops
