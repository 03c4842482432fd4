#pragma once
// The ends of the maxmin flows' latencies, in the order a heap of (time,
// transfer) would give them, without a heap of every flow in its latency.
//
// A flow's latency is its route's, and flows start in the order of
// SimGrid's clock: the ends of one latency value come in the order of their
// starts. One FIFO per distinct latency (a few: one per route length) keeps
// them sorted, and the next end is the smallest of the fronts: O(1) per
// flow, where a heap costs O(log n) cache misses per flow with n in the
// millions when a halo exchange posts every message at t = 0.
#include <algorithm>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

#include "sim/engine/transfer.hpp"

namespace contend {

class LatencyEnds {
 public:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  // Flow `id` started at `now` and waits `latency` (> 0).
  void add(TransferId id, double latency, double now) {
    auto queue = std::find_if(queues_.begin(), queues_.end(), [&](const Queue& q) { return q.latency == latency; });
    if (queue == queues_.end()) queue = queues_.insert(queues_.end(), Queue{latency, {}});
    const Entry entry{latency + now, id};
    auto& ends = queue->ends;
    // Sorted by time only: take_due() orders simultaneous ends by id.
    if (ends.empty() || !(entry.first < ends.back().first)) {
      ends.push_back(entry);
    } else {
      // A start a rounding error before the last one: keep the order.
      const auto later = std::upper_bound(ends.begin(), ends.end(), entry.first,
                                          [](double time, const Entry& e) { return time < e.first; });
      ends.insert(later, entry);
    }
  }

  // The earliest end, kNever when none.
  double next() const {
    double next = kNever;
    for (const Queue& q : queues_) {
      if (!q.ends.empty()) next = std::min(next, q.ends.front().first);
    }
    return next;
  }

  // Moves the flows whose latency ends within `precision` after `now` (or
  // before it) to `due`, soonest first, ties by transfer id.
  void take_due(double now, double precision, std::vector<TransferId>& due) {
    scratch_.clear();
    for (Queue& q : queues_) {
      while (!q.ends.empty() && q.ends.front().first - now < precision) {
        scratch_.push_back(q.ends.front());
        q.ends.pop_front();
      }
    }
    // One FIFO holds simultaneous starts in the order they came, not by id.
    if (!std::is_sorted(scratch_.begin(), scratch_.end())) std::sort(scratch_.begin(), scratch_.end());
    for (const Entry& e : scratch_) due.push_back(e.second);
  }

 private:
  using Entry = std::pair<double, TransferId>;  // (end of the latency, transfer)
  struct Queue {
    double latency;
    std::deque<Entry> ends;
  };
  std::vector<Queue> queues_;
  std::vector<Entry> scratch_;
};

}  // namespace contend
