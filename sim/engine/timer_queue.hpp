#pragma once
// FluidModel's per-transfer timers: at most one per transfer, popped in
// (time, id) order exactly as one IndexedHeap of them would, but without
// millions of entries in one heap when a halo exchange starts every message
// at t = 0.
//
// Most timers arrive in the order they will fire within some family the
// caller knows: the latency ends of one latency value (start time + the
// same latency, starts coming in clock order), or the deliveries of one
// LogGOPS sender and protocol range (its NIC injects in FIFO order). A
// caller names such a family with a lane: a FIFO that takes a timer only if
// it comes strictly after the lane's last one in (time, id) order, so that
// each lane's front is its earliest timer. A small heap over the lanes'
// fronts and the general IndexedHeap (for timers without a lane, or out of
// a lane's order) give the earliest of all: a push costs O(1) and a pop
// O(log lanes), over a heap that stays in cache, instead of O(log timers)
// cache misses. Which lane a timer goes to never changes the order in which
// timers fire, only the cost: (time, id) is a total order (ids are unique
// among the pending timers).
//
// Moving a timer held by a lane marks its entry dead; a lane drops dead
// entries when they reach its front, so that a lane's front is always a
// live timer. Popping a lane's front touches only that lane (each id's
// state is checked against the lane when the id is set again).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/engine/indexed_heap.hpp"
#include "sim/engine/transfer.hpp"

namespace contend {

class TimerQueue {
 public:
  using Lane = std::uint32_t;
  static constexpr Lane kNoLane = std::numeric_limits<Lane>::max();
  // set() picks the lane among a few shared ones (latency ends: one per latency value, in effect).
  static constexpr Lane kAnyLane = kNoLane - 1;
  static constexpr Lane kSortedLanes = 8;
  // Lanes beyond (a family beyond about 16 million) put their timers in the general heap.
  static constexpr Lane kMaxLanes = (Lane{1} << 24) - 1;
  // The lane of the caller's family `family` of timers (LogGOPS: a sender and protocol range).
  static constexpr Lane family_lane(std::uint32_t family) { return kSortedLanes + family; }
  struct Timer {
    double time;
    TransferId id;
    std::uint8_t tag;
  };

  bool empty() const { return general_.empty() && fronts_.empty(); }
  // The earliest timer (ties: the smallest id). Requires !empty().
  Timer top() const {
    if (fronts_.empty()) return from_general();
    const Timer lane = fronts_.top().timer();
    if (general_.empty()) return lane;
    const Timer general = from_general();
    return before(general, lane) ? general : lane;
  }
  // Removes the earliest timer. Requires !empty().
  void pop() {
    if (!fronts_.empty() && (general_.empty() || before(fronts_.top().timer(), from_general()))) {
      // The id's state still names the entry: set() sees it popped (behind the lane's front).
      const Lane lane = fronts_.top().lane;
      lanes_[lane].pop_front();
      front_changed(lane);
    } else {
      general_.pop();
    }
  }

  // Sets the timer of `id` at `time` with `tag` (inserting or moving it),
  // in `lane` (kAnyLane, family_lane(), or kNoLane) when it fits there,
  // otherwise in the general heap.
  void set(TransferId id, double time, std::uint8_t tag, Lane lane) {
    if (general_.contains(id)) {
      // No lane holds it. Moving it within the heap costs no more than a
      // lane would save (and flowcut's deliveries, moved at each change of
      // their rates, look up nothing else).
      general_.set(id, time, tag);
      return;
    }
    const std::size_t s = slot(id);
    if (s >= state_.size()) state_.resize(s + 1);
    State& state = state_[s];
    if (in_lane(state)) {
      drop_from_lane(state);
    } else if (lane == kNoLane) {
      general_.set(id, time, tag);
      return;
    }
    if (lane == kAnyLane) lane = sorted_lane_for({time, id, tag});
    if (lane < kMaxLanes) {
      if (lane >= lanes_.size()) lanes_.resize(static_cast<std::size_t>(lane) + 1);
      Fifo& fifo = lanes_[lane];
      if (fifo.empty() || before(back_of(lane), Timer{time, id, tag})) {
        state.lane = lane;
        state.sequence = fifo.push_back({time, id, tag, false});
        if (fifo.size() == 1) front_changed(lane);
        return;
      }
    }
    general_.set(id, time, tag);
  }

