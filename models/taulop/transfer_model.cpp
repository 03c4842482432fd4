#include "models/taulop/transfer_model.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

namespace contend::taulop {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}

TransferModel::TransferModel(const Parameters& parameters, int nodes)
    : parameters_(parameters),
      pools_(static_cast<std::size_t>(nodes)),
      nodes_(static_cast<std::size_t>(nodes)),
      nics_(2 * static_cast<std::size_t>(nodes)),
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
  join_lanes(id);
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
  if (f.work[0] > 0) {
    enter_step(id, now);  // o: a delay, outside the pair's order
    return;
  }
  // No delay (o = 0, as fitted platforms often have it): on to the first
  // copy at once, as the delay's timer would at this instant (delays end
  // before the channels' events of their instant), without a timer in
  // delays_, which a whole exchange starting at t = 0 fills by the million.
  if (observer_) observer_(id, now, StepCause{.kind = StepCause::Kind::Delay, .step = 0, .work = 0});
  f.step = 1;
  request_step(id, now);
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
  pool.rate = 1 / std::max(1.0, slowdown(kSharedMemory, pool.members.size()));
  reschedule(index);
  report(index, now);
}

void TransferModel::report(int index, double now) {
  if (!observer_) return;
  const Pool& pool = pools_[static_cast<std::size_t>(index)];
  if (members_.size() <= static_cast<std::size_t>(index)) members_.resize(pools_.size());
  StepCause cause;
  cause.fraction = rate_of(pool);
  if (pool.src_node < 0) {
    cause.kind = StepCause::Kind::Memory;
    cause.node = index;
    cause.tau = static_cast<int>(pool.members.size());
  } else {
    const int out = nics_[static_cast<std::size_t>(nic_out(pool.src_node))].tau;
    const int in = nics_[static_cast<std::size_t>(nic_in(pool.dst_node))].tau;
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
  channel_observer_(ChannelInstance::kNicOut, pool.src_node, now,
                    nics_[static_cast<std::size_t>(nic_out(pool.src_node))].tau);
  channel_observer_(ChannelInstance::kNicIn, pool.dst_node, now,
                    nics_[static_cast<std::size_t>(nic_in(pool.dst_node))].tau);
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

// ---------------------------------------------------------------- NICs

void TransferModel::settle(Nic& nic, double now) {
  if (now > nic.settled_at) {
    nic.work += nic.rate * (now - nic.settled_at);
    nic.settled_at = now;
  }
}

void TransferModel::schedule_nic(int index) {
  Nic& nic = nics_[static_cast<std::size_t>(index)];
  const int first = nic.limited.empty() ? -1 : active_of(index)[static_cast<std::size_t>(nic.limited.top().id)].pool;
  if (nic.scheduled != first && nic.scheduled >= 0) pool_ends_.erase(nic.scheduled);
  nic.scheduled = first;
  if (first < 0) return;
  const double gap = std::max(0.0, nic.limited.top().time - nic.work);
  pool_ends_.set(first, nic.settled_at + gap / nic.rate);
}

void TransferModel::attach(int index, int nic_index, double served, double now) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  Nic& nic = nics_[static_cast<std::size_t>(nic_index)];
  settle(nic, now);
  pool.nic = nic_index;
  pool.served = served;
  pool.nic_work_at = nic.work;
  nic.limited.set(slot_at(pool, nic_index), completion_key(pool));
  const bool out = nic_index == nic_out(pool.src_node);
  active_out_[static_cast<std::size_t>(pool.src_node)][static_cast<std::size_t>(pool.slot_out)].limited_here = out;
  active_in_[static_cast<std::size_t>(pool.dst_node)][static_cast<std::size_t>(pool.slot_in)].limited_here = !out;
}

double TransferModel::detach(int index, double now) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  Nic& nic = nics_[static_cast<std::size_t>(pool.nic)];
  settle(nic, now);
  const double served = network_served(pool, nic);
  nic.limited.erase(slot_at(pool, pool.nic));
  if (nic.scheduled == index) {  // schedule_nic() names the NIC's next pool
    pool_ends_.erase(index);
    nic.scheduled = -1;
  }
  if (nic.limited.empty()) nic.work = 0;  // keeps the counter's magnitude that of one busy period
  pool.nic = -1;
  active_out_[static_cast<std::size_t>(pool.src_node)][static_cast<std::size_t>(pool.slot_out)].limited_here = false;
  active_in_[static_cast<std::size_t>(pool.dst_node)][static_cast<std::size_t>(pool.slot_in)].limited_here = false;
  return served;
}

