// Arena planning: every run-time tensor that owns bytes (not a view, not a constant) gets an
// offset; tensors whose lifetimes (in node order) do not overlap may share bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/graph/graph.h"

namespace tessera::tiles {

struct Storage {
  int tensor = -1;
  int64_t bytes = 0;   // rounded up to the arena alignment
  int first_use = 0;   // producing node; -1 for graph inputs
  int last_use = 0;    // last node reading it or a view of it; INT_MAX for graph outputs
  int64_t offset = 0;  // in the arena
};

struct MemoryPlan {
  std::vector<Storage> storages;
  std::vector<int> storage_index;  // per tensor: its own or its view source's storage, or -1
  int64_t arena_bytes = 0;
  int64_t tensor_bytes = 0;  // sum over storages: the arena size without reuse
};

// Greedy by size (largest first, lowest offset that fits), which packs typical CNN and
// transformer lifetimes within a few percent of the peak live size. Without reuse every
// tensor gets its own bytes.
MemoryPlan plan_memory(const graph::Graph& g, bool reuse);

// True when the byte ranges of two storages overlap.
bool bytes_overlap(const Storage& a, const Storage& b);

}  // namespace tessera::tiles
