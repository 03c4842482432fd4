#pragma once
// MPI message matching at one receiving rank: posted receives waiting for a
// send, and unexpected sends waiting for a receive. A send matches the
// earliest posted receive with the same (source, tag, communicator), wildcards
// included; a receive matches the earliest arrived send. Messages between one
// pair on one communicator and tag never overtake each other.
//
// Per-key FIFOs keep their first entry in a flat hash map's slot
// (match_key_map.hpp) and the others in intrusive lists in one pool, so
// that the millions of messages of a large pattern cost a few words and no
// allocation each.
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/engine/match_key_map.hpp"

namespace contend {

inline constexpr int kAnySource = -1;
inline constexpr int kAnyTag = -1;

// A receive's tag against a message's tag. As in Open MPI, MPI_ANY_TAG
// matches only user tags (>= 0): collectives use negative tags
// (collectives/collectives.hpp) that only an exact receive matches.
constexpr bool tag_matches(int pattern_tag, int message_tag) {
  return pattern_tag == message_tag || (pattern_tag == kAnyTag && message_tag >= 0);
}

// FIFOs of ids keyed by exact (source, tag, comm), each entry stamped with a
// sequence number so that entries of different keys can be ordered.
//
// A key's first entry lives in the hash map's slot itself, the others in a
// linked list in a pool: most keys hold one entry at a time (one message per
// pair and step), and a message's match then reads one slot of its
// receiver's table instead of a slot and a node (two cache misses at
// thousands of ranks).
class KeyedFifo {
 public:
  struct Entry {
    std::uint64_t seq;
    std::uint32_t id;
  };
  void push(const MatchKey& key, std::uint64_t seq, std::uint32_t id);
  std::optional<Entry> front(const MatchKey& key) const;
  void pop(const MatchKey& key);
  // front() and pop() at once: one look-up.
  std::optional<Entry> take_front(const MatchKey& key);
  // The earliest front among keys matching a pattern with wildcards.
  std::optional<std::pair<MatchKey, Entry>> earliest_matching(const MatchKey& pattern) const;
  bool empty() const { return heads_.empty(); }
  // Every entry, for end-of-run reports.
  std::vector<std::pair<MatchKey, Entry>> all() const;

 private:
  struct Node {
    Entry entry;
    std::uint32_t next;
  };
  struct Queue {
    Entry first;
    std::uint32_t rest_head, rest_tail;  // the entries after the first (pool indices, or none)
  };
  // Removes the first entry of `queue`, whose key is `key`.
  void pop_first(const MatchKey& key, Queue& queue);

  MatchKeyMap<Queue> heads_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> free_;
};

class MatchQueues {
 public:
  // A receive with (source, tag, comm), possibly wildcards, is posted.
  void post_receive(const MatchKey& pattern, std::uint32_t request);
  // An arriving send from `key.source`: the earliest posted receive it matches.
  std::optional<std::uint32_t> take_receive_for(const MatchKey& key);
  // A send found no receive: it waits here.
  void add_unexpected(const MatchKey& key, std::uint32_t transfer);
  // A new receive: the earliest unexpected send it matches.
  std::optional<std::uint32_t> take_unexpected_for(const MatchKey& pattern);

  std::vector<std::uint32_t> pending_receives() const;
  std::vector<std::pair<MatchKey, std::uint32_t>> pending_unexpected() const;

 private:
  static bool matches(const MatchKey& pattern, const MatchKey& key) {
    return pattern.comm == key.comm && (pattern.source == kAnySource || pattern.source == key.source) &&
           tag_matches(pattern.tag, key.tag);
  }

  struct Wild {
    std::uint64_t seq;
    MatchKey pattern;
    std::uint32_t request;
  };
  // What every send to the rank reads first, together.
  std::vector<Wild> posted_wild_;  // in posting order
  std::uint64_t next_seq_ = 0;
  KeyedFifo posted_exact_;
  KeyedFifo unexpected_;
};

}  // namespace contend
