#pragma once
// A min-heap of (time, id) in which each id appears at most once and
// knows where it sits: inserting, moving or erasing an id's event is
// O(log n) and leaves nothing stale behind. (With lazy re-insertion, a node
// with k flows whose rates all change at each of its k events fills a queue
// with k^2 dead entries.) Ties are broken by id, so simultaneous events come
// out in the same order on every run; that order depends on nothing but the
// events' (time, id), not on the heap's shape.
//
// Four children per node: a heap of millions of timers (every message of a
// large exchange starts its latency at once) is half as deep as a binary
// one, and the four children of a node lie in one or two cache lines, so
// that a pop costs about half the cache misses.
//
// The one event heap of the fluid models, as SimGrid's ActionHeap is its
// network model's: FluidModel's per-transfer timers, staircase's groups and
// message classes, tau-Lop's transfer steps. Ids index a position table, so
// they should be small and dense (transfer slots, class or group numbers).
#include <algorithm>
#include <cassert>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace contend {

template <std::integral Id>
class IndexedHeap {
 public:
  struct Entry {
    double time;
    Id id;
    // A label the owner keeps with the event (FluidModel: which phase of
    // the transfer ends); it plays no part in the order. It fits in the
    // entry's padding: no table of its own to look up.
    std::uint8_t tag = 0;
  };

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  // The earliest event (ties: the smallest id). Requires !empty().
  const Entry& top() const { return heap_.front(); }
  bool contains(Id id) const {
    const std::size_t slot = slot_of(id);
    return slot < position_.size() && position_[slot] != kAbsent;
  }
  // Requires contains(id).
  double time_of(Id id) const { return heap_[position_[slot_of(id)]].time; }

  // Inserts the event of `id` at `time`, or moves it there.
  void set(Id id, double time, std::uint8_t tag = 0) {
    const std::size_t slot = slot_of(id);
    if (slot >= position_.size()) position_.resize(slot + 1, kAbsent);
    if (position_[slot] == kAbsent) {
      position_[slot] = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back({time, id, tag});
      sift_up(heap_.size() - 1);
      return;
    }
    // Sift one way only: the other cannot move it.
    const std::size_t i = position_[slot];
    const bool earlier = before(Entry{time, id, tag}, heap_[i]);
    heap_[i].time = time;
    heap_[i].tag = tag;
    if (earlier) {
      sift_up(i);
    } else {
      sift_down(i);
    }
  }

  // Removes the earliest event. Requires !empty().
  void pop() { erase_at(0); }
  // Removes the event of `id`, if it has one.
  void erase(Id id) {
    if (contains(id)) erase_at(position_[slot_of(id)]);
  }

 private:
  static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();

  static std::size_t slot_of(Id id) {
    if constexpr (std::signed_integral<Id>) assert(id >= 0);
    return static_cast<std::size_t>(id);
  }
  static bool before(const Entry& a, const Entry& b) { return a.time < b.time || (a.time == b.time && a.id < b.id); }

  void place(std::size_t i, const Entry& e) {
    heap_[i] = e;
    position_[slot_of(e.id)] = static_cast<std::uint32_t>(i);
  }
  // Both sifts carry the moving entry in hand and shift the others into its
  // hole: one write per level instead of a swap.
  static constexpr std::size_t kArity = 4;
  static std::size_t parent(std::size_t i) { return (i - 1) / kArity; }
  void sift_up(std::size_t i) {
    const Entry e = heap_[i];
    while (i > 0 && before(e, heap_[parent(i)])) {
      place(i, heap_[parent(i)]);
      i = parent(i);
    }
    place(i, e);
  }
  void sift_down(std::size_t i) {
    const Entry e = heap_[i];
    const std::size_t n = heap_.size();
    while (true) {
      const std::size_t first = kArity * i + 1;
      if (first >= n) break;
      std::size_t child = first;
      const std::size_t end = std::min(first + kArity, n);
      for (std::size_t c = first + 1; c < end; ++c) {
        if (before(heap_[c], heap_[child])) child = c;
      }
      if (!before(heap_[child], e)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, e);
  }
  void erase_at(std::size_t i) {
    position_[slot_of(heap_[i].id)] = kAbsent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    place(i, last);
    sift_up(i);
    sift_down(position_[slot_of(last.id)]);
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> position_;  // by id: index in heap_, or kAbsent
};

}  // namespace contend
