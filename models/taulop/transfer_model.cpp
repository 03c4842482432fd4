#include "models/taulop/transfer_model.hpp"

#include <algorithm>
#include <limits>

namespace contend::taulop {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}

TransferModel::TransferModel(const Parameters& parameters, int nodes)
    : parameters_(parameters),
      pools_(static_cast<std::size_t>(nodes)),
      tau_out_(static_cast<std::size_t>(nodes), 0),
      tau_in_(static_cast<std::size_t>(nodes), 0),
      active_out_(static_cast<std::size_t>(nodes)),
      active_in_(static_cast<std::size_t>(nodes)) {}

double TransferModel::slowdown(Channel c, std::size_t tau) const {
  const CountFunction& table = parameters_.channels[c].concurrency;
  if (table.empty()) return static_cast<double>(tau);
  return std::max(1.0, table(static_cast<int>(tau)));
}

// Step 0 is the delay o; then a node's memory, or (between nodes, step 2) the network.
TransferModel::StepKind TransferModel::kind(const Flow& f) {
  if (f.step == 0) return StepKind::Delay;
  return f.step_count == 4 && f.step == 2 ? StepKind::Network : StepKind::Memory;
}

int TransferModel::pool_of(const Flow& f) {
  if (kind(f) == StepKind::Memory) return f.step == 3 ? f.dst_node : f.src_node;
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(f.src_node)) << 32) |
                            static_cast<std::uint32_t>(f.dst_node);
  auto [it, inserted] = network_pool_of_.try_emplace(key, static_cast<int>(pools_.size()));
  if (inserted) {
    pools_.emplace_back();
    pools_.back().src_node = f.src_node;
    pools_.back().dst_node = f.dst_node;
  }
  return it->second;
}

void TransferModel::start(Id id, const Endpoints& e, double bytes, double now) {
  now = std::max(now, clock_);  // the caller's clock may read a rounding error behind ours
  if (flows_.size() <= id) flows_.resize(static_cast<std::size_t>(id) + 1);
  Flow& f = flows_[id];
  f = Flow{};
  f.pair = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.src_rank)) << 32) |
           static_cast<std::uint32_t>(e.dst_rank);
  f.src_node = e.src_node;
  f.dst_node = e.dst_node;
  const ChannelParameters& sm = parameters_.channels[kSharedMemory];
  const ChannelParameters& net = parameters_.channels[kNetwork];
  if (e.src_node == e.dst_node) {
    f.work = {sm.o(bytes), sm.L(bytes), sm.L(bytes), 0};
    f.step_count = 3;
  } else {
    f.work = {net.o(bytes), sm.L(bytes), net.L(bytes), sm.L(bytes)};
    f.step_count = 4;
  }
  f.step = 0;
  enter_step(id, now);  // o: a delay, outside the pair's order
}

// ---------------------------------------------------------------- pools

void TransferModel::settle(Pool& pool, double now) {
  if (now > pool.settled_at) {
    pool.served += pool.rate * (now - pool.settled_at);
    pool.settled_at = now;
  }
}

void TransferModel::set_rate(int index, double now) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  settle(pool, now);
  double slowest = 1;
  if (pool.src_node < 0) {
    slowest = std::max(slowest, slowdown(kSharedMemory, pool.members.size()));
  } else {
    // The slower of the two NICs.
    slowest = std::max(slowest, slowdown(kNetwork, static_cast<std::size_t>(tau_out_[pool.src_node])));
    slowest = std::max(slowest, slowdown(kNetwork, static_cast<std::size_t>(tau_in_[pool.dst_node])));
  }
  pool.rate = 1 / slowest;
  reschedule(index);
  report(index, now);
}

