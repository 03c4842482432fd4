#include "models/staircase/staircase_sharing.hpp"

#include <algorithm>
#include <limits>

namespace contend {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A message is complete when it lacks at most this many bytes: rounding in
// the served counters, never a real remainder (1e-6 B is 1e-15 s at 1 GB/s).
constexpr double kByteTolerance = 1e-6;

}  // namespace

StaircaseSharing::StaircaseSharing(const Platform& platform, const Mapping& mapping, StaircaseOptions options,
                                   std::unique_ptr<FabricSharing> fabric)
    : platform_(platform), options_(options), fabric_(std::move(fabric)) {
  const int sockets = platform.nodes.sockets;
  processes_.resize(static_cast<std::size_t>(mapping.rank_count()));
  for (int r = 0; r < mapping.rank_count(); ++r) {
    auto& p = processes_[static_cast<std::size_t>(r)];
    p.node = mapping[r].node;
    p.socket_group = mapping[r].node * sockets + mapping[r].socket;
  }
  node_group_base_ = platform.nodes.count * sockets;
  senders_of_node_.resize(static_cast<std::size_t>(platform.nodes.count), 0);
  if (options.sender_nic) sending_ = std::make_unique<SendingSide>(platform.nodes.count, fabric_.get());
  groups_.resize(static_cast<std::size_t>(node_group_base_ + platform.nodes.count));
  for (int g = 0; g < static_cast<int>(groups_.size()); ++g) {
    auto& group = groups_[static_cast<std::size_t>(g)];
    group.kind = g < node_group_base_ ? kSocket : kNode;
    group.node = g < node_group_base_ ? g / sockets : g - node_group_base_;
    if (group.kind == kNode) {
      group.classes_from.resize(static_cast<std::size_t>(platform.nodes.count));
      group.weight_slot.assign(static_cast<std::size_t>(platform.nodes.count), -1);
    }
  }
}

// ---------------------------------------------------------------- classes

int StaircaseSharing::group_of(const Process& p, GroupKind kind) const {
  return kind == kSocket ? p.socket_group : node_group_base_ + p.node;
}

bool StaircaseSharing::wants_socket_service(const Process& p) const {
  if (p.on < 0 && p.off < 0) return false;
  return !options_.sequential_levels || p.inter_count == 0;
}

int StaircaseSharing::new_class(int process, int source_node) {
  int c;
  if (!free_classes_.empty()) {
    c = free_classes_.back();
    free_classes_.pop_back();
  } else {
    c = static_cast<int>(classes_.size());
    classes_.emplace_back();
    if (observer_) members_.emplace_back();
  }
  auto& k = classes_[static_cast<std::size_t>(c)];
  reset(k);
  k.process = process;
  k.source_node = source_node;
  k.settled_at = clock_;
  return c;
}

// The inter-node class of `receiver` for messages from `source_node` (with
// a fabric or the sending side), -1 for "any".
std::uint64_t StaircaseSharing::class_key(int receiver, int source_node) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(receiver)) << 32 |
         static_cast<std::uint32_t>(source_node + 1);
}

void StaircaseSharing::free_class(int c) {
  auto& k = classes_[static_cast<std::size_t>(c)];
  if (k.source_node >= 0) {
    inter_class_.erase(class_key(k.process, k.source_node));
    auto& g =
        groups_[static_cast<std::size_t>(node_group_base_ + processes_[static_cast<std::size_t>(k.process)].node)];
    auto& list = g.classes_from[static_cast<std::size_t>(k.source_node)];
    list.erase(std::find(list.begin(), list.end(), c));
  }
  reset(k);
  if (observer_) members_[static_cast<std::size_t>(c)].clear();
  free_classes_.push_back(c);
}

// A class as new, its messages' storage kept for its next use.
void StaircaseSharing::reset(Class& c) {
  MessageClass messages = std::move(c.messages);
  messages.clear();
  c = Class{};
  c.messages = std::move(messages);
}

void StaircaseSharing::settle(Class& c, double t) {
  if (t > c.settled_at) {
    c.messages.serve(c.rate * (t - c.settled_at));
    c.settled_at = t;
  }
}

void StaircaseSharing::settle_process(int process, GroupKind kind, double t) {
  for_each_class(processes_[static_cast<std::size_t>(process)], kind,
                 [&](int c) { settle(classes_[static_cast<std::size_t>(c)], t); });
}

