// Model `maxmin`: max-min fair sharing of the platform's links exactly as
// SimGrid's LMM solver computes it for the same communications (the
// `simgrid-lmm` model), by contend's own incremental solver: the flows of
// one route form one variable (max_min_system.hpp), each start or end
// re-solves only the links coupled to the changed ones, and a route's flows
// keep one clock of service (route_flows.hpp), so that finding the next
// completion does not touch every flow. Casanova et al., JPDC 2014
// (SimGrid, CM02 network model). Details and validation:
// models/maxmin/README.md.
#include "models/maxmin/maxmin.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u.hpp>
#include <utility>
#include <vector>

#include "models/maxmin/age_sharing.hpp"
#include "models/maxmin/latency_ends.hpp"
#include "models/maxmin/max_min_system.hpp"
#include "models/maxmin/route_classes.hpp"
#include "models/maxmin/route_flows.hpp"
#include "sim/core/timeline_loads.hpp"
#include "sim/core/units.hpp"
#include "sim/engine/attribution_recorder.hpp"
#include "sim/engine/daemon_loop.hpp"
#include "sim/engine/indexed_heap.hpp"
#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace {
namespace sg4 = simgrid::s4u;

// SimGrid's surf/precision: an event closer than this to the current time
// happens now (NetworkCm02Model::update_actions_state_lazy).
constexpr double kTimingPrecision = 1e-9;
constexpr double kNever = RouteFlows::kNever;

// Wakes the model's actor from SimGrid's kernel (timer and clock callbacks
// run in maestro, where notifying is allowed). The callbacks hold it weakly:
// SimGrid's clock signal outlives the model.
struct Waker {
  sg4::ConditionVariablePtr condition = sg4::ConditionVariable::create();
  bool waiting = false;                            // the actor waits on `condition`
  double planned = kNever;                         // ... for its next event, at this time
  simgrid::kernel::timer::Timer* timer = nullptr;  // armed at `planned`
  // The clock advanced to within the timing precision of `planned`: the
  // events then planned are due (not those made later at the same time).
  bool clock_reached = false;

  void wake_for_clock() {
    clock_reached = true;
    condition->notify_one();
  }
};

class MaxMinModel final : public CommunicationModel {
 public:
  MaxMinModel(const ModelContext& c, SharingOptions sharing)
      : sink_(c.sink),
        recorder_(c.recorder),
        loads_(c.loads),
        // Attribution names the link SimGrid's rounds name on a tie: one
        // constraint per link then (max_min_system.hpp).
        system_(/*merge_links=*/c.recorder == nullptr),
        routes_(c.simgrid, c.mapping, system_),
        sharing_(sharing),
        age_weights_(sharing.age_decay),
        mutex_(sg4::Mutex::create()) {
    // SimGrid's network model has its events happen at the first clock
    // value within its timing precision before them, whatever model made
    // the clock advance (a rank's computation ending, say): so do these.
    std::weak_ptr<Waker> weak = waker_;
    sg4::Engine::on_time_advance_cb([weak](double) {
      if (auto waker = weak.lock();
          waker && waker->waiting && waker->planned - sg4::Engine::get_clock() < kTimingPrecision) {
        waker->wake_for_clock();
      }
    });
    // The actor lives on a socket endpoint host; it never computes.
    sg4::Actor::create("maxmin-network", c.simgrid.endpoint(0, 0), [this] { run_actor(); })->daemonize();
  }
  ~MaxMinModel() override {
    if (waker_->timer != nullptr) waker_->timer->remove();
  }

  bool delivers_by_itself() const override { return true; }
  // Transport buffering: a release is an event of its route's clock of
  // service, as a completion (route_flows.hpp).
  bool releases_senders(Level /*level*/) const override { return true; }

  bool moving_transfers(std::vector<MovingTransfer>& out) const override {
    for (const auto& route : flows_)
      route.for_each_flow([&out](TransferId id, double rate) { out.push_back({id, rate}); });
    return true;
  }

