#pragma once
// tau-Lop's pairs of ranks in flight to their lanes (TransferModel keeps one
// table per source rank, keyed by destination rank; any 64-bit key but the
// largest fits), in the flat hash map (sim/core/flat_hash_map.hpp):
// every message joins and leaves its pair's lanes, millions of times in a
// halo exchange, and std::unordered_map's node per entry cost a cache miss
// and a malloc or a free each time.
#include <cstdint>
#include <limits>

#include "sim/core/flat_hash_map.hpp"

namespace contend::taulop {

struct PairKeyTraits {
  static std::uint64_t free_key() { return std::numeric_limits<std::uint64_t>::max(); }  // never a pair of ranks
  static std::uint64_t hash(std::uint64_t key) { return key; }
};

using PairIndex = FlatHashMap<std::uint64_t, std::uint32_t, PairKeyTraits>;

}  // namespace contend::taulop
