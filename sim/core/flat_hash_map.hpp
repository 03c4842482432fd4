#pragma once
// A hash map from a small key to a small value in one flat array (open
// addressing, linear probing, backward-shift erase, at most 3/4 full): a
// look-up is one probe into contiguous memory, an insert allocates nothing
// until the table grows. For the simulator's hot per-message tables (MPI
// matching keys, tau-Lop's pairs in flight), where std::unordered_map's
// node per entry cost a cache miss on every look-up and an allocation on
// every insert; Debian 12's Boost (1.74) predates boost::unordered_flat_map.
// The table halves when it is mostly empty and gives its storage back when
// empty, so that its memory follows the keys live at one time.
// Iteration order is the table's: callers that report entries sort them.
//
// KeyTraits: `static Key free_key()` (a key never stored, marking a free
// slot), `static std::uint64_t hash(const Key&)` (mixed: Fibonacci hashing
// takes its top bits). Optionally `static constexpr bool kShrinks = false`:
// the table keeps its size while it holds entries, and gives its storage
// back only once empty (a table that fills and drains once per step, as a
// rank's matching queues do, would otherwise halve several times and double
// again: an allocation and a rehash each time).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace contend {

template <typename Key, typename Value, typename KeyTraits>
class FlatHashMap {
 public:
  // The value of `key`, or null.
  Value* find(const Key& key) {
    if (size_ == 0) return nullptr;
    for (std::size_t i = home(key);; i = next(i)) {
      Slot& s = slots_[i];
      if (!s.used()) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  const Value* find(const Key& key) const { return const_cast<FlatHashMap*>(this)->find(key); }

  // Inserts `key` with `value` unless present; returns the entry's value and
  // whether it was inserted.
  std::pair<Value*, bool> try_emplace(const Key& key, const Value& value) {
    if (Value* v = find(key)) return {v, false};
    if (4 * (size_ + 1) > 3 * slots_.size()) resize(slots_.empty() ? kMinCapacity : 2 * slots_.size());
    std::size_t i = home(key);
    while (slots_[i].used()) i = next(i);
    slots_[i] = Slot{key, value};
    ++size_;
    return {&slots_[i].value, true};
  }

  // Removes `key` if present. Backward shift: the entries after it in its
  // probe run move back, so that no tombstone is left.
  void erase(const Key& key) {
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
    --size_;
    if (size_ == 0) {
      std::vector<Slot>().swap(slots_);
    } else if (shrinks() && slots_.size() > kMinCapacity && 8 * size_ < slots_.size()) {
      resize(slots_.size() / 2);
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
  static constexpr std::size_t kMinCapacity = 8;
  static constexpr bool shrinks() {
    if constexpr (requires { KeyTraits::kShrinks; }) {
      return KeyTraits::kShrinks;
    } else {
      return true;
    }
  }

  struct Slot {
    Key key = KeyTraits::free_key();
    Value value{};
    bool used() const { return !(key == KeyTraits::free_key()); }
  };

  // Fibonacci hashing: the top bits of the product, which depend on every bit.
  std::size_t home(const Key& k) const {
    return static_cast<std::size_t>((KeyTraits::hash(k) * 0x9E3779B97F4A7C15ULL) >> shift_);
  }
  std::size_t next(std::size_t i) const { return (i + 1) & (slots_.size() - 1); }

  void resize(std::size_t capacity) {  // a power of two, above size_ / (3/4)
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    shift_ = 64 - std::countr_zero(capacity);
    for (const Slot& s : old) {
      if (!s.used()) continue;
      std::size_t i = home(s.key);
      while (slots_[i].used()) i = next(i);
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  int shift_ = 64;  // home() is called only with slots
};

}  // namespace contend