  // Alone: the route's latency, then its smallest capacity for one flow
  // (BW_MP(1) of a level link, the NIC's bandwidth), at most its bound.
  double contention_free_time(const Transfer& t) const override {
    const auto& route = routes_.route(routes_.known_route(t.src, t.dst));
    return route.latency + static_cast<double>(t.bytes) / system_.alone_rate(route.variable);
  }

  // As NetworkCm02Model::communicate: a flow pays its route's latency, then
  // joins the sharing (at once without latency).
  void start(TransferId id) override {
    const double now = std::max(sg4::Engine::get_clock(), now_);
    const Transfer& t = sink_.transfer(id);
    const std::uint32_t route = routes_.route_of(t.src, t.dst);
    if (route_of_.size() <= id) route_of_.resize(id + 1);
    route_of_[id] = route;
    const double latency = routes_.route(route).latency;
    if (latency > 0) {
      latency_ends_.add(id, latency, sg4::Engine::get_clock());
      if (recorder_) {
        recorder_->bound(t, sg4::Engine::get_clock(), "latency", 0,
                         "the route's latency = " + units::format_duration(latency));
      }
    } else {
      join(id, now);
      solve_at_ = std::min(solve_at_, now);
    }
    if (waker_->waiting && next_event() < waker_->planned) waker_->condition->notify_one();
  }

 private:
  double next_event() const {
    double next = solve_at_;
    next = std::min(next, latency_ends_.next());
    if (!route_ends_.empty()) next = std::min(next, route_ends_.top().time);
    return next;
  }

  void join(TransferId id, double at) {
    const std::uint32_t route = route_of_[id];
    if (flows_.size() <= route) flows_.resize(routes_.size());
    const Transfer& t = sink_.transfer(id);
    flows_[route].join(id, static_cast<double>(t.bytes), static_cast<double>(t.release_remaining), at);
    mark_reschedule(route);
    const bool was_idle = system_.flows(routes_.route(route).variable) == 0;
    system_.add_flows(routes_.route(route).variable, 1);
    if (was_idle && !sharing_.fair()) reweigh(route, true);
    if (loads_) touch_links(route);
    if (recorder_) {
      if (members_.size() <= route) members_.resize(routes_.size());
      members_[route].push_back(id);
    }
  }

  // Sharing by age (age_sharing.hpp): `route` became active or idle on its
  // last link (an inter-node route's destination NIC in); the routes whose
  // weight changed get their CM02 penalty over the weight.
  void reweigh(std::uint32_t route, bool active) {
    const auto links = system_.links(routes_.route(route).variable);
    if (links.size() < 2) return;  // within a node
    weight_changes_.clear();
    if (active) {
      age_weights_.activate(route, links.back(), weight_changes_);
    } else {
      age_weights_.deactivate(route, links.back(), weight_changes_);
    }
    for (const auto& [r, weight] : weight_changes_)
      system_.set_penalty(routes_.route(r).variable, routes_.route(r).penalty / weight);
  }

  void plan_end(std::uint32_t route, double now) {
    const double end = flows_[route].set_rate(system_.value(routes_.route(route).variable), now);
    if (end == kNever) {
      route_ends_.erase(route);
    } else {
      route_ends_.set(route, end);
    }
  }

  // The flows of `route` changed at this instant: its next end is planned
  // again after the solve, whatever its rate.
  void mark_reschedule(std::uint32_t route) {
    if (reschedule_.size() <= route) reschedule_.resize(routes_.size(), false);
    if (reschedule_[route]) return;
    reschedule_[route] = true;
    rescheduled_.push_back(route);
  }

