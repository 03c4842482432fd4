#pragma once
// A min-heap in which each entry sits in a slot of its own (an id, a
// lane...), appears at most once and knows where it sits: inserting,
// moving or erasing a slot's entry is O(log n) and leaves nothing stale
// behind. (With lazy re-insertion, a node with k flows whose rates all
// change at each of its k events fills a queue with k^2 dead entries.)
//
// SlotHeap<Entry, Order> is the mechanism: Order::slot(e) names an entry's
// slot (small and dense: it indexes a position table) and Order::before(a,
// b) its total order. IndexedHeap<Id> is the one event heap of the fluid
// models, as SimGrid's ActionHeap is its network model's: (time, id) events
// with ties broken by id, so simultaneous events come out in the same order
// on every run; that order depends on nothing but the events' (time, id),
// not on the heap's shape. FluidModel's per-transfer timers, staircase's
// groups and message classes, tau-Lop's transfer steps; TimerQueue's heap
// of lane fronts is a SlotHeap by lane ordered by (time, transfer id).
//
// Four children per node: a heap of millions of timers (every message of a
// large exchange starts its latency at once) is half as deep as a binary
// one, and the four children of a node lie in one or two cache lines, so
// that a pop costs about half the cache misses.
#include <algorithm>
#include <cassert>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace contend {

template <class Entry, class Order>
class SlotHeap {
 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  // The first entry in Order. Requires !empty().
  const Entry& top() const { return heap_.front(); }
  bool contains(std::size_t slot) const { return slot < position_.size() && position_[slot] != kAbsent; }
  // Requires contains(slot).
  const Entry& at(std::size_t slot) const { return heap_[position_[slot]]; }

  // Inserts `e` in its slot, or replaces the slot's entry with it.
  void set(const Entry& e) {
    const std::size_t slot = Order::slot(e);
    if (slot >= position_.size()) position_.resize(slot + 1, kAbsent);
    if (position_[slot] == kAbsent) {
      position_[slot] = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back(e);
      sift_up(heap_.size() - 1);
      return;
    }
    // Sift one way only: the other cannot move it.
    const std::size_t i = position_[slot];
    const bool earlier = Order::before(e, heap_[i]);
    heap_[i] = e;
    if (earlier) {
      sift_up(i);
    } else {
      sift_down(i);
    }
  }
  // Removes the first entry. Requires !empty().
  void pop() { erase_at(0); }
  // Removes the slot's entry, if it has one.
  void erase(std::size_t slot) {
    if (contains(slot)) erase_at(position_[slot]);
  }

 private:
  static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::size_t kArity = 4;
  static std::size_t parent(std::size_t i) { return (i - 1) / kArity; }

  void place(std::size_t i, const Entry& e) {
    heap_[i] = e;
    position_[Order::slot(e)] = static_cast<std::uint32_t>(i);
  }
  // Both sifts carry the moving entry in hand and shift the others into its
  // hole: one write per level instead of a swap.
  void sift_up(std::size_t i) {
    const Entry e = heap_[i];
    while (i > 0 && Order::before(e, heap_[parent(i)])) {
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
        if (Order::before(heap_[c], heap_[child])) child = c;
      }
      if (!Order::before(heap_[child], e)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, e);
  }
  void erase_at(std::size_t i) {
    position_[Order::slot(heap_[i])] = kAbsent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    place(i, last);
    sift_up(i);
    sift_down(position_[Order::slot(last)]);
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> position_;  // by slot: index in heap_, or kAbsent
};

template <std::integral Id>
struct IndexedHeapEntry {
  double time;
  Id id;
  // A label the owner keeps with the event (FluidModel: which phase of
  // the transfer ends); it plays no part in the order. It fits in the
  // entry's padding: no table of its own to look up.
  std::uint8_t tag = 0;
};

template <std::integral Id>
struct ByTimeThenId {
  static std::size_t slot(const IndexedHeapEntry<Id>& e) {
    if constexpr (std::signed_integral<Id>) assert(e.id >= 0);
    return static_cast<std::size_t>(e.id);
  }
  static bool before(const IndexedHeapEntry<Id>& a, const IndexedHeapEntry<Id>& b) {
    return a.time < b.time || (a.time == b.time && a.id < b.id);
  }
};

template <std::integral Id>
class IndexedHeap {
 public:
  using Entry = IndexedHeapEntry<Id>;

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  // The earliest event (ties: the smallest id). Requires !empty().
  const Entry& top() const { return heap_.top(); }
  bool contains(Id id) const { return heap_.contains(slot_of(id)); }
  // Requires contains(id).
  double time_of(Id id) const { return heap_.at(slot_of(id)).time; }
  // Inserts the event of `id` at `time`, or moves it there.
  void set(Id id, double time, std::uint8_t tag = 0) { heap_.set(Entry{time, id, tag}); }
  // Removes the earliest event. Requires !empty().
  void pop() { heap_.pop(); }
  // Removes the event of `id`, if it has one.
  void erase(Id id) { heap_.erase(slot_of(id)); }

 private:
  static std::size_t slot_of(Id id) { return ByTimeThenId<Id>::slot(Entry{0, id}); }
  SlotHeap<Entry, ByTimeThenId<Id>> heap_;
};

}  // namespace contend