 private:
  static constexpr std::uint64_t kNone = kMaxLanes;  // State::lane of an id no lane holds
  // Where an id's latest lane entry is. It may have been popped since: the
  // lane says so (its sequence is behind the lane's front).
  struct State {
    std::uint64_t lane : 24 = kNone;
    std::uint64_t sequence : 40 = 0;  // in its lane: the entries pushed before it
  };
  struct Entry {
    double time;
    TransferId id;
    std::uint8_t tag;
    bool dead;  // moved elsewhere: skipped when it reaches the front
  };
  // A FIFO in a vector: popping moves its head; the popped prefix is cut
  // off once it is half the vector (amortized O(1), no allocation per node).
  // Entries are numbered in push order (`sequence`).
  class Fifo {
   public:
    bool empty() const { return head_ == entries_.size(); }
    std::size_t size() const { return entries_.size() - head_; }
    const Entry& front() const { return entries_[head_]; }
    const Entry& back() const { return entries_.back(); }
    // Whether the entry numbered `sequence` is still in the FIFO (not popped).
    bool holds(std::uint64_t sequence) const { return sequence >= first_ + head_; }
    bool is_front(std::uint64_t sequence) const { return sequence == first_ + head_; }
    Entry& at(std::uint64_t sequence) { return entries_[static_cast<std::size_t>(sequence - first_)]; }
    std::uint64_t push_back(const Entry& e) {
      entries_.push_back(e);
      return first_ + entries_.size() - 1;
    }
    void pop_front() {
      if (++head_ == entries_.size()) {
        first_ += head_;
        entries_.clear();
        head_ = 0;
      } else if (head_ >= 64 && 2 * head_ >= entries_.size()) {
        entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(head_));
        first_ += head_;
        head_ = 0;
      }
    }

   private:
    std::vector<Entry> entries_;
    std::size_t head_ = 0;
    std::uint64_t first_ = 0;  // the sequence of entries_[0]
  };

  static std::size_t slot(TransferId id) { return static_cast<std::size_t>(id); }
  static bool before(const Timer& a, const Timer& b) { return a.time < b.time || (a.time == b.time && a.id < b.id); }
  Timer from_general() const {
    const auto& e = general_.top();
    return {e.time, e.id, e.tag};
  }
  Timer back_of(Lane lane) const {
    const Entry& e = lanes_[lane].back();
    return {e.time, e.id, e.tag};
  }
  bool in_lane(const State& state) const { return state.lane != kNone && lanes_[state.lane].holds(state.sequence); }
  // Of the first kSortedLanes lanes, the one whose last timer is the latest
  // before `timer` (patience sorting: the lanes' last timers stay sorted, and
  // a few interleaved sorted sequences fill as many lanes), else an empty
  // one, else none.
  Lane sorted_lane_for(const Timer& timer) {
    if (lanes_.size() < kSortedLanes) lanes_.resize(kSortedLanes);
    Lane best = kNoLane, empty = kNoLane;
    for (Lane lane = 0; lane < kSortedLanes; ++lane) {
      if (lanes_[lane].empty()) {
        if (empty == kNoLane) empty = lane;
      } else if (before(back_of(lane), timer) && (best == kNoLane || before(back_of(best), back_of(lane)))) {
        best = lane;
      }
    }
    return best != kNoLane ? best : empty;
  }
  // The id of `state` has a live timer in a lane: it is moved elsewhere.
  void drop_from_lane(State& state) {
    const auto lane = static_cast<Lane>(state.lane);
    Fifo& fifo = lanes_[lane];
    state.lane = kNone;
    if (fifo.is_front(state.sequence)) {
      // A front must stay live: drop it now.
      fifo.pop_front();
      front_changed(lane);
    } else {
      fifo.at(state.sequence).dead = true;  // dropped when it reaches the front
    }
  }

  // The front of `lane` was popped, dropped or pushed: drop stale entries
  // and place the lane's new front in fronts_.
  void front_changed(Lane lane) {
    Fifo& fifo = lanes_[lane];
    while (!fifo.empty() && fifo.front().dead) fifo.pop_front();
    if (fifo.empty()) {
      fronts_.erase(lane);
    } else {
      fronts_.set(Front{fifo.front().time, fifo.front().id, lane, fifo.front().tag});
    }
  }

  // The lanes' fronts carry their (time, id) and tag: comparing two lanes,
  // or reading the earliest timer, reads no FIFO. They sit in a SlotHeap by
  // lane, ordered by (time, transfer id) (IndexedHeap, which ties by its
  // slot, would tie by lane). A std heap, which cannot move one lane's
  // entry, lost the gain: checking the next top's front for a moved timer
  // read one more lane per pop.
  struct Front {
    double time;
    TransferId id;
    Lane lane : 24;
    Lane tag : 8;
    Timer timer() const { return {time, id, static_cast<std::uint8_t>(tag)}; }
  };
  struct ByFrontTime {
    static std::size_t slot(const Front& f) { return f.lane; }
    static bool before(const Front& a, const Front& b) { return a.time < b.time || (a.time == b.time && a.id < b.id); }
  };

  IndexedHeap<TransferId> general_;
  std::vector<Fifo> lanes_;
  SlotHeap<Front, ByFrontTime> fronts_;  // the non-empty lanes' fronts, by (time, id)
  std::vector<State> state_;             // by transfer id
};

}  // namespace contend