  // Attribution: the link whose saturation fixed the route's rate (SimGrid's
  // max-min: the first constraint to saturate among the route's), or the
  // route's bound.
  void record(std::uint32_t route, double now) {
    const auto v = routes_.route(route).variable;
    const double rate = system_.value(v);
    std::string resource, detail;
    if (const auto l = system_.bottleneck(v); l != MaxMinSystem::kNoLink) {
      resource = SimgridPlatform::resource_name(routes_.link(l));
      detail = fmt::format("max-min share of {} ({} for its {} flows): {} per flow of this route", resource,
                           units::format_bandwidth(system_.capacity(l)), system_.link_flows(l),
                           units::format_bandwidth(rate));
    } else {
      resource = "bound";
      detail = fmt::format("the route's bound, its slowest link's bandwidth: {}", units::format_bandwidth(rate));
    }
    for (TransferId id : members_[route]) recorder_->bound(sink_.transfer(id), now, resource, rate, detail);
  }

  // Every latency end and completion within SimGrid's timing precision of
  // `now` happens now; then the sharing is solved once for the instant.
  void advance(double now, std::vector<TransferId>& released, std::vector<TransferId>& completed) {
    now_ = now;
    joining_.clear();
    latency_ends_.take_due(now, kTimingPrecision, joining_);
    for (TransferId id : joining_) join(id, now);
    while (!route_ends_.empty() && route_ends_.top().time - now < kTimingPrecision) {
      const std::uint32_t route = route_ends_.top().id;
      route_ends_.pop();
      const auto before = completed.size();
      const auto released_before = released.size();
      flows_[route].release_due(now, kTimingPrecision, released);
      const int done = flows_[route].complete_due(now, kTimingPrecision, completed);
      mark_reschedule(route);
      // Senders released only: the sharing is unchanged.
      if (done == 0 && released.size() > released_before) continue;
      system_.remove_flows(routes_.route(route).variable, done);
      if (!sharing_.fair() && system_.flows(routes_.route(route).variable) == 0) reweigh(route, false);
      if (loads_) touch_links(route);
      if (recorder_) {
        auto& list = members_[route];
        for (auto k = before; k < completed.size(); ++k) list.erase(std::find(list.begin(), list.end(), completed[k]));
      }
    }
    // One variable per route, numbered alike.
    for (MaxMinSystem::VariableId v : system_.solve()) {
      if (recorder_) record(v, now);
    }
    // A route plans its next end again when its rate changed or its flows
    // did; the others keep theirs: on a large component most routes (three
    // in four at P = 8192) keep their rate through a solve.
    for (MaxMinSystem::VariableId v : system_.changed()) {
      if (!reschedule_[v]) plan_end(v, now);
    }
    for (std::uint32_t route : rescheduled_) {
      reschedule_[route] = false;
      plan_end(route, now);
    }
    rescheduled_.clear();
    solve_at_ = kNever;
    if (loads_) record_loads(now);
  }

  // Timeline: the flows crossing each shared link (SimGrid's concurrency of
  // the constraint), for the links whose flows changed at this instant.
  // Fat pipes are left out: a flow there never slows another.
  void touch_links(std::uint32_t route) {
    for (MaxMinSystem::LinkId l : system_.links(routes_.route(route).variable)) {
      if (l >= link_tracks_.size()) link_tracks_.resize(l + 1, kUntracked);
      if (link_tracks_[l] == kUntracked) {
        if (system_.policy(l) == MaxMinSystem::Policy::FatPipe) continue;
        link_tracks_[l] = loads_->resource(SimgridPlatform::resource_name(routes_.link(l)), "flows");
      }
      if (link_touched_.size() <= l) link_touched_.resize(l + 1, false);
      if (!link_touched_[l]) {
        link_touched_[l] = true;
        touched_links_.push_back(l);
      }
    }
  }
  void record_loads(double now) {
    for (MaxMinSystem::LinkId l : touched_links_) {
      loads_->set(link_tracks_[l], now, system_.link_flows(l));
      link_touched_[l] = false;
    }
    touched_links_.clear();
  }