// ---------------------------------------------------------------- rates

double StaircaseSharing::share(const Group& g) const {
  const double n = static_cast<double>(g.members.size());
  return n > 0 ? platform_.level(Level::InterNode).bandwidth.aggregate(n) / n : 0;
}

// When the smallest message of class c (settled to t) completes at its rate.
void StaircaseSharing::schedule(Class& c, double t) {
  if (c.messages.empty()) {
    c.done_at = kInfinity;
    return;
  }
  const double gap = c.messages.smallest_gap();
  if (gap <= kByteTolerance) {
    c.done_at = t;
  } else if (c.rate > 0) {
    c.done_at = t + gap / c.rate;
  } else {
    c.done_at = kInfinity;
  }
}

// The class of process p on the level `kind` that completes a message
// first (ties: the smaller class number), -1 if none moves.
int StaircaseSharing::first_class(const Process& p, GroupKind kind) const {
  int first = -1;
  double earliest = kInfinity;
  for_each_class(p, kind, [&](int id) {
    const double at = classes_[static_cast<std::size_t>(id)].done_at;
    if (at < earliest || (at == earliest && first >= 0 && id < first)) {
      earliest = at;
      first = id;
    }
  });
  return first;
}

// The process's entry in its group's heap: its earliest class completion.
void StaircaseSharing::reschedule(int process, GroupKind kind) {
  const auto& p = processes_[static_cast<std::size_t>(process)];
  auto& g = groups_[static_cast<std::size_t>(group_of(p, kind))];
  const int first = first_class(p, kind);
  if (first < 0) {
    g.completions.erase(process);
  } else {
    g.completions.set(process, classes_[static_cast<std::size_t>(first)].done_at);
  }
}

// New rates for the classes of one process (settled to t), and their
// completion times in the group's heap.
void StaircaseSharing::set_rates(int process, GroupKind kind, double t) {
  auto& p = processes_[static_cast<std::size_t>(process)];
  auto& g = groups_[static_cast<std::size_t>(group_of(p, kind))];
  if (kind == kSocket) {
    Class* on = p.on >= 0 ? &classes_[static_cast<std::size_t>(p.on)] : nullptr;
    Class* off = p.off >= 0 ? &classes_[static_cast<std::size_t>(p.off)] : nullptr;
    const double n = static_cast<double>(g.members.size());
    // Thune eq. (12): BW_mix(n, theta) = theta/n BW_on(n) + (1 - theta)/n BW_off(n).
    const double bw_on = platform_.level(Level::IntraSocket).bandwidth.aggregate(n) / n;
    const double bw_off = platform_.level(Level::InterSocket).bandwidth.aggregate(n) / n;
    const double v_on = on ? on->messages.remaining_volume() : 0;
    const double v_off = off ? off->messages.remaining_volume() : 0;
    double theta = v_on + v_off > 0 ? v_on / (v_on + v_off) : 0.5;
    if (!off) theta = 1;
    if (!on) theta = 0;
    const double mix = theta * bw_on + (1 - theta) * bw_off;
    // Eqs. (16)-(17): the two kinds flow as theta : 1 - theta, each split
    // evenly over its messages (eq. (9)).
    if (on) {
      on->rate = theta * mix / on->messages.count();
      schedule(*on, t);
      report(p.on, t);
    }
    if (off) {
      off->rate = (1 - theta) * mix / off->messages.count();
      schedule(*off, t);
      report(p.off, t);
    }
    reschedule(process, kind);
    return;
  }
  // Thune eqs. (5)/(7): each of the n receiving processes gets BW_MP(n)/n,
  // split evenly over its messages; the fabric may hold a node pair back,
  // the sending side a sender.
  const double per_message = share(g) / p.inter_count;
  double earliest = kInfinity;
  for (int id : p.inter) {
    auto& c = classes_[static_cast<std::size_t>(id)];
    c.rate = inter_rate(c, per_message);
    schedule(c, t);
    report(id, t);
    earliest = std::min(earliest, c.done_at);
  }
  // The process's entry: the earliest of its classes (reschedule() without a second scan).
  if (earliest < kInfinity) {
    g.completions.set(process, earliest);
  } else {
    g.completions.erase(process);
  }
}

void StaircaseSharing::refresh_process(int process, GroupKind kind, double t) {
  settle_process(process, kind, t);
  set_rates(process, kind, t);
}

