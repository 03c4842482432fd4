#include "models/taulop/transfer_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contend::taulop {

TransferModel::TransferModel(const Parameters& parameters, int nodes)
    : parameters_(parameters), nodes_(nodes), members_(static_cast<std::size_t>(3 * nodes)) {}

double TransferModel::slowdown(Channel c, std::size_t tau) const {
  const CountFunction& table = parameters_.channels[c].concurrency;
  if (table.empty()) return static_cast<double>(tau);
  return std::max(1.0, table(static_cast<int>(tau)));
}

void TransferModel::start(Id id, const Endpoints& e, double bytes, double now) {
  now = std::max(now, clock_);  // the caller's clock may read a rounding error behind ours
  if (flows_.size() <= id) flows_.resize(static_cast<std::size_t>(id) + 1);
  Flow& f = flows_[id];
  f = Flow{};
  f.pair = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.src_rank)) << 32) |
           static_cast<std::uint32_t>(e.dst_rank);
  const int src_node = e.src_node, dst_node = e.dst_node;
  const ChannelParameters& sm = parameters_.channels[kSharedMemory];
  const ChannelParameters& net = parameters_.channels[kNetwork];
  if (src_node == dst_node) {
    f.steps[0] = Step{sm.o(bytes), {-1, -1}, kSharedMemory};
    f.steps[1] = Step{sm.L(bytes), {memory(src_node), -1}, kSharedMemory};
    f.steps[2] = Step{sm.L(bytes), {memory(src_node), -1}, kSharedMemory};
    f.step_count = 3;
  } else {
    f.steps[0] = Step{net.o(bytes), {-1, -1}, kNetwork};
    f.steps[1] = Step{sm.L(bytes), {memory(src_node), -1}, kSharedMemory};
    f.steps[2] = Step{net.L(bytes), {nic_out(src_node), nic_in(dst_node)}, kNetwork};
    f.steps[3] = Step{sm.L(bytes), {memory(dst_node), -1}, kSharedMemory};
    f.step_count = 4;
  }
  f.step = 0;
  enter_step(id, now);  // o: a delay, outside the pair's order
}

void TransferModel::request_step(Id id, double now) {
  Flow& f = flows_[id];
  Lanes& lanes = lanes_[f.pair];
  const auto step = static_cast<std::size_t>(f.step);
  if (lanes.busy[step]) {
    lanes.waiting[step].push_back(id);
    return;
  }
  lanes.busy[step] = true;
  enter_step(id, now);
}

void TransferModel::release_step(Id id, double now) {
  const Flow& f = flows_[id];
  const auto it = lanes_.find(f.pair);
  const auto step = static_cast<std::size_t>(f.step);
  Lanes& lanes = it->second;
  if (lanes.waiting[step].empty()) {
    lanes.busy[step] = false;
    const bool idle = std::none_of(lanes.busy.begin(), lanes.busy.end(), [](bool b) { return b; });
    if (idle) lanes_.erase(it);  // no waiting anywhere either: waiters only queue behind busy steps
    return;
  }
  const Id next = lanes.waiting[step].front();
  lanes.waiting[step].pop_front();
  enter_step(next, now);  // the step stays busy, now for `next`
}

double TransferModel::next_event() const {
  return events_.empty() ? std::numeric_limits<double>::infinity() : events_.top().time;
}

void TransferModel::enter_step(Id id, double now) {
  Flow& f = flows_[id];
  const Step& s = f.steps[static_cast<std::size_t>(f.step)];
  f.remaining = s.work;
  f.since = now;
  f.rate = 1;
  for (int r : s.resources) {
    if (r < 0) continue;
    settle(r, now);
    members_[static_cast<std::size_t>(r)].push_back(id);
  }
  if (s.resources[0] < 0) {
    plan(id, now);  // a delay: nothing shared
    return;
  }
  for (int r : s.resources) {
    if (r >= 0) replan(r, now);
  }
}

void TransferModel::leave_channels(Id id) {
  const Flow& f = flows_[id];
  for (int r : f.steps[static_cast<std::size_t>(f.step)].resources) {
    if (r < 0) continue;
    auto& m = members_[static_cast<std::size_t>(r)];
    m.erase(std::find(m.begin(), m.end(), id));
  }
}

void TransferModel::settle(int resource, double now) {
  for (Id id : members_[static_cast<std::size_t>(resource)]) {
    Flow& f = flows_[id];
    f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.since));
    f.since = now;
  }
}

void TransferModel::replan(int resource, double now) {
  for (Id id : members_[static_cast<std::size_t>(resource)]) plan(id, now);
}

void TransferModel::plan(Id id, double now) {
  Flow& f = flows_[id];
  const Step& s = f.steps[static_cast<std::size_t>(f.step)];
  double slowest = 1;
  for (int r : s.resources) {
    if (r >= 0) slowest = std::max(slowest, slowdown(s.channel, members_[static_cast<std::size_t>(r)].size()));
  }
  // Settle at the old rate before changing it (settle() did so for shared steps).
  f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.since));
  f.since = now;
  f.rate = 1 / slowest;
  events_.set(id, now + f.remaining / f.rate);
}

void TransferModel::advance(double now, std::vector<Completion>& completed) {
  clock_ = std::max(clock_, now);
  while (!events_.empty() && events_.top().time <= now) {
    const double time = events_.top().time;
    const Id id = events_.top().id;
    events_.pop();
    Flow& f = flows_[id];
    const Step& done = f.steps[static_cast<std::size_t>(f.step)];
    for (int r : done.resources) {
      if (r >= 0) settle(r, time);
    }
    leave_channels(id);
    for (int r : done.resources) {
      if (r >= 0) replan(r, time);  // the others speed up
    }
    if (f.step > 0) release_step(id, time);
    ++f.step;
    if (f.step == f.step_count) {
      completed.push_back({id, time});
      continue;
    }
    request_step(id, time);
  }
}

}  // namespace contend::taulop
