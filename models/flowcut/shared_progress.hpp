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
#include <cassert>
#include <cstdint>
#include <cstring>
#include <limits>

#include "models/flowcut/cache_line_heap.hpp"

namespace contend {

class alignas(64) SharedProgress {  // (the fields read at every end in one line)
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
  FlowId first() const { return members_.top().id; }
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
  // The heap's entries hold the end as x87 extended precision's 10 bytes
  // (the 16 of a long double hold 6 of padding), packed with the id in 16
  // bytes, so that the four children of a node fill one cache line: a pair
  // of a halo exchange holds thousands of flows, and a pop of a binary heap
  // of 32-byte long doubles missed the cache at every level below the top
  // ones, in two lines per level. Ends are never negative, and a
  // non-negative extended value orders as its (sign and exponent,
  // significand) read as unsigned integers: the heap compares integers.
  static_assert(std::numeric_limits<Work>::digits == 64 && sizeof(Work) >= 10,
                "SharedProgress packs x87 extended precision (x86-64's long double)");
  struct Member {
    std::uint64_t significand;
    std::uint16_t exponent;  // and sign (0)
    FlowId id;
    Work end() const {
      Work w{};
      std::memcpy(&w, &significand, sizeof significand);
      std::memcpy(reinterpret_cast<unsigned char*>(&w) + sizeof significand, &exponent, sizeof exponent);
      return w;
    }
    static Member make(Work end, FlowId id) {
      assert(end >= 0);  // the integer order holds for non-negative values only
      Member m{};
      end += 0.0L;  // (-0 as +0)
      std::memcpy(&m.significand, &end, sizeof m.significand);
      std::memcpy(&m.exponent, reinterpret_cast<const unsigned char*>(&end) + sizeof m.significand, sizeof m.exponent);
      m.id = id;
      return m;
    }
    // Ends first, ties by the smaller id.
    bool operator<(const Member& other) const {
      if (exponent != other.exponent) return exponent < other.exponent;
      if (significand != other.significand) return significand < other.significand;
      return id < other.id;
    }
  };
  static_assert(sizeof(Member) == 16);

  Work work_at(double now) const { return work_ + static_cast<Work>(rate_ * (now - since_)); }

  Work work_ = 0;  // bytes moved per flow by `since_`
  double rate_ = 0;
  double since_ = 0;               // when the rate last changed (or the pair emptied)
  CacheLineHeap<Member> members_;  // by (end, id)
};

}  // namespace contend
