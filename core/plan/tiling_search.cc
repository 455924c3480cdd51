// Node and edge costs of tile configurations, and the search over them.
#include "core/plan/tiling_search.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "core/base/check.h"
#include "core/plan/cost_model.h"
#include "core/tiles/data_reach.h"
#include "core/tiles/edges.h"

namespace tessera::plan {

namespace {

// What a node's configuration costs on P threads when it runs alone: its work (kernel
// seconds and per-tile overhead, summed over tiles) spread over the threads, and its span,
// the time until its last tile ends when the tiles are dealt out evenly, and the idle tail
// (span - work / P) that other work must fill; and its exposure to a slowed thread.
struct Priced {
  double work = 0;
  double span = 0;
  double tail = 0;
  double exposure = 0;
};

// The constant inputs' bytes of a node: its weights.
double weight_bytes_of(const graph::Graph& g, const graph::Node& node) {
  double bytes = 0;
  for (int input : node.inputs) {
    if (input >= 0 && g.tensors[input].is_constant()) bytes += static_cast<double>(g.tensors[input].bytes());
  }
  return bytes;
}

Priced price(const graph::Node& node, const ops::OpShapes& shapes, double weight_bytes, double reach_bytes,
             const tiles::NodeTiling& tiling, const TilePricer& pricer, const Profile& profile, int threads,
             double interference) {
  const auto tiles = static_cast<uint32_t>(tiling.tile_count());
  std::vector<std::pair<ops::OpCost, double>> costs;  // per tile: its work and its elements
  tiles::for_each_tile(tiling, [&](const ops::Region& region) {
    costs.emplace_back(ops::op_cost(node.attrs, shapes, region), static_cast<double>(region.element_count()));
  });
  const double weights = priced_weight_bytes(costs.front().first, weight_bytes);
  double weight_reads = 0;
  for (const auto& [cost, elements] : costs) weight_reads += tile_weight_bytes(cost, weights, tiles);
  const TilePricer::Node priced = pricer.node(reach_bytes, weights, tiles, weight_reads);
  Priced p;
  double longest = 0;
  double s = 0;
  for (size_t t = 0; t < costs.size(); ++t) {
    // A grid's tiles mostly repeat the work of the one before (along a row): priced once.
    const auto& [cost, tile_elements] = costs[t];
    if (t == 0 || costs[t] != costs[t - 1]) s = pricer.seconds(priced, cost, tile_elements) + profile.executor.task;
    p.work += s;
    longest = std::max(longest, s);
  }
  const double rounds = std::ceil(static_cast<double>(tiles) / threads);
  p.span = std::max(longest, rounds * p.work / tiles);
  p.tail = p.span - p.work / threads;
  p.exposure = threads > 1 ? interference * longest : 0;  // one thread: nobody waits for it
  return p;
}

// What the largest tile of `tiling` reads and writes besides weights.
double tile_activation_bytes(const graph::Node& node, const ops::OpShapes& shapes, double weight_bytes,
                             const tiles::NodeTiling& tiling) {
  ops::Region largest;
  largest.rank = static_cast<int>(tiling.cuts.size());
  for (int d = 0; d < largest.rank; ++d) {
    const std::vector<int64_t>& cuts = tiling.cuts[d];
    size_t widest = 0;
    for (size_t i = 1; i + 1 < cuts.size(); ++i) {
      if (cuts[i + 1] - cuts[i] > cuts[widest + 1] - cuts[widest]) widest = i;
    }
    largest.begin[d] = cuts[widest];
    largest.end[d] = cuts[widest + 1];
  }
  const ops::OpCost cost = ops::op_cost(node.attrs, shapes, largest);
  const auto tiles = static_cast<uint32_t>(tiling.tile_count());
  return std::max(0.0, cost.bytes - tile_weight_bytes(cost, priced_weight_bytes(cost, weight_bytes), tiles));
}

// Drops the configurations whose tiles are larger than the start plan's and than half a
// core's own cache (`own_cache_bytes`). Such a tile finds its inputs, and leaves its output,
// in the shared levels rather than in the core's cache, and the cost model prices those
// misses far below what they cost: at one thread, whole-node tiles made MobileNetV2 batch 8
// 1.06x and PP-OCRv4 det 1.02-1.06x slower than the default's row bands (docs/planning.md).
void drop_tiles_past_own_cache(const graph::Node& node, const ops::OpShapes& shapes, double weight_bytes,
                               const tiles::NodeTiling& start, double own_cache_bytes,
                               std::vector<tiles::NodeTiling>* configs) {
  const double limit = std::max(own_cache_bytes, tile_activation_bytes(node, shapes, weight_bytes, start));
  std::erase_if(*configs, [&](const tiles::NodeTiling& t) {
    return tile_activation_bytes(node, shapes, weight_bytes, t) > limit;
  });
}

// A consumer configuration's footprints on one input, mapped to the producer's storage. The
// footprints of a tile grid repeat a few intervals per dimension, so each distinct interval is
// kept once and a footprint names one per dimension: counting a producer's tiles under the
// footprints then takes one search per distinct interval, not one per footprint.
struct Footprints {
  int rank = 0;
  std::vector<std::pair<int64_t, int64_t>> intervals;  // dimension d's from first[d] to first[d + 1]
  std::array<uint32_t, ops::kMaxRank + 1> first{};
  std::vector<std::array<uint32_t, ops::kMaxRank>> footprints;  // per footprint: its intervals
};

Footprints footprints(const graph::Node& consumer, const ops::OpShapes& shapes, int input,
                      const tiles::StorageMap& storage, const tiles::NodeTiling& tiling) {
  std::vector<ops::Region> regions;
  tiles::for_each_tile(tiling, [&](const ops::Region& region) {
    std::optional<ops::Region> f = ops::op_footprint(consumer.attrs, shapes, region, input);
    if (!f || f->empty()) return;
    storage.map(&*f);
    regions.push_back(*f);
  });
  Footprints out;
  if (regions.empty()) return out;
  out.rank = regions.front().rank;
  out.footprints.resize(regions.size());
  std::vector<std::pair<int64_t, int64_t>> distinct;
  for (int d = 0; d < out.rank; ++d) {
    distinct.clear();
    for (const ops::Region& r : regions) distinct.emplace_back(r.begin[d], r.end[d]);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    out.first[d] = static_cast<uint32_t>(out.intervals.size());
    out.intervals.insert(out.intervals.end(), distinct.begin(), distinct.end());
    for (size_t i = 0; i < regions.size(); ++i) {
      const auto at =
          std::lower_bound(distinct.begin(), distinct.end(), std::make_pair(regions[i].begin[d], regions[i].end[d]));
      out.footprints[i][d] = out.first[d] + static_cast<uint32_t>(at - distinct.begin());
    }
  }
  out.first[out.rank] = static_cast<uint32_t>(out.intervals.size());
  return out;
}

// How many of the producer's tiles the footprints overlap: over all footprints (the
// dependency edges), and the fewest under one footprint (-1: no footprints). `cells` is
// scratch: per interval, the producer's cells it overlaps in its dimension.
struct Overlap {
  int64_t total = 0;
  int64_t fewest = -1;
};

Overlap overlap(const tiles::NodeTiling& producer, const Footprints& f, std::vector<int64_t>* cells) {
  TESSERA_CHECK(f.footprints.empty() || static_cast<size_t>(f.rank) == producer.cuts.size());
  cells->resize(f.intervals.size());
  for (int d = 0; d < f.rank; ++d) {
    for (uint32_t i = f.first[d]; i < f.first[d + 1]; ++i)
      (*cells)[i] = tiles::overlapped_cell_count(producer.cuts[d], f.intervals[i].first, f.intervals[i].second);
  }
  Overlap out;
  for (const auto& at : f.footprints) {
    int64_t k = 1;
    for (int d = 0; d < f.rank; ++d) k *= (*cells)[at[d]];
    out.total += k;
    out.fewest = out.fewest < 0 ? k : std::min(out.fewest, k);
  }
  return out;
}

// Elements the footprints cover, all footprints together.
double footprint_elements(const Footprints& f) {
  double elements = 0;
  for (const auto& at : f.footprints) {
    double k = 1;
    for (int d = 0; d < f.rank; ++d) k *= static_cast<double>(f.intervals[at[d]].second - f.intervals[at[d]].first);
    elements += k;
  }
  return elements;
}

// Consumer tiles that find an input made on another thread, and the share of the bytes they
// read that come from there.
struct Remote {
  double tiles = 0;
  double byte_share = 0;
};

// Where the runtime's policy places the consumer tiles of one edge over `threads` threads: one
// tile after one tile continues on its thread, and so does a tile that reads exactly one
// producer tile; otherwise a tile's parents ran anywhere.
Remote remote_reads(uint32_t producer_tiles, uint32_t consumer_tiles, const Overlap& o, size_t footprints,
                    int threads) {
  const double elsewhere = static_cast<double>(threads - 1) / threads;
  const auto tc = static_cast<double>(consumer_tiles);
  if (producer_tiles == 1) return {(tc - 1) * elsewhere, (tc - 1) / tc * elsewhere};
  if (o.total == static_cast<int64_t>(footprints)) return {};
  return {tc * elsewhere, elsewhere};
}

struct Link {
  int producer = 0, consumer = 0, input = 0;  // graph nodes, the consumer's input index
};

// The overlaps of every producer configuration (rows) with every consumer configuration
// (columns) along one way of linking two classes of nodes priced alike (see search_tiling);
// and per consumer configuration, its footprints and the bytes they read.
struct OverlapTable {
  int producer_class = 0, consumer_class = 0, input = 0;
  tiles::StorageMap storage;
  std::vector<Overlap> overlaps;
  std::vector<size_t> footprints;
  std::vector<double> read_bytes;
};

}  // namespace

Result<TilingSearch> search_tiling(const graph::Graph& g, const Profile& profile, const tiles::TilingPlan& start,
                                   const TilingSearchOptions& options) {
  TESSERA_RETURN_IF_ERROR(tiles::validate_plan(g, start, options.configs.isa));
  const int threads = std::max(1, options.threads);
  const bool barrier = options.scheduler == SimScheduler::kBarrier;
  ConfigOptions config_options = options.configs;
  config_options.threads = threads;
  const TilePricer pricer(profile, threads, options.model_bytes);
  const std::vector<int64_t> reach = tiles::data_reach_bytes(g);
  const double own_cache_bytes = pricer.own_cache() ? 0.5 * static_cast<double>(pricer.own_cache()->bytes) : 0;

  // Configuration-graph nodes: the computing nodes, each with its configurations (the start
  // plan's among them) and what each costs alone. Nodes priced alike (one op with the same
  // attributes, shapes, weights and reach, offered the same configurations: a transformer's
  // layers, a ResNet stage's blocks) form a class, priced once; `node_class` names its first.
  std::vector<int> index(g.nodes.size(), -1);
  std::vector<int> graph_node;
  std::vector<std::vector<tiles::NodeTiling>> configs;
  std::vector<std::vector<Priced>> priced;
  std::vector<uint32_t> start_choice;
  std::vector<int> node_class;
  std::vector<ops::OpShapes> node_shapes;
  std::vector<double> node_weight_bytes;
  std::vector<int> classes;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    if (!tiles::owns_tiles(g, n)) continue;
    const graph::Node& node = g.nodes[n];
    const int k = static_cast<int>(graph_node.size());
    node_shapes.push_back(g.shapes_of(node));
    node_weight_bytes.push_back(weight_bytes_of(g, node));
    std::vector<tiles::NodeTiling> c = node_configurations(g, static_cast<int>(n), config_options);
    drop_tiles_past_own_cache(node, node_shapes[k], node_weight_bytes[k], start.nodes[n], own_cache_bytes, &c);
    auto at =
        std::find_if(c.begin(), c.end(), [&](const tiles::NodeTiling& t) { return t.cuts == start.nodes[n].cuts; });
    if (at == c.end()) at = c.insert(c.end(), start.nodes[n]);
    start_choice.push_back(static_cast<uint32_t>(at - c.begin()));
    const auto alike = std::find_if(classes.begin(), classes.end(), [&](int r) {
      return g.nodes[graph_node[r]].attrs == node.attrs && node_shapes[r] == node_shapes[k] &&
             node_weight_bytes[r] == node_weight_bytes[k] && reach[graph_node[r]] == reach[n] && configs[r] == c;
    });
    if (alike != classes.end()) {
      node_class.push_back(*alike);
      priced.push_back(priced[*alike]);
    } else {
      node_class.push_back(k);
      classes.push_back(k);
      std::vector<Priced> p;
      for (const tiles::NodeTiling& t : c) {
        p.push_back(price(node, node_shapes[k], node_weight_bytes[k], static_cast<double>(reach[n]), t, pricer, profile,
                          threads, options.interference));
      }
      priced.push_back(std::move(p));
    }
    index[n] = k;
    graph_node.push_back(static_cast<int>(n));
    configs.push_back(std::move(c));
  }

