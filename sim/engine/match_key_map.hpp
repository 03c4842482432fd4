#pragma once
// The flat hash map (sim/core/flat_hash_map.hpp) keyed by MPI matching keys:
// every message of a run looks up its key at its receiver two or three times.
#include <cstdint>
#include <limits>

#include "sim/core/flat_hash_map.hpp"

namespace contend {

struct MatchKey {
  int source = 0;
  int tag = 0;
  int comm = 0;
  bool operator==(const MatchKey&) const = default;
};

struct MatchKeyTraits {
  // A rank's queues fill and drain once per exchange: no halving on the
  // way down (freed once empty).
  static constexpr bool kShrinks = false;
  // No rank, not a wildcard: a free slot.
  static MatchKey free_key() { return {std::numeric_limits<int>::min(), 0, 0}; }
  static std::uint64_t hash(const MatchKey& k) {
    std::uint64_t h = static_cast<std::uint32_t>(k.source);
    h = (h * 0x9E3779B97F4A7C15ULL) ^ static_cast<std::uint32_t>(k.tag);
    return (h * 0x9E3779B97F4A7C15ULL) ^ static_cast<std::uint32_t>(k.comm);
  }
};

template <typename Value>
using MatchKeyMap = FlatHashMap<MatchKey, Value, MatchKeyTraits>;

}  // namespace contend
