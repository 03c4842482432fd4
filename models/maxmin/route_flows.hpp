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
#include <algorithm>
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

  // Flow `id` of `bytes` joins at `time` (not before the last update). With
  // transport buffering (`keep` > 0) its sender is released when the service
  // reads S + bytes - keep: only `keep` bytes remain then.
  void join(TransferId id, double bytes, double keep, double time) {
    bring_up_to(time);
    ends_.push({service_ + bytes, id});
    first_end_ = ends_.top().first;
    if (keep > 0) {
      releases_.push({service_ + bytes - keep, id});
      first_release_ = releases_.top().first;
    }
  }

  // The rate changes at `time`; returns the time of the route's next event:
  // a flow completing, or a sender released.
  double set_rate(double rate, double time) {
    bring_up_to(time);
    rate_ = rate;
    return next_event();
  }

  // Appends the flows whose sender is released within `precision` of `now`
  // (as complete_due). Called before complete_due: a release is never later
  // than its flow's end.
  void release_due(double now, double precision, std::vector<TransferId>& released) {
    while (!releases_.empty() && at_service(first_release_) - now < precision) {
      released.push_back(releases_.top().second);
      releases_.pop();
      first_release_ = releases_.empty() ? kNever : releases_.top().first;
    }
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

  // When the service reads `service` at the current rate.
  double at_service(double service) const {
    if (service == kNever || !(rate_ > 0)) return kNever;
    return updated_ + (service - service_) / rate_;
  }
  double next_end() const { return ends_.empty() ? kNever : at_service(first_end_); }
  double next_event() const {
    const double end = next_end();
    return releases_.empty() ? end : std::min(end, at_service(first_release_));
  }

  double service_ = 0;  // bytes each flow received since the route was idle, up to updated_
  double updated_ = 0;
  double rate_ = 0;  // bytes/s of each flow since updated_
  // ends_.top().first, kept beside the clock: a solve reads it for every
  // route whose rate changed, and the queue's storage is elsewhere in memory.
  double first_end_ = kNever;
  using ServiceQueue =
      std::priority_queue<std::pair<double, TransferId>, std::vector<std::pair<double, TransferId>>, std::greater<>>;
  // (service at which the flow is complete, transfer), soonest first.
  ServiceQueue ends_;
  // Transport buffering: (service at which the flow's sender is released,
  // transfer), soonest first; empty without it, so it costs nothing then.
  double first_release_ = kNever;
  ServiceQueue releases_;
};

}  // namespace contend