// Every member's share changed (n or the fabric's caps): all rates anew.
void StaircaseSharing::refresh_group(int group, double t) {
  auto& g = groups_[static_cast<std::size_t>(group)];
  for (int m : g.members) settle_process(m, g.kind, t);
  if (g.kind == kNode && (fabric_ || sending_)) {
    for (int m : g.members) {
      for (int c : processes_[static_cast<std::size_t>(m)].inter) {
        auto& k = classes_[static_cast<std::size_t>(c)];
        if (fabric_) k.factor = fabric_->factor(k.source_node, g.node);
        if (sending_) k.send_factor = sending_->factor(k.source_node, g.node);
      }
    }
  }
  for (int m : g.members) set_rates(m, g.kind, t);
  publish(group);
}

void StaircaseSharing::publish(int group) {
  const auto& g = groups_[static_cast<std::size_t>(group)];
  if (g.completions.empty()) {
    schedule_.erase(group);
  } else {
    schedule_.set(group, g.completions.top().time);
  }
}

// ---------------------------------------------------------------- membership and fabric

bool StaircaseSharing::update_membership(int process, GroupKind kind) {
  auto& p = processes_[static_cast<std::size_t>(process)];
  auto& g = groups_[static_cast<std::size_t>(group_of(p, kind))];
  const bool wanted = kind == kSocket ? wants_socket_service(p) : p.inter_count > 0;
  if (wanted == p.member[kind]) return false;
  p.member[kind] = wanted;
  if (wanted) {
    g.members.push_back(process);
    report_members(group_of(p, kind));
    return true;
  }
  g.members.erase(std::find(g.members.begin(), g.members.end(), process));
  report_members(group_of(p, kind));
  // Its classes (if any, in sequential mode) wait unserved.
  g.completions.erase(process);
  for_each_class(p, kind, [&](int id) {
    classes_[static_cast<std::size_t>(id)].rate = 0;
    classes_[static_cast<std::size_t>(id)].done_at = kInfinity;
    report(id, clock_);
  });
  return true;
}

// Node groups keep, per source node A, the sum over members of c_pA / m_p,
// so that the pair demands D_AB = share x that sum are known without a scan.
void StaircaseSharing::add_weights(const Process& p, Group& g, double sign) {
  if ((!fabric_ && !sending_) || p.inter_count == 0) return;
  for (int id : p.inter) {
    const auto& c = classes_[static_cast<std::size_t>(id)];
    const double delta = sign * c.messages.count() / p.inter_count;
    int& slot = g.weight_slot[static_cast<std::size_t>(c.source_node)];
    if (slot < 0) {
      slot = static_cast<int>(g.weights.size());
      g.weights.emplace_back(c.source_node, delta);
    } else if ((g.weights[static_cast<std::size_t>(slot)].second += delta) < 1e-12) {
      // The last entry takes its place (slot is the last one's too when it is the last).
      g.weight_slot[static_cast<std::size_t>(g.weights.back().first)] = slot;
      g.weights[static_cast<std::size_t>(slot)] = g.weights.back();
      g.weights.pop_back();
      slot = -1;
    }
  }
}

// The demands D_AB of the pairs into the group's node changed: the fabric's
// caps at once, the sending side's factors at the end of the instant.
void StaircaseSharing::update_fabric(int group, double t) {
  if (!fabric_ && !sending_) return;
  const auto& g = groups_[static_cast<std::size_t>(group)];
  const double s = share(g);
  std::vector<std::pair<int, double>> demands;
  demands.reserve(g.weights.size());
  for (const auto& [source, weight] : g.weights) demands.emplace_back(source, s * weight);
  if (sending_) {
    sending_->set_demands(g.node, demands);
    mark_pairs_stale(t);
  }
  if (!fabric_) return;
  std::vector<std::pair<int, int>> changed;
  fabric_->set_demands(g.node, demands, changed);
  for (const auto& [src, dst] : changed) apply_factor(src, dst, t);
}

