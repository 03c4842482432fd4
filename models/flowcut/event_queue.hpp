#pragma once
// The next event of each flow (end of its latency, or its last byte), in a
// binary min-heap that knows where every flow sits: moving an event when a
// flow's rate changes is O(log n) and leaves nothing stale behind. (With
// lazy re-insertion, a node with k flows whose rates all change at each of
// its k events fills the queue with k^2 dead entries.)
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace contend {

class EventQueue {
 public:
  using Id = std::uint32_t;
  struct Event {
    double time;
    Id id;
  };

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }
  bool contains(Id id) const { return id < pos_.size() && pos_[id] != kAbsent; }

  // Inserts the event of `id`, or moves it to `time`.
  void set(Id id, double time) {
    if (id >= pos_.size()) pos_.resize(static_cast<std::size_t>(id) + 1, kAbsent);
    if (pos_[id] == kAbsent) {
      pos_[id] = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back({time, id});
      sift_up(heap_.size() - 1);
      return;
    }
    const std::size_t i = pos_[id];
    heap_[i].time = time;
    sift_up(i);
    sift_down(pos_[id]);
  }

  void pop() { erase_at(0); }
  void erase(Id id) {
    if (contains(id)) erase_at(pos_[id]);
  }

 private:
  static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();

  // Ties by id: the same input pops in the same order.
  static bool before(const Event& a, const Event& b) { return a.time < b.time || (a.time == b.time && a.id < b.id); }

  void place(std::size_t i, const Event& e) {
    heap_[i] = e;
    pos_[e.id] = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i) {
    const Event e = heap_[i];
    while (i > 0 && before(e, heap_[(i - 1) / 2])) {
      place(i, heap_[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
    place(i, e);
  }
  void sift_down(std::size_t i) {
    const Event e = heap_[i];
    const std::size_t n = heap_.size();
    while (true) {
      std::size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], e)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, e);
  }
  void erase_at(std::size_t i) {
    pos_[heap_[i].id] = kAbsent;
    const Event last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    place(i, last);
    sift_up(i);
    sift_down(pos_[last.id]);
  }

  std::vector<Event> heap_;
  std::vector<std::uint32_t> pos_;  // by id: index in heap_, or kAbsent
};

}  // namespace contend
