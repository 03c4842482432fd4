#pragma once
// A hash map from MatchKey to a small value, in one flat array (open
// addressing, linear probing, backward-shift erase, at most 3/4 full): a look-up is one probe
// into contiguous memory, an insert allocates nothing until the table grows.
// Every message of a run looks up its key at its receiver two or three
// times; with std::unordered_map each look-up chased a bucket and a node
// allocated on its own (a cache miss each), and each insert allocated.
// Iteration order is the table's; callers that report entries sort them.
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

namespace contend {

struct MatchKey {
  int source = 0;
  int tag = 0;
  int comm = 0;
  bool operator==(const MatchKey&) const = default;
};

template <typename Value>
class MatchKeyMap {
 public:
  static constexpr int kFree = std::numeric_limits<int>::min();

  // A free slot has source kFree (no rank, not a wildcard): 20 bytes a slot
  // with a MatchKey and two ids.
  struct Slot {
    MatchKey key{kFree, 0, 0};
    Value value{};
    bool used() const { return key.source != kFree; }
  };

  // The value of `key`, or null.
  Value* find(const MatchKey& key) {
    if (size_ == 0) return nullptr;
    for (std::size_t i = home(key);; i = next(i)) {
      Slot& s = slots_[i];
      if (!s.used()) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  const Value* find(const MatchKey& key) const { return const_cast<MatchKeyMap*>(this)->find(key); }

  // Inserts `key` with `value` unless present; returns the entry's value and
  // whether it was inserted.
  std::pair<Value*, bool> try_emplace(const MatchKey& key, const Value& value) {
    if (Value* v = find(key)) return {v, false};
    if (4 * (size_ + 1) > 3 * slots_.size()) grow();  // at most 3/4 full
    std::size_t i = home(key);
    while (slots_[i].used()) i = next(i);
    slots_[i] = Slot{key, value};
    ++size_;
    return {&slots_[i].value, true};
  }

  // Removes `key` if present. Backward shift: the entries after it in its
  // probe run move back, so that no tombstone is left.
  void erase(const MatchKey& key) {
    if (size_ == 0) return;
    std::size_t hole = home(key);
    while (true) {
      if (!slots_[hole].used()) return;
      if (slots_[hole].key == key) break;
      hole = next(hole);
    }
    for (std::size_t i = next(hole); slots_[i].used(); i = next(i)) {
      // The entry at i may fill the hole if its home is not in (hole, i].
      const std::size_t h = home(slots_[i].key);
      const bool home_after_hole = hole <= i ? (hole < h && h <= i) : (hole < h || h <= i);
      if (!home_after_hole) {
        slots_[hole] = slots_[i];
        hole = i;
      }
    }
    slots_[hole] = Slot{};
    if (--size_ == 0) {
      // Empty (a rank's queue between exchanges): the storage goes back, so
      // that the memory of all ranks' maps follows the keys live at once,
      // not the sum of each rank's busiest moment.
      std::vector<Slot>().swap(slots_);
      shift_ = 64;
    }
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // Every entry: fn(key, value).
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (const Slot& s : slots_) {
      if (s.used()) fn(s.key, s.value);
    }
  }

 private:
  static std::uint64_t hash(const MatchKey& k) {
    std::uint64_t h = static_cast<std::uint32_t>(k.source);
    h = (h * 0x9E3779B97F4A7C15ULL) ^ static_cast<std::uint32_t>(k.tag);
    h = (h * 0x9E3779B97F4A7C15ULL) ^ static_cast<std::uint32_t>(k.comm);
    return h * 0x9E3779B97F4A7C15ULL;
  }
  // Fibonacci hashing: the top bits of the product, which depend on every bit.
  std::size_t home(const MatchKey& k) const { return static_cast<std::size_t>(hash(k) >> shift_); }
  std::size_t next(std::size_t i) const { return (i + 1) & (slots_.size() - 1); }

  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    const std::size_t capacity = old.empty() ? 8 : 2 * old.size();
    slots_.assign(capacity, Slot{});
    shift_ = 64 - std::countr_zero(capacity);
    size_ = 0;
    for (const Slot& s : old) {
      if (!s.used()) continue;
      std::size_t i = home(s.key);
      while (slots_[i].used()) i = next(i);
      slots_[i] = s;
      ++size_;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  int shift_ = 64;
};

}  // namespace contend
