#include "sim/engine/fluid_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "sim/core/units.hpp"
#include "sim/engine/attribution_recorder.hpp"
#include "sim/engine/daemon_loop.hpp"
#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace sg4 = simgrid::s4u;

FluidModel::FluidModel(const ModelContext& context)
    : context_(context), sink_(context.sink), mutex_(sg4::Mutex::create()), wakeup_(sg4::ConditionVariable::create()) {
  // The actor lives on a socket endpoint host; it never computes.
  sg4::Actor::create("fluid-network", context.simgrid.endpoint(0, 0), [this] { run_network_actor(); })->daemonize();
}

void FluidModel::start(TransferId id) {
  on_start(id, sg4::Engine::get_clock());
  if (!followed_.empty()) follow_rates(std::max(clock_, sg4::Engine::get_clock()));
  if (next_event() < planned_wakeup_) {
    planned_wakeup_ = -kNever;
    wakeup_->notify_one();  // an earlier event: the actor re-plans
  }
}

void FluidModel::on_start(TransferId id, double now) {
  const Transfer& t = sink_.transfer(id);
  const double ready = now + latency(t);
  if (ready <= now) {
    on_data_start(id, now);
  } else {
    record_latency(t, now, ready - now);
    wait_latency(id, ready);
  }
}

void FluidModel::record_latency(const Transfer& t, double at, double seconds) const {
  if (context_.recorder == nullptr || !(seconds > 0)) return;
  const std::string what = t.level == Level::InterNode
                               ? fmt::format("the route's latency from node {} to node {}",
                                             context_.mapping[t.src].node, context_.mapping[t.dst].node)
                               : fmt::format("the {} latency", level_name(t.level));
  context_.recorder->bound(t, at, "latency", 0, fmt::format("{} = {}", what, units::format_duration(seconds)));
}

void FluidModel::plan_release(TransferId id, double now, double remaining, double rate) {
  const Transfer& t = sink_.transfer(id);
  if (t.release_remaining == 0 || t.sender_released) return;
  const double keep = static_cast<double>(t.release_remaining);
  if (remaining <= keep) {
    release_at(id, now);
  } else if (rate > 0) {
    release_at(id, now + (remaining - keep) / rate);
  } else {
    cancel_release(id);
  }
}

void FluidModel::follow_release(TransferId id, double at) {
  const Transfer& t = sink_.transfer(id);
  if (t.release_remaining == 0 || t.sender_released) return;
  followed_[id] = Followed{static_cast<double>(t.bytes), 0, at};
}

void FluidModel::follow_rates(double now) {
  moving_.clear();
  moving_transfers(moving_);
  rates_.clear();
  for (const auto& m : moving_) {
    if (followed_.contains(m.id)) rates_[m.id] = m.rate;
  }
  for (auto& [id, f] : followed_) {
    if (now > f.since) {
      f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.since));
      f.since = now;
    }
    const auto it = rates_.find(id);
    const double rate = it == rates_.end() ? 0.0 : it->second;
    if (rate == f.rate && releases_.contains(id)) continue;  // the planned release stands
    f.rate = rate;
    plan_release(id, now, f.remaining, rate);
  }
}

double FluidModel::latency(const Transfer& t) const {
  if (t.level != Level::InterNode) return context_.platform.level(t.level).latency;
  return route_latency(context_.mapping[t.src].node, context_.mapping[t.dst].node);
}

double FluidModel::route_latency(int from_node, int to_node) const {
  const auto key =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from_node)) << 32) | static_cast<std::uint32_t>(to_node);
  auto [it, inserted] = route_latency_.try_emplace(key, 0.0);
  if (inserted) context_.simgrid.node_route(from_node, to_node, &it->second);
  return it->second;
}

double FluidModel::next_event() const {
  double next = std::min(timers_.empty() ? kNever : timers_.top().time, next_sharing_event());
  if (!releases_.empty()) next = std::min(next, releases_.top().time);
  return wakeups_.empty() ? next : std::min(next, wakeups_.top());
}

void FluidModel::advance(double now) {
  clock_ = now;
  completed_.clear();
  released_.clear();
  while (!releases_.empty() && releases_.top().time <= now) {
    released_.push_back({releases_.top().id, releases_.top().time});
    releases_.pop();
  }
  // Timers first, each at its own time: latency ends join the sharing in id
  // order among simultaneous ones (a derived model that re-evaluates its
  // sharing does so once for the instant, in advance_sharing()).
  while (!timers_.empty() && timers_.top().time <= now) {
    const auto [time, id, what] = timers_.top();
    timers_.pop();
    if (what == kLatencyEnd) {
      on_data_start(id, time);
    } else {
      on_delivered(id, time);
      completed_.push_back({id, time});
    }
  }
  advance_sharing(now, completed_);
  // A delivered transfer needs no release (its id may be reused).
  if (!releases_.empty() || !followed_.empty()) {
    for (const auto& c : completed_) {
      releases_.erase(c.id);
      followed_.erase(c.id);
    }
  }
  for (const auto& r : released_) followed_.erase(r.id);
  if (!followed_.empty()) follow_rates(now);
  while (!wakeups_.empty() && wakeups_.top() <= now) wakeups_.pop();
}

void FluidModel::run_network_actor() {
  std::unique_lock<sg4::Mutex> lock(*mutex_);
  run_daemon_loop(lock, [&] {
    while (true) {
      const double next = next_event();
      if (next == kNever) {
        planned_wakeup_ = kNever;
        wakeup_->wait(lock);
        planned_wakeup_ = -kNever;
        continue;
      }
      if (next > sg4::Engine::get_clock()) {
        planned_wakeup_ = next;
        const auto status = wakeup_->wait_until(lock, next);
        planned_wakeup_ = -kNever;
        if (status == std::cv_status::no_timeout) continue;  // woken by a start: plan again
      }
      // `next` has come (the clock may read a rounding error either side of it).
      advance(next);
      // Senders released at this instant first: a delivery may start transfers (and plan releases).
      for (const auto& r : released_) sink_.release_sender(r.id, r.time);
      for (const auto& c : completed_) sink_.deliver(c.id, c.time);
    }
  });
}

}  // namespace contend
