#include "sim/engine/fluid_model.hpp"

#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace sg4 = simgrid::s4u;

FluidModel::FluidModel(const ModelContext& context)
    : context_(context),
      sink_(context.sink),
      mutex_(sg4::Mutex::create()),
      wakeup_(sg4::ConditionVariable::create()) {
  // The actor lives on a socket endpoint host; it never computes.
  sg4::Actor::create("fluid-network", context.simgrid.endpoint(0, 0), [this] { run_network_actor(); })->daemonize();
}

void FluidModel::start(TransferId id) {
  on_start(id, sg4::Engine::get_clock());
  if (next_event() < planned_wakeup_) {
    planned_wakeup_ = -kNever;
    wakeup_->notify_one();  // an earlier event: the actor re-plans
  }
}

void FluidModel::run_network_actor() {
  std::unique_lock<sg4::Mutex> lock(*mutex_);
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
    completed_.clear();
    advance(next, completed_);
    for (const auto& c : completed_) sink_.deliver(c.id, c.time);
  }
}

}  // namespace contend
