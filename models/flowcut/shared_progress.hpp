#pragma once
// The flows of one crowded node pair (conflict_graph.hpp): they all move at
// one rate, so one clock of the work done per flow (bytes moved by each of
// them since the pair's first flow joined) stands for all their progress. A
// flow joining with r bytes to move ends when the clock reaches its value
// then plus r; a change of the pair's rate moves the clock's pace, not the
// flows: O(1) instead of one update per flow. The flows wait in a heap
// ordered by that end (ties: the smaller id), so the earliest is known in
// O(1) and joining or leaving first costs O(log k).
//
// Plain data, no SimGrid: the model (flowcut.cpp) turns the first flow's
// end into its delivery timer.
#include <cstdint>
#include <vector>

namespace contend {

class SharedProgress {
 public:
  using FlowId = std::uint32_t;

  bool empty() const { return members_.empty(); }
  std::size_t size() const { return members_.size(); }
  double rate() const { return rate_; }

  // From `now` on, every flow moves at `rate` (B/s, > 0).
  void set_rate(double now, double rate);
  // `id` joins at `now` with `remaining` bytes to move (a rate must be set).
  void join(FlowId id, double remaining, double now);
  // The flow that ends first, and when (at the current rate). Require !empty().
  FlowId first() const { return members_.front().id; }
  double first_end() const;
  // The first flow has ended: it leaves.
  void pop_first();
  // `id` leaves at `now`, before its end; returns the bytes it still has to
  // move. Linear in the flows: for pairs that stop being crowded, which hold
  // two flows at most.
  double leave(FlowId id, double now);

 private:
  // The clock runs in extended precision: a flow's remaining bytes are the
  // difference of two of its values, which then loses fewer bits to the
  // clock's size (the direct computation subtracts each interval's bytes
  // from the flow's own remaining bytes).
  using Work = long double;
  struct Member {
    Work end;  // the value of the work clock at which its last byte arrives
    FlowId id;
  };
  // A function object, not a function pointer, so that the heap's
  // algorithms inline the comparison.
  struct Later {
    bool operator()(const Member& a, const Member& b) const { return a.end > b.end || (a.end == b.end && a.id > b.id); }
  };
  Work work_at(double now) const { return work_ + static_cast<Work>(rate_ * (now - since_)); }

  std::vector<Member> members_;  // a min-heap on (end, id)
  double rate_ = 0;
  double since_ = 0;  // when the rate last changed (or the pair emptied)
  Work work_ = 0;     // bytes moved per flow by `since_`
};

}  // namespace contend