  // Producer/consumer pairs through views; a producer's idle tail is shared by its consumers.
  std::vector<Link> links;
  std::vector<int> consumers(graph_node.size(), 0);
  std::vector<int> producers(graph_node.size(), 0);
  for (int v : graph_node) {
    const graph::Node& node = g.nodes[v];
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      if (node.inputs[i] < 0 || g.tensors[node.inputs[i]].is_constant()) continue;
      const int producer = g.tensors[g.storage_of(node.inputs[i])].producer;
      if (producer < 0 || index[producer] < 0) continue;
      links.push_back({producer, v, static_cast<int>(i)});
      ++consumers[index[producer]];
      ++producers[index[v]];
    }
  }

  ConfigGraph cg;
  for (size_t k = 0; k < graph_node.size(); ++k) {
    std::vector<double> costs;
    for (const Priced& p : priced[k]) {
      // Alone, under a barrier, or at the end of the graph, the node's tail is idle time.
      costs.push_back((barrier || consumers[k] == 0 ? p.span : p.work / threads) + p.exposure);
    }
    cg.node_costs.push_back(std::move(costs));
  }
  // Links between the same two classes through the same views overlap alike: counted once.
  std::vector<OverlapTable> tables;
  std::vector<int64_t> cells;
  for (const Link& link : links) {
    const int p = index[link.producer], c = index[link.consumer];
    ConfigGraph::Edge edge{static_cast<uint32_t>(p), static_cast<uint32_t>(c), {}};
    const size_t np = configs[p].size(), nc = configs[c].size();
    edge.costs.assign(np * nc, 0.0);
    const graph::Node& consumer = g.nodes[link.consumer];
    tiles::StorageMap storage(g, consumer.inputs[link.input]);
    auto table = std::find_if(tables.begin(), tables.end(), [&](const OverlapTable& t) {
      return t.producer_class == node_class[p] && t.consumer_class == node_class[c] && t.input == link.input &&
             t.storage.maps_like(storage);
    });
    if (table == tables.end()) {
      OverlapTable counted{node_class[p], node_class[c], link.input, std::move(storage), {}, {}, {}};
      counted.overlaps.resize(np * nc);
      const graph::Tensor& input = g.tensors[consumer.inputs[link.input]];
      const double element_bytes = static_cast<double>(dtype_size(input.dtype));
      for (size_t b = 0; b < nc; ++b) {
        const Footprints reads = footprints(consumer, node_shapes[c], link.input, counted.storage, configs[c][b]);
        for (size_t a = 0; a < np; ++a) counted.overlaps[a * nc + b] = overlap(configs[p][a], reads, &cells);
        counted.footprints.push_back(reads.footprints.size());
        counted.read_bytes.push_back(footprint_elements(reads) * element_bytes);
      }
      table = tables.insert(tables.end(), std::move(counted));
    }
    const double cross_core_byte =
        reads_shared_level(profile, static_cast<double>(reach[link.consumer])) ? 0 : cross_core_byte_seconds(profile);
    for (size_t b = 0; b < nc; ++b) {
      for (size_t a = 0; a < np; ++a) {
        const Overlap& o = table->overlaps[a * nc + b];
        // Dependency edges cost the executor per edge; and a consumer whose first tile waits
        // for a share of the producer's tiles leaves that share of the producer's idle tail
        // unfilled (all of it when every consumer tile reads every producer tile).
        const double share =
            o.fewest < 0 ? 0 : static_cast<double>(o.fewest) / static_cast<double>(configs[p][a].tile_count());
        double cost = static_cast<double>(o.total) * profile.executor.edge / threads;
        if (!barrier) cost += share * priced[p][a].tail / consumers[p];
        // Tiles whose input another thread made pay what the simulator charges them: a
        // hand-over each (shared among the consumer's inputs) and the bytes' cross-core price.
        if (threads > 1) {
          const Remote r =
              remote_reads(configs[p][a].tile_count(), configs[c][b].tile_count(), o, table->footprints[b], threads);
          cost += (r.tiles * profile.executor.remote_input / producers[c] +
                   r.byte_share * table->read_bytes[b] * cross_core_byte) /
                  threads;
        }
        edge.costs[a * nc + b] = cost;
      }
    }
    cg.edges.push_back(std::move(edge));
  }

  SearchOptions search_options = options.search;
  search_options.start = start_choice;
  TESSERA_ASSIGN_OR_RETURN(SearchResult result, search_configurations(cg, search_options));

  TilingSearch out;
  out.plan = start;
  out.node_seconds.assign(g.nodes.size(), 0.0);
  out.start_seconds.assign(g.nodes.size(), 0.0);
  out.nodes = graph_node.size();
  out.classes = classes.size();
  out.edges = links.size();
  for (size_t k = 0; k < graph_node.size(); ++k) {
    const int n = graph_node[k];
    out.plan.nodes[n] = configs[k][result.choice[k]];
    out.node_seconds[n] = cg.node_costs[k][result.choice[k]];
    out.start_seconds[n] = cg.node_costs[k][start_choice[k]];
    out.configurations += configs[k].size();
  }
  out.start_cost = evaluate(cg, start_choice);
  out.search = std::move(result);
  return out;
}

}  // namespace tessera::plan