  // Sleeps until the next event (a timer at its exact time, or the first
  // clock value within SimGrid's timing precision before it), a start that
  // makes an earlier one, or a start at all when nothing is planned.
  void wait_for_next(std::unique_lock<sg4::Mutex>& lock, double next) {
    Waker& w = *waker_;
    if (w.timer != nullptr && w.planned != next) {
      w.timer->remove();
      w.timer = nullptr;
    }
    w.planned = next;
    if (next != kNever && w.timer == nullptr) {
      w.timer = simgrid::kernel::timer::Timer::set(next, [weak = std::weak_ptr<Waker>(waker_)] {
        if (auto waker = weak.lock()) {
          waker->timer = nullptr;  // SimGrid deletes it after this call
          waker->wake_for_clock();
        }
      });
    }
    w.waiting = true;
    w.condition->wait(lock);
    w.waiting = false;
  }

  void run_actor() {
    std::unique_lock<sg4::Mutex> lock(*mutex_);
    std::vector<TransferId> completed;
    std::vector<TransferId> released;
    run_daemon_loop(lock, [&] {
      while (true) {
        const double next = next_event();
        const double now = sg4::Engine::get_clock();
        // Due: events at the current time (a flow without latency, or of 0
        // bytes, ends where it starts), and, when the clock has just reached
        // them, those within SimGrid's timing precision.
        const bool clock_reached = std::exchange(waker_->clock_reached, false);
        if (next > now && !(clock_reached && next - now < kTimingPrecision)) {
          wait_for_next(lock, next);
          continue;
        }
        completed.clear();
        released.clear();
        advance(std::max(now, now_), released, completed);
        // Releasing and delivering may start new transfers: from copies.
        if (!released.empty()) {
          const std::vector<TransferId> senders = released;
          for (TransferId id : senders) sink_.release_sender(id, now_);
        }
        const std::vector<TransferId> delivered = completed;
        for (TransferId id : delivered) sink_.deliver(id, now_);
      }
    });
  }

  TransferSink& sink_;
  AttributionRecorder* recorder_;                 // null unless the run records attribution
  std::vector<std::vector<TransferId>> members_;  // by route, with a recorder: its flows moving
  ResourceLoads* loads_;                          // null unless the run records a timeline
  static constexpr ResourceLoads::Id kUntracked = UINT32_MAX;
  std::vector<ResourceLoads::Id> link_tracks_;       // by link, with loads: its track
  std::vector<bool> link_touched_;                   // by link: in touched_links_
  std::vector<MaxMinSystem::LinkId> touched_links_;  // links whose flows changed since the last record
  MaxMinSystem system_;
  RouteClasses routes_;
  SharingOptions sharing_;
  AgeWeights age_weights_;
  AgeWeights::Changes weight_changes_;      // scratch of reweigh()
  std::vector<RouteFlows> flows_;           // by route
  std::vector<std::uint32_t> route_of_;     // by transfer id, while it moves
  std::vector<bool> reschedule_;            // by route: in rescheduled_
  std::vector<std::uint32_t> rescheduled_;  // routes whose flows joined or completed at this instant
  LatencyEnds latency_ends_;
  std::vector<TransferId> joining_;        // scratch: the flows whose latency ends at this instant
  IndexedHeap<std::uint32_t> route_ends_;  // each route's next completion
  double solve_at_ = kNever;               // a flow joined without latency: solve then
  double now_ = 0;                         // the time of the last events
  sg4::MutexPtr mutex_;
  std::shared_ptr<Waker> waker_ = std::make_shared<Waker>();
};

}  // namespace

ModelInfo maxmin_model_info() {
  return parameterized_model_info<MaxMinModel>(
      "maxmin", "max-min fair sharing of the platform's links, as SimGrid's LMM computes it (incremental solver)",
      "Casanova et al., Versatile, Scalable, and Accurate Simulation of Distributed Applications and "
      "Platforms, JPDC 2014 (SimGrid, CM02 network model)",
      parse_maxmin_sharing);
}

}  // namespace contend