void TransferModel::report(int index, double now) {
  if (!observer_) return;
  const Pool& pool = pools_[static_cast<std::size_t>(index)];
  if (members_.size() <= static_cast<std::size_t>(index)) members_.resize(pools_.size());
  StepCause cause;
  cause.fraction = pool.rate;
  if (pool.src_node < 0) {
    cause.kind = StepCause::Kind::Memory;
    cause.node = index;
    cause.tau = static_cast<int>(pool.members.size());
  } else {
    const int out = tau_out_[static_cast<std::size_t>(pool.src_node)];
    const int in = tau_in_[static_cast<std::size_t>(pool.dst_node)];
    cause.kind = StepCause::Kind::Network;
    cause.out = slowdown(kNetwork, static_cast<std::size_t>(out)) >= slowdown(kNetwork, static_cast<std::size_t>(in));
    cause.node = cause.out ? pool.src_node : pool.dst_node;
    cause.tau = cause.out ? out : in;
  }
  for (Id id : members_[static_cast<std::size_t>(index)]) {
    const Flow& f = flows_[id];
    cause.step = f.step;
    cause.work = f.work[static_cast<std::size_t>(f.step)];
    observer_(id, now, cause);
  }
}

void TransferModel::report_concurrency(const Pool& pool, int index, double now) const {
  if (!channel_observer_) return;
  if (pool.src_node < 0) {
    channel_observer_(ChannelInstance::kMemory, index, now, static_cast<int>(pool.members.size()));
    return;
  }
  channel_observer_(ChannelInstance::kNicOut, pool.src_node, now, tau_out_[static_cast<std::size_t>(pool.src_node)]);
  channel_observer_(ChannelInstance::kNicIn, pool.dst_node, now, tau_in_[static_cast<std::size_t>(pool.dst_node)]);
}

void TransferModel::reschedule(int index) {
  const Pool& pool = pools_[static_cast<std::size_t>(index)];
  if (pool.members.empty()) {
    pool_ends_.erase(index);
    return;
  }
  const double gap = std::max(0.0, pool.members.top().threshold - pool.served);
  pool_ends_.set(index, pool.settled_at + gap / pool.rate);
}

void TransferModel::activate(int index) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  auto& out = active_out_[static_cast<std::size_t>(pool.src_node)];
  auto& in = active_in_[static_cast<std::size_t>(pool.dst_node)];
  pool.slot_out = static_cast<int>(out.size());
  out.push_back(index);
  pool.slot_in = static_cast<int>(in.size());
  in.push_back(index);
}

void TransferModel::deactivate(int index) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  auto remove = [this](std::vector<int>& list, int slot, bool out) {
    const int last = list.back();
    list[static_cast<std::size_t>(slot)] = last;
    Pool& moved = pools_[static_cast<std::size_t>(last)];
    (out ? moved.slot_out : moved.slot_in) = slot;
    list.pop_back();
  };
  remove(active_out_[static_cast<std::size_t>(pool.src_node)], pool.slot_out, true);
  remove(active_in_[static_cast<std::size_t>(pool.dst_node)], pool.slot_in, false);
  pool.slot_out = pool.slot_in = -1;
}

void TransferModel::network_changed(int src_node, int dst_node, double now) {
  for (int p : active_out_[static_cast<std::size_t>(src_node)]) set_rate(p, now);
  for (int p : active_in_[static_cast<std::size_t>(dst_node)]) {
    if (pools_[static_cast<std::size_t>(p)].src_node != src_node) set_rate(p, now);  // else done above
  }
}

// ---------------------------------------------------------------- steps

void TransferModel::enter_step(Id id, double now) {
  Flow& f = flows_[id];
  const StepKind k = kind(f);
  const double work = f.work[static_cast<std::size_t>(f.step)];
  if (k == StepKind::Delay) {
    delays_.set(id, now + work);  // occupies no channel
    if (observer_) observer_(id, now, StepCause{.kind = StepCause::Kind::Delay, .step = f.step, .work = work});
    return;
  }
  const int index = pool_of(f);
  if (observer_) {
    if (members_.size() <= static_cast<std::size_t>(index)) members_.resize(pools_.size());
    members_[static_cast<std::size_t>(index)].push_back(id);
  }
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  settle(pool, now);
  if (pool.members.empty()) {
    // Restart the counter: keeps its magnitude that of one busy period.
    pool.served = 0;
    pool.settled_at = now;
  }
  pool.members.push(Pool::Member{pool.served + work, id});
  if (k == StepKind::Memory) {
    set_rate(index, now);
    report_concurrency(pool, index, now);
    return;
  }
  if (pool.members.size() == 1) activate(index);
  ++tau_out_[static_cast<std::size_t>(f.src_node)];
  ++tau_in_[static_cast<std::size_t>(f.dst_node)];
  report_concurrency(pool, index, now);
  network_changed(f.src_node, f.dst_node, now);
}