void TransferModel::requeue(int index) {
  const Pool& pool = pools_[static_cast<std::size_t>(index)];
  nics_[static_cast<std::size_t>(pool.nic)].limited.set(slot_at(pool, pool.nic), completion_key(pool));
}

void TransferModel::add_network_member(int index, Id id, double work, double now) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  if (pool.members.empty()) {
    // Restart the counter: keeps its magnitude that of one busy period.
    activate(index);
    pool.members.push(Pool::Member{work, id});
    const int out = nic_out(pool.src_node), in = nic_in(pool.dst_node);
    const bool out_limits =
        nics_[static_cast<std::size_t>(out)].slowdown >= nics_[static_cast<std::size_t>(in)].slowdown;
    attach(index, out_limits ? out : in, 0, now);
    return;
  }
  Nic& nic = nics_[static_cast<std::size_t>(pool.nic)];
  settle(nic, now);
  pool.members.push(Pool::Member{network_served(pool, nic) + work, id});
  requeue(index);
}

void TransferModel::change_tau(int src_node, int dst_node, int delta, double now) {
  const int out = nic_out(src_node), in = nic_in(dst_node);
  std::array<double, 2> before{};
  for (std::size_t side = 0; side < 2; ++side) {
    Nic& nic = nics_[static_cast<std::size_t>(side == 0 ? out : in)];
    before[side] = nic.slowdown;
    settle(nic, now);
    nic.tau += delta;
    nic.slowdown = std::max(1.0, slowdown(kNetwork, static_cast<std::size_t>(nic.tau)));
    nic.rate = 1 / nic.slowdown;
  }
  rebalance(out, active_out_[static_cast<std::size_t>(src_node)], true, before[0], dst_node, now);
  rebalance(in, active_in_[static_cast<std::size_t>(dst_node)], false, before[1], src_node, now);
  schedule_nic(out);
  schedule_nic(in);
}

// A pool stays with its NIC while that NIC is (one of) the slower: the
// rate is the same either way, and ties move nothing. So every pool is
// limited by a NIC at least as slow as its other one, and when this NIC's
// slowdown rises from `before` the pools it limits stay, when it falls the
// pools it does not limit stay: only the other side is read (and every
// pool whose other NIC changed too, the `changed_partner`'s).
void TransferModel::rebalance(int nic_index, std::vector<Active>& list, bool out, double before, int changed_partner,
                              double now) {
  const double here = nics_[static_cast<std::size_t>(nic_index)].slowdown;
  // The entries that may move: those limited here if `here` fell, the others if it rose.
  const bool rose = here > before, fell = here < before;
  for (const Active& entry : list) {
    if (entry.partner != changed_partner && (entry.limited_here ? !fell : !rose)) continue;
    const int other = out ? nic_in(entry.partner) : nic_out(entry.partner);
    const double there = nics_[static_cast<std::size_t>(other)].slowdown;
    if (entry.limited_here ? here < there : here > there) {
      const int from = entry.limited_here ? nic_index : other;
      const int to = entry.limited_here ? other : nic_index;
      const double served = detach(entry.pool, now);  // (clears entry.limited_here)
      attach(entry.pool, to, served, now);
      schedule_nic(from);
      schedule_nic(to);
    }
  }
}

void TransferModel::activate(int index) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  auto& out = active_out_[static_cast<std::size_t>(pool.src_node)];
  auto& in = active_in_[static_cast<std::size_t>(pool.dst_node)];
  pool.slot_out = static_cast<int>(out.size());
  out.push_back({index, pool.dst_node, false});
  pool.slot_in = static_cast<int>(in.size());
  in.push_back({index, pool.src_node, false});
}