// The fabric's cap or the sending side's factor of the pair (src, dst)
// changed: its classes move at the new factors.
void StaircaseSharing::apply_factor(int src_node, int dst_node, double t) {
  const int group = node_group_base_ + dst_node;
  auto& g = groups_[static_cast<std::size_t>(group)];
  const auto& from = g.classes_from[static_cast<std::size_t>(src_node)];
  if (from.empty()) return;
  const double factor = fabric_ ? fabric_->factor(src_node, dst_node) : 1.0;
  const double send_factor = sending_ ? sending_->factor(src_node, dst_node) : 1.0;
  const double s = share(g);
  std::vector<int> rescan;
  for (int id : from) {
    auto& c = classes_[static_cast<std::size_t>(id)];
    const auto& p = processes_[static_cast<std::size_t>(c.process)];
    settle(c, t);
    c.factor = factor;
    c.send_factor = send_factor;
    if (!p.member[kNode]) continue;
    c.rate = inter_rate(c, s / p.inter_count);
    const double before = c.done_at;
    schedule(c, t);
    report(id, t);
    follow(id, before, rescan);
  }
  std::sort(rescan.begin(), rescan.end());
  rescan.erase(std::unique(rescan.begin(), rescan.end()), rescan.end());
  for (int process : rescan) reschedule(process, kNode);
  publish(group);
}

void StaircaseSharing::after_change(int process, GroupKind kind, double t, bool membership_changed) {
  const int group = group_of(processes_[static_cast<std::size_t>(process)], kind);
  if (membership_changed) {
    refresh_group(group, t);
  } else if (processes_[static_cast<std::size_t>(process)].member[kind]) {
    refresh_process(process, kind, t);
    publish(group);
  }
  if (kind == kNode) update_fabric(group, t);
}

// The receivers whose inter-node messages started at t (add()): each
// node group that gained members refreshed once, each other receiver once,
// then each group's fabric demands.
void StaircaseSharing::refresh_receivers(double t) {
  std::sort(stale_groups_.begin(), stale_groups_.end());
  stale_groups_.erase(std::unique(stale_groups_.begin(), stale_groups_.end()), stale_groups_.end());
  std::sort(stale_receivers_.begin(), stale_receivers_.end());
  stale_receivers_.erase(std::unique(stale_receivers_.begin(), stale_receivers_.end()), stale_receivers_.end());
  for (int group : stale_groups_) refresh_group(group, t);
  std::vector<int> groups = stale_groups_;
  for (int process : stale_receivers_) {
    const auto& p = processes_[static_cast<std::size_t>(process)];
    const int group = group_of(p, kNode);
    groups.push_back(group);
    if (!p.member[kNode] || std::binary_search(stale_groups_.begin(), stale_groups_.end(), group)) continue;
    refresh_process(process, kNode, t);
  }
  stale_groups_.clear();
  stale_receivers_.clear();
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
  for (int group : groups) {
    publish(group);
    update_fabric(group, t);
  }
}

// ---------------------------------------------------------------- events

void StaircaseSharing::add(TransferId id, int src, int dst, Level level, double bytes, double now,
                           std::vector<Completion>& done) {
  advance_events(now, done);
  now = std::max(now, clock_);
  clock_ = now;
  auto& p = processes_[static_cast<std::size_t>(dst)];
  if (level == Level::InterNode) {
    auto& g = groups_[static_cast<std::size_t>(group_of(p, kNode))];
    settle_process(dst, kNode, now);
    add_weights(p, g, -1);
    // Classes by source node exist for the fabric's and the sending side's
    // factors of each node pair; without either every message of the
    // process moves at the same rate, and one class holds them all (an
    // event then costs O(log m)).
    const int source_node = fabric_ || sending_ ? processes_[static_cast<std::size_t>(src)].node : -1;
    int c = p.inter.empty() ? -1 : p.inter.front();
    if (source_node >= 0) {
      const auto found = inter_class_.find(class_key(dst, source_node));
      c = found == inter_class_.end() ? -1 : found->second;
    }
    if (c < 0) {
      c = new_class(dst, source_node);
      if (source_node >= 0) inter_class_.emplace(class_key(dst, source_node), c);
      if (fabric_) classes_[static_cast<std::size_t>(c)].factor = fabric_->factor(source_node, p.node);
      if (sending_) classes_[static_cast<std::size_t>(c)].send_factor = sending_->factor(source_node, p.node);
      if (source_node >= 0) g.classes_from[static_cast<std::size_t>(source_node)].push_back(c);
      processes_[static_cast<std::size_t>(dst)].inter.push_back(c);
    }
    auto& q = processes_[static_cast<std::size_t>(dst)];
    classes_[static_cast<std::size_t>(c)].messages.add(id, bytes);
    if (observer_) members_[static_cast<std::size_t>(c)].push_back(id);
    ++q.inter_count;
    add_weights(q, g, +1);
    if (sending_) {
      if (sender_of_.size() <= id) sender_of_.resize(static_cast<std::size_t>(id) + 1, -1);
      sender_of_[id] = src;
      count_sent(src, +1);
    }
    // The new rates wait for the end of the instant (flush()): a receiver
    // whose k messages start together costs one refresh, not k, and a node
    // group that n receivers join at once one refresh, not n.
    if (update_membership(dst, kNode)) stale_groups_.push_back(group_of(q, kNode));
    stale_receivers_.push_back(dst);
    stale_since_ = now;
    if (options_.sequential_levels) {
      settle_process(dst, kSocket, now);
      if (update_membership(dst, kSocket)) refresh_group(q.socket_group, now);
    }
    return;
  }
  settle_process(dst, kSocket, now);
  int& slot = level == Level::IntraSocket ? p.on : p.off;
  if (slot < 0) slot = new_class(dst, -1);
  const int c = slot;
  classes_[static_cast<std::size_t>(c)].messages.add(id, bytes);
  if (observer_) members_[static_cast<std::size_t>(c)].push_back(id);
  after_change(dst, kSocket, now, update_membership(dst, kSocket));
  if (!processes_[static_cast<std::size_t>(dst)].member[kSocket]) report(c, now);  // held back (sequential levels)
}

