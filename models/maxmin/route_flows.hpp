#pragma once
// The flows of one route of the maxmin model. They share one variable of
// the max-min system, so they all have the same rate at every instant and
// each has received the same bytes since it joined: one clock of service
// per route replaces SimGrid's remaining bytes per flow. A flow of s bytes
// joining when the route's service reads S is complete when the service
// reads S + s; its remaining bytes at any time are S + s - service, and its
// end at the current rate is SimGrid's last update + remains / rate
// (Model::next_occurring_event_lazy). A rate change costs one update of the
// route, not one per flow.
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "sim/engine/queue_contents.hpp"
#include "sim/engine/transfer.hpp"

namespace contend {

class RouteFlows {
 public:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  // Flow `id` of `bytes` joins at `time` (not before the last update).
  void join(TransferId id, double bytes, double time) {
    bring_up_to(time);
    ends_.push({service_ + bytes, id});
    first_end_ = ends_.top().first;
  }

  // The rate changes at `time`; returns the time the next flow completes.
  double set_rate(double rate, double time) {
    bring_up_to(time);
    rate_ = rate;
    return next_end();
  }

  // Calls f(id, rate) for each flow on the route (for --step).
  template <class F>
  void for_each_flow(F f) const {
    for (const auto& [end, id] : queue_contents(ends_)) f(id, rate_);
  }

  // Appends the flows that complete within `precision` of `now` (their end
  // minus now below it, SimGrid's double_equals) and returns how many.
  int complete_due(double now, double precision, std::vector<TransferId>& completed) {
    int done = 0;
    while (!ends_.empty() && next_end() - now < precision) {
      completed.push_back(ends_.top().second);
      ends_.pop();
      first_end_ = ends_.empty() ? kNever : ends_.top().first;
      ++done;
    }
    if (ends_.empty()) {
      // Idle: the service restarts from 0, keeping its rounding small.
      service_ = 0;
      rate_ = 0;
      updated_ = now;
    }
    return done;
  }

 private:
  void bring_up_to(double time) {
    if (time <= updated_) return;
    service_ += rate_ * (time - updated_);
    updated_ = time;
  }

  double next_end() const {
    if (ends_.empty() || !(rate_ > 0)) return kNever;
    return updated_ + (first_end_ - service_) / rate_;
  }

  double service_ = 0;  // bytes each flow received since the route was idle, up to updated_
  double updated_ = 0;
  double rate_ = 0;  // bytes/s of each flow since updated_
  // ends_.top().first, kept beside the clock: a solve reads it for every
  // route whose rate changed, and the queue's storage is elsewhere in memory.
  double first_end_ = kNever;
  // (service at which the flow is complete, transfer), soonest first.
  std::priority_queue<std::pair<double, TransferId>, std::vector<std::pair<double, TransferId>>, std::greater<>> ends_;
};

}  // namespace contend
