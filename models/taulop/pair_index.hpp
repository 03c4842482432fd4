#pragma once
// A map from a pair of ranks (packed in 64 bits) to a small number, in one
// flat array with linear probing: a lookup, an insertion or an erasure reads
// one or two cache lines and allocates nothing. std::unordered_map's node
// per entry cost tau-Lop a cache miss and a malloc or a free for each of
// them, millions of times in a halo exchange (every message joins and
// leaves its pair's lanes). Debian 12's Boost (1.74) predates
// boost::unordered_flat_map. Erasure shifts the following entries back
// (no tombstones), and the table halves when it is mostly empty, so that
// memory follows the pairs in flight.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace contend::taulop {

class PairIndex {
 public:
  static constexpr std::uint64_t kEmpty = std::numeric_limits<std::uint64_t>::max();  // never a pair of ranks

  // The value of `key`, inserted as `value` if absent; .second: inserted.
  std::pair<std::uint32_t*, bool> try_emplace(std::uint64_t key, std::uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) resize(slots_.empty() ? 16 : 2 * slots_.size());
    std::size_t i = home(key);
    while (slots_[i].key != kEmpty) {
      if (slots_[i].key == key) return {&slots_[i].value, false};
      i = (i + 1) & mask();
    }
    slots_[i] = {key, value};
    ++size_;
    return {&slots_[i].value, true};
  }

  // Requires `key` present.
  void erase(std::uint64_t key) {
    std::size_t i = home(key);
    while (slots_[i].key != key) i = (i + 1) & mask();
    // Backward shift: move back each following entry whose home is not
    // between the hole and it, so every probe sequence stays unbroken.
    std::size_t next = (i + 1) & mask();
    while (slots_[next].key != kEmpty) {
      const std::size_t h = home(slots_[next].key);
      if (((next - h) & mask()) >= ((next - i) & mask())) {
        slots_[i] = slots_[next];
        i = next;
      }
      next = (next + 1) & mask();
    }
    slots_[i].key = kEmpty;
    --size_;
    if (slots_.size() > 16 && 8 * size_ < slots_.size()) resize(slots_.size() / 2);
  }

  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::uint64_t key = kEmpty;
    std::uint32_t value = 0;
  };
  std::size_t mask() const { return slots_.size() - 1; }
  // Fibonacci hashing: the top bits of key times 2^64 / golden ratio.
  std::size_t home(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> shift_);
  }
  void resize(std::size_t capacity) {  // a power of two
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c /= 2) --shift_;
    for (const Slot& s : old) {
      if (s.key == kEmpty) continue;
      std::size_t i = home(s.key);
      while (slots_[i].key != kEmpty) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  int shift_ = 64;
};

}  // namespace contend::taulop