double StaircaseSharing::next_event() const {
  if (stale()) return stale_since_;
  return schedule_.empty() ? kInfinity : schedule_.top().time;
}

void StaircaseSharing::advance(double now, std::vector<Completion>& done) {
  advance_events(now, done);
  flush();
}

// The completions up to `now`; sending-side changes of an earlier instant,
// or of this one when a completion is due, are applied first.
void StaircaseSharing::advance_events(double now, std::vector<Completion>& done) {
  if (now > stale_since_) flush();
  while (!schedule_.empty() && schedule_.top().time <= now) {
    if (stale()) {
      flush();  // the completion times may have moved: look again
      continue;
    }
    const double time = schedule_.top().time;
    const int group = schedule_.top().id;
    schedule_.pop();  // the event republishes the group
    clock_ = std::max(clock_, time);
    process_group_event(group, time, done);
  }
}

void StaircaseSharing::process_group_event(int group, double t, std::vector<Completion>& done) {
  auto& g = groups_[static_cast<std::size_t>(group)];
  const int process = g.completions.top().id;
  const GroupKind kind = g.kind;
  auto& p = processes_[static_cast<std::size_t>(process)];
  const int first = first_class(p, kind);
  settle_process(process, kind, t);
  if (kind == kNode) add_weights(p, g, -1);

  // The class that triggered the event completes its smallest message;
  // any message of the process within rounding of the end completes too.
  std::vector<TransferId> ids;
  auto pop = [&](int& id, bool force) {
    if (id < 0) return;
    auto& c = classes_[static_cast<std::size_t>(id)];
    const auto before = ids.size();
    c.messages.pop_completed(kByteTolerance, force, ids);
    if (observer_) {
      auto& list = members_[static_cast<std::size_t>(id)];
      for (auto k = before; k < ids.size(); ++k) list.erase(std::find(list.begin(), list.end(), ids[k]));
    }
    const int popped = static_cast<int>(ids.size() - before);
    if (kind == kNode) p.inter_count -= popped;
    if (sending_ && kind == kNode) {
      for (auto k = before; k < ids.size(); ++k) count_sent(sender_of_[ids[k]], -1);
    }
    if (c.messages.empty()) {
      free_class(id);
      id = -1;
    }
  };
  if (kind == kSocket) {
    pop(p.on, p.on == first);
    pop(p.off, p.off == first);
  } else {
    for (int& id : p.inter) pop(id, id == first);
    p.inter.erase(std::remove(p.inter.begin(), p.inter.end(), -1), p.inter.end());
    add_weights(p, g, +1);
  }
  for (TransferId id : ids) done.push_back(Completion{id, t});

  after_change(process, kind, t, update_membership(process, kind));
  if (kind == kNode && options_.sequential_levels && p.inter_count == 0) {
    // Its inter-node data is in: its intra-node data may flow now.
    settle_process(process, kSocket, t);
    if (update_membership(process, kSocket)) refresh_group(p.socket_group, t);
  }
}

}  // namespace contend