void TransferModel::request_step(Id id, double now) {
  Flow& f = flows_[id];
  Lanes& lanes = lanes_[f.pair];
  const auto step = static_cast<std::size_t>(f.step);
  const auto bit = static_cast<std::uint8_t>(1u << step);
  if ((lanes.busy & bit) != 0) {
    if (observer_) {
      observer_(id, now,
                StepCause{.kind = StepCause::Kind::Queued, .step = f.step, .work = f.work[step], .fraction = 0});
    }
    if (lanes.tail[step] == kNone) {
      lanes.head[step] = id;
    } else {
      flows_[lanes.tail[step]].next_waiting = id;
    }
    lanes.tail[step] = id;
    return;
  }
  lanes.busy |= bit;
  enter_step(id, now);
}

void TransferModel::release_step(Id id, double now) {
  const Flow& f = flows_[id];
  const auto it = lanes_.find(f.pair);
  const auto step = static_cast<std::size_t>(f.step);
  Lanes& lanes = it->second;
  const Id next = lanes.head[step];
  if (next == kNone) {
    lanes.busy = static_cast<std::uint8_t>(lanes.busy & ~(1u << step));
    if (lanes.busy == 0) lanes_.erase(it);  // no waiting anywhere either: waiters only queue behind busy steps
    return;
  }
  lanes.head[step] = flows_[next].next_waiting;
  if (lanes.head[step] == kNone) lanes.tail[step] = kNone;
  flows_[next].next_waiting = kNone;
  enter_step(next, now);  // the step stays busy, now for `next`
}

// Flow `id` finished its current step at `time`.
void TransferModel::step_done(Id id, double time, std::vector<Completion>& completed) {
  Flow& f = flows_[id];
  if (f.step > 0) release_step(id, time);
  ++f.step;
  if (f.step == f.step_count) {
    completed.push_back({id, time});
    return;
  }
  request_step(id, time);
}

// The member of `index` with the smallest threshold ends its step at `time`;
// the others speed up.
void TransferModel::pool_event(int index, double time, std::vector<Completion>& completed) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  settle(pool, time);
  const Id id = pool.members.top().id;
  pool.members.pop();
  if (observer_) {
    auto& list = members_[static_cast<std::size_t>(index)];
    list.erase(std::find(list.begin(), list.end(), id));
  }
  if (pool.src_node < 0) {
    set_rate(index, time);
    report_concurrency(pool, index, time);
  } else {
    if (pool.members.empty()) deactivate(index);
    --tau_out_[static_cast<std::size_t>(pool.src_node)];
    --tau_in_[static_cast<std::size_t>(pool.dst_node)];
    report_concurrency(pool, index, time);
    reschedule(index);  // empty: no longer scheduled
    network_changed(pool.src_node, pool.dst_node, time);
  }
  step_done(id, time, completed);
}

double TransferModel::next_event() const {
  const double delay = delays_.empty() ? kInfinity : delays_.top().time;
  const double pool = pool_ends_.empty() ? kInfinity : pool_ends_.top().time;
  return std::min(delay, pool);
}

void TransferModel::advance(double now, std::vector<Completion>& completed) {
  clock_ = std::max(clock_, now);
  while (true) {
    const double delay = delays_.empty() ? kInfinity : delays_.top().time;
    const double pool = pool_ends_.empty() ? kInfinity : pool_ends_.top().time;
    if (std::min(delay, pool) > now) return;
    if (delay <= pool) {
      const Id id = delays_.top().id;
      delays_.pop();
      step_done(id, delay, completed);
    } else {
      pool_event(pool_ends_.top().id, pool, completed);
    }
  }
}

}  // namespace contend::taulop