void TransferModel::deactivate(int index) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  // The last pool of a list takes the hole, and its place in the NIC's queue
  // moves with it.
  auto remove = [this](int nic, std::vector<Active>& list, int slot, bool out) {
    const auto last_slot = static_cast<int>(list.size()) - 1;
    const Active last = list.back();
    list[static_cast<std::size_t>(slot)] = last;
    list.pop_back();
    if (slot == last_slot) return;
    Pool& moved = pools_[static_cast<std::size_t>(last.pool)];
    (out ? moved.slot_out : moved.slot_in) = slot;
    if (last.limited_here) {
      IndexedHeap<int>& limited = nics_[static_cast<std::size_t>(nic)].limited;
      const double key = limited.time_of(last_slot);
      limited.erase(last_slot);
      limited.set(slot, key);
    }
  };
  remove(nic_out(pool.src_node), active_out_[static_cast<std::size_t>(pool.src_node)], pool.slot_out, true);
  remove(nic_in(pool.dst_node), active_in_[static_cast<std::size_t>(pool.dst_node)], pool.slot_in, false);
  pool.slot_out = pool.slot_in = -1;
}

void TransferModel::report_network(int src_node, int dst_node, double now) {
  if (!observer_) return;
  for (const Active& entry : active_out_[static_cast<std::size_t>(src_node)]) report(entry.pool, now);
  for (const Active& entry : active_in_[static_cast<std::size_t>(dst_node)]) {
    if (entry.partner != src_node) report(entry.pool, now);  // else done above
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
  if (k == StepKind::Memory) {
    Pool& pool = pools_[static_cast<std::size_t>(index)];
    settle(pool, now);
    if (pool.members.empty()) {
      // Restart the counter: keeps its magnitude that of one busy period.
      pool.served = 0;
      pool.settled_at = now;
    }
    pool.members.push(Pool::Member{pool.served + work, id});
    set_rate(index, now);
    report_concurrency(pool, index, now);
    return;
  }
  add_network_member(index, id, work, now);
  change_tau(f.src_node, f.dst_node, 1, now);
  report_concurrency(pools_[static_cast<std::size_t>(index)], index, now);
  report_network(f.src_node, f.dst_node, now);
}

void TransferModel::request_step(Id id, double now) {
  Flow& f = flows_[id];
  if (f.lane == kSolo) {
    enter_step(id, now);
    return;
  }
  Lanes& lanes = lanes_[f.lane];
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
  if (f.lane == kSolo) return;
  const auto step = static_cast<std::size_t>(f.step);
  Lanes& lanes = lanes_[f.lane];
  const Id next = lanes.head[step];
  if (next == kNone) {
    lanes.busy = static_cast<std::uint8_t>(lanes.busy & ~(1u << step));
    return;
  }
  lanes.head[step] = flows_[next].next_waiting;
  if (lanes.head[step] == kNone) lanes.tail[step] = kNone;
  flows_[next].next_waiting = kNone;
  enter_step(next, now);  // the step stays busy, now for `next`
}

void TransferModel::join_lanes(Id id) {
  assert(id < kSoloTag);
  Flow& f = flows_[id];
  const auto [value, inserted] = lanes_from(f.pair).try_emplace(destination(f.pair), id | kSoloTag);
  if (inserted) {
    f.lane = kSolo;
    return;
  }
  if ((*value & kSoloTag) != 0 && !in_flight_alone(*value & ~kSoloTag, f.pair, id)) {
    // A solo message's entry outlives it (leave_lanes): the pair is empty.
    *value = id | kSoloTag;
    f.lane = kSolo;
    return;
  }
  if ((*value & kSoloTag) != 0) {
    // The pair's second message: its first gets Lanes, busy with the step it is in (step 0, o, is outside the order).
    const Id first = *value & ~kSoloTag;
    std::uint32_t lane = 0;
    if (free_lanes_.empty()) {
      lane = static_cast<std::uint32_t>(lanes_.size());
      lanes_.emplace_back();
    } else {
      lane = free_lanes_.back();
      free_lanes_.pop_back();
      lanes_[lane] = Lanes{};
    }
    Lanes& lanes = lanes_[lane];
    lanes.pair = f.pair;
    lanes.messages = 1;
    const Flow& holder = flows_[first];
    if (holder.step > 0) lanes.busy = static_cast<std::uint8_t>(1u << static_cast<unsigned>(holder.step));
    flows_[first].lane = lane;
    *value = lane;
  }
  f.lane = *value;
  ++lanes_[f.lane].messages;
}

// Whether message `holder`, named by a solo entry of `pair`, is still in
// flight alone in it. Its id may have been recycled since it completed: for
// another pair, or for this pair's message `id`, now starting (then the
// entry names the message that asks).
bool TransferModel::in_flight_alone(Id holder, std::uint64_t pair, Id id) const {
  if (holder == id) return false;
  const Flow& h = flows_[holder];
  return h.pair == pair && h.lane == kSolo && h.step < h.step_count;
}

void TransferModel::leave_lanes(Id id) {
  const Flow& f = flows_[id];
  // A message alone in its pair leaves its entry behind, stale, for the
  // pair's next message to overwrite (join_lanes): erasing it missed the
  // cache at nearly every message's end (its table went cold since it
  // started), and a halo exchange sends one message per pair.
  if (f.lane == kSolo) return;
  Lanes& lanes = lanes_[f.lane];
  if (--lanes.messages > 0) return;
  lanes_from(lanes.pair)
      .erase(destination(lanes.pair));  // no step busy either: the pair's last message has left them all
  free_lanes_.push_back(f.lane);
}

// Flow `id` finished its current step at `time`.
void TransferModel::step_done(Id id, double time, std::vector<Completion>& completed) {
  Flow& f = flows_[id];
  if (f.step > 0) release_step(id, time);
  ++f.step;
  if (f.step == f.step_count) {
    leave_lanes(id);
    completed.push_back({id, time});
    return;
  }
  request_step(id, time);
}

// The member of memory pool `index` with the smallest threshold ends its
// step at `time`; the others speed up.
void TransferModel::pool_event(int index, double time, std::vector<Completion>& completed) {
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  settle(pool, time);
  const Id id = pool.members.top().id;
  // Its Flow is read at the end (step_done): a cache miss at this scale,
  // overlapped with the pool's work by asking for it now.
  __builtin_prefetch(&flows_[id]);
  pool.members.pop();
  // And the Flow of the member that ends next, the pool's new first (one
  // pool event's work was not enough to hide the miss).
  if (!pool.members.empty()) __builtin_prefetch(&flows_[pool.members.top().id]);
  forget_member(index, id);
  set_rate(index, time);
  report_concurrency(pool, index, time);
  step_done(id, time, completed);
}

// The member with the smallest threshold of the first pool in the queue of
// NIC `nic_index` ends its step at `time`.
void TransferModel::nic_event(int nic_index, double time, std::vector<Completion>& completed) {
  Nic& nic = nics_[static_cast<std::size_t>(nic_index)];
  settle(nic, time);
  // The counter has reached the completion's key at its time (a rounding
  // error either side): exactly, so that members of the pool with the same
  // threshold (same work, entered together) complete at this same time.
  nic.work = std::max(nic.work, nic.limited.top().time);
  const int index = active_of(nic_index)[static_cast<std::size_t>(nic.limited.top().id)].pool;
  Pool& pool = pools_[static_cast<std::size_t>(index)];
  const Id id = pool.members.top().id;
  // Its Flow is read at the end (step_done): a cache miss at this scale,
  // overlapped with the pool's work by asking for it now.
  __builtin_prefetch(&flows_[id]);
  pool.members.pop();
  forget_member(index, id);
  if (pool.members.empty()) {
    detach(index, time);
    deactivate(index);
  } else {
    requeue(index);
  }
  change_tau(pool.src_node, pool.dst_node, -1, time);
  report_concurrency(pool, index, time);
  report_network(pool.src_node, pool.dst_node, time);
  step_done(id, time, completed);
}

void TransferModel::forget_member(int index, Id id) {
  if (!observer_) return;
  auto& list = members_[static_cast<std::size_t>(index)];
  list.erase(std::find(list.begin(), list.end(), id));
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
      const int index = pool_ends_.top().id;
      if (index < static_cast<int>(nodes_)) {
        pool_event(index, pool, completed);
      } else {
        nic_event(pools_[static_cast<std::size_t>(index)].nic, pool, completed);
      }
    }
  }
}

}  // namespace contend::taulop
