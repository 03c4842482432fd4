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
  senders_of_node_.resize(static_cast<std::size_t>(platform.nodes.count));
  groups_.resize(static_cast<std::size_t>(node_group_base_ + platform.nodes.count));
  for (int g = 0; g < static_cast<int>(groups_.size()); ++g) {
    auto& group = groups_[static_cast<std::size_t>(g)];
    group.kind = g < node_group_base_ ? kSocket : kNode;
    group.node = g < node_group_base_ ? g / sockets : g - node_group_base_;
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
  k = Class{};
  k.process = process;
  k.source_node = source_node;
  k.settled_at = clock_;
  return c;
}

void StaircaseSharing::free_class(int c) {
  auto& k = classes_[static_cast<std::size_t>(c)];
  if (k.source_process >= 0) {
    auto& sent = processes_[static_cast<std::size_t>(k.source_process)].sent;
    sent.erase(std::find(sent.begin(), sent.end(), c));
  }
  if (k.source_node >= 0) {
    auto& g =
        groups_[static_cast<std::size_t>(node_group_base_ + processes_[static_cast<std::size_t>(k.process)].node)];
    auto& list = g.classes_from[k.source_node];
    list.erase(std::find(list.begin(), list.end(), c));
    if (list.empty()) g.classes_from.erase(k.source_node);
  }
  k = Class{};
  if (observer_) members_[static_cast<std::size_t>(c)].clear();
  free_classes_.push_back(c);
}

void StaircaseSharing::settle(Class& c, double t) {
  if (t > c.settled_at) {
    c.messages.serve(c.rate * (t - c.settled_at));
    c.settled_at = t;
  }
}

void StaircaseSharing::settle_process(int process, GroupKind kind, double t) {
  auto& p = processes_[static_cast<std::size_t>(process)];
  if (kind == kSocket) {
    if (p.on >= 0) settle(classes_[static_cast<std::size_t>(p.on)], t);
    if (p.off >= 0) settle(classes_[static_cast<std::size_t>(p.off)], t);
  } else {
    for (int c : p.inter) settle(classes_[static_cast<std::size_t>(c)], t);
  }
}

// ---------------------------------------------------------------- rates

double StaircaseSharing::share(const Group& g) const {
  const double n = static_cast<double>(g.members.size());
  return n > 0 ? platform_.level(Level::InterNode).bandwidth.aggregate(n) / n : 0;
}

// The rate of an inter-node class whose receiving process gets
// `per_message` per message: Thune eqs. (5)/(7) and (9), times the fabric's
// phi, and with the sender side at most the sender's share of its node,
// BW_MP(n_s)/n_s split over its m_s inter-node messages (computed as the
// receiving side's, so that a symmetric exchange gives the same bits; a tie
// keeps the receiving side's).
double StaircaseSharing::inter_rate(const Class& c, double per_message) const {
  const double rate = per_message * c.factor;
  if (c.source_process < 0) return rate;
  const auto& sender = processes_[static_cast<std::size_t>(c.source_process)];
  const double n = static_cast<double>(senders_of_node_[static_cast<std::size_t>(sender.node)].size());
  const double cap = platform_.level(Level::InterNode).bandwidth.aggregate(n) / n / sender.sending;
  return cap < rate ? cap : rate;
}

// The completion time of class `id` (settled to t) in its group's heap.
void StaircaseSharing::schedule(Group& g, int id, double t) {
  auto& c = classes_[static_cast<std::size_t>(id)];
  if (c.messages.empty()) {
    g.completions.erase(id);
    return;
  }
  const double gap = c.messages.smallest_gap();
  if (gap <= kByteTolerance) {
    g.completions.set(id, t);
  } else if (c.rate > 0) {
    g.completions.set(id, t + gap / c.rate);
  } else {
    g.completions.erase(id);
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
      schedule(g, p.on, t);
      report(p.on, t);
    }
    if (off) {
      off->rate = (1 - theta) * mix / off->messages.count();
      schedule(g, p.off, t);
      report(p.off, t);
    }
    return;
  }
  // Thune eqs. (5)/(7): each of the n receiving processes gets BW_MP(n)/n,
  // split evenly over its messages; the fabric may hold a node pair back,
  // the sending side a sender.
  const double per_message = share(g) / p.inter_count;
  for (int id : p.inter) {
    auto& c = classes_[static_cast<std::size_t>(id)];
    c.rate = inter_rate(c, per_message);
    schedule(g, id, t);
    report(id, t);
  }
}

// ---------------------------------------------------------------- the sending side

// `sender` sends `delta` more inter-node messages. Its node's share per
// sender changes when it starts or stops sending (n_s), listed in `nodes`;
// otherwise only its own messages' caps, listed in `senders`.
void StaircaseSharing::count_sent(int sender, int delta, std::vector<int>& nodes, std::vector<int>& senders) {
  stale_since_ = clock_;
  auto& s = processes_[static_cast<std::size_t>(sender)];
  const bool was_sending = s.sending > 0;
  s.sending += delta;
  if (was_sending == (s.sending > 0)) {
    senders.push_back(sender);
    return;
  }
  auto& list = senders_of_node_[static_cast<std::size_t>(s.node)];
  if (s.sending > 0) {
    list.push_back(sender);
  } else {
    list.erase(std::find(list.begin(), list.end(), sender));
  }
  nodes.push_back(s.node);
}

// New rates, at t, for every class sent by a stale sender or by a sender
// of a stale node; a class whose rate is unchanged (its receiving side
// bounds it) is left as it is.
void StaircaseSharing::refresh_senders(double t) {
  std::vector<int> all = stale_senders_;
  for (int node : stale_nodes_) {
    const auto& list = senders_of_node_[static_cast<std::size_t>(node)];
    all.insert(all.end(), list.begin(), list.end());
  }
  stale_senders_.clear();
  stale_nodes_.clear();
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::vector<int> touched;
  for (int sender : all) {
    for (int id : processes_[static_cast<std::size_t>(sender)].sent) {
      auto& c = classes_[static_cast<std::size_t>(id)];
      const auto& p = processes_[static_cast<std::size_t>(c.process)];
      if (!p.member[kNode]) continue;
      const int group = group_of(p, kNode);
      auto& g = groups_[static_cast<std::size_t>(group)];
      const double rate = inter_rate(c, share(g) / p.inter_count);
      if (rate == c.rate) continue;
      settle(c, t);
      c.rate = rate;
      schedule(g, id, t);
      report(id, t);
      touched.push_back(group);
    }
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (int group : touched) publish(group);
}

void StaircaseSharing::flush() {
  if (!stale_nodes_.empty() || !stale_senders_.empty()) refresh_senders(stale_since_);
}

void StaircaseSharing::refresh_process(int process, GroupKind kind, double t) {
  settle_process(process, kind, t);
  set_rates(process, kind, t);
}

// Every member's share changed (n or the fabric's caps): all rates anew.
void StaircaseSharing::refresh_group(int group, double t) {
  auto& g = groups_[static_cast<std::size_t>(group)];
  for (int m : g.members) settle_process(m, g.kind, t);
  if (g.kind == kNode && fabric_) {
    for (int m : g.members) {
      for (int c : processes_[static_cast<std::size_t>(m)].inter) {
        auto& k = classes_[static_cast<std::size_t>(c)];
        k.factor = fabric_->factor(k.source_node, g.node);
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
  auto suspend = [&](int id) {
    if (id < 0) return;
    classes_[static_cast<std::size_t>(id)].rate = 0;
    g.completions.erase(id);
    report(id, clock_);
  };
  if (kind == kSocket) {
    suspend(p.on);
    suspend(p.off);
  } else {
    for (int c : p.inter) suspend(c);
  }
  return true;
}

void StaircaseSharing::report_members(int group) const {
  if (!group_observer_) return;
  const auto& g = groups_[static_cast<std::size_t>(group)];
  const GroupName name{g.kind == kNode, g.node, g.kind == kNode ? -1 : group % platform_.nodes.sockets};
  group_observer_(group, name, clock_, static_cast<int>(g.members.size()));
}

// Node groups keep, per source node A, the sum over members of c_pA / m_p,
// so that the pair demands D_AB = share x that sum are known without a scan.
void StaircaseSharing::add_weights(const Process& p, Group& g, double sign) {
  if (!fabric_ || p.inter_count == 0) return;
  for (int id : p.inter) {
    const auto& c = classes_[static_cast<std::size_t>(id)];
    const double delta = sign * c.messages.count() / p.inter_count;
    auto it = std::find_if(g.weights.begin(), g.weights.end(), [&](const auto& w) { return w.first == c.source_node; });
    if (it == g.weights.end()) {
      g.weights.emplace_back(c.source_node, delta);
    } else if ((it->second += delta) < 1e-12) {
      *it = g.weights.back();
      g.weights.pop_back();
    }
  }
}

void StaircaseSharing::update_fabric(int group, double t) {
  if (!fabric_) return;
  const auto& g = groups_[static_cast<std::size_t>(group)];
  const double s = share(g);
  std::vector<std::pair<int, double>> demands;
  demands.reserve(g.weights.size());
  for (const auto& [source, weight] : g.weights) demands.emplace_back(source, s * weight);
  std::vector<std::pair<int, int>> changed;
  fabric_->set_demands(g.node, demands, changed);
  for (const auto& [src, dst] : changed) apply_factor(src, dst, t);
}

// The fabric's cap of the pair (src, dst) changed: its classes move at the new factor.
void StaircaseSharing::apply_factor(int src_node, int dst_node, double t) {
  const int group = node_group_base_ + dst_node;
  auto& g = groups_[static_cast<std::size_t>(group)];
  auto it = g.classes_from.find(src_node);
  if (it == g.classes_from.end()) return;
  const double factor = fabric_->factor(src_node, dst_node);
  const double s = share(g);
  for (int id : it->second) {
    auto& c = classes_[static_cast<std::size_t>(id)];
    const auto& p = processes_[static_cast<std::size_t>(c.process)];
    settle(c, t);
    c.factor = factor;
    if (!p.member[kNode]) continue;
    c.rate = inter_rate(c, s / p.inter_count);
    schedule(g, id, t);
    report(id, t);
  }
  publish(group);
}

void StaircaseSharing::report(int c, double t) {
  if (!observer_ || c < 0) return;
  const auto& k = classes_[static_cast<std::size_t>(c)];
  const auto& ids = members_[static_cast<std::size_t>(c)];
  if (ids.empty()) return;
  const auto& p = processes_[static_cast<std::size_t>(k.process)];
  RateCause cause;
  cause.node = p.node;
  cause.receiver = k.process;
  if (k.source_node >= 0 || (p.on != c && p.off != c)) {
    const auto& g = groups_[static_cast<std::size_t>(group_of(p, kNode))];
    cause.node_level = true;
    cause.members = static_cast<int>(g.members.size());
    cause.messages = p.inter_count;
    cause.aggregate = share(g) * cause.members;
    cause.factor = k.factor;
    cause.source_node = k.source_node;
    cause.waiting = !p.member[kNode];
    if (k.source_process >= 0) {
      const auto& sender = processes_[static_cast<std::size_t>(k.source_process)];
      cause.sender = k.source_process;
      cause.senders = static_cast<int>(senders_of_node_[static_cast<std::size_t>(sender.node)].size());
      cause.sent_messages = sender.sending;
      cause.sender_limited = p.member[kNode] && k.rate < share(g) / p.inter_count * k.factor;
      if (cause.source_node < 0) cause.source_node = sender.node;
    }
  } else {
    const auto& g = groups_[static_cast<std::size_t>(group_of(p, kSocket))];
    const double n = static_cast<double>(g.members.size());
    cause.socket = p.socket_group % platform_.nodes.sockets;
    cause.members = static_cast<int>(g.members.size());
    cause.messages = k.messages.count();
    cause.intra_socket = p.on == c;
    const double v_on = p.on >= 0 ? classes_[static_cast<std::size_t>(p.on)].messages.remaining_volume() : 0;
    const double v_off = p.off >= 0 ? classes_[static_cast<std::size_t>(p.off)].messages.remaining_volume() : 0;
    cause.theta = p.off < 0 ? 1 : p.on < 0 ? 0 : (v_on + v_off > 0 ? v_on / (v_on + v_off) : 0.5);
    if (n > 0) {
      cause.aggregate = cause.theta * platform_.level(Level::IntraSocket).bandwidth.aggregate(n) +
                        (1 - cause.theta) * platform_.level(Level::InterSocket).bandwidth.aggregate(n);
    }
    cause.waiting = !p.member[kSocket];
  }
  observer_(ids, t, k.rate, cause);
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
    // Classes by source node exist for the fabric's factor of each node
    // pair, by sending process for the sender side's cap; without either
    // every message of the process moves at the same rate, and one class
    // holds them all (an event then costs O(log m)).
    const int source_node = fabric_ ? processes_[static_cast<std::size_t>(src)].node : -1;
    const int source_process = options_.sender_nic ? src : -1;
    auto it = std::find_if(p.inter.begin(), p.inter.end(), [&](int c) {
      const auto& k = classes_[static_cast<std::size_t>(c)];
      return k.source_node == source_node && k.source_process == source_process;
    });
    int c = it == p.inter.end() ? -1 : *it;
    if (c < 0) {
      c = new_class(dst, source_node);
      if (fabric_) {
        classes_[static_cast<std::size_t>(c)].factor = fabric_->factor(source_node, p.node);
        g.classes_from[source_node].push_back(c);
      }
      if (source_process >= 0) {
        classes_[static_cast<std::size_t>(c)].source_process = source_process;
        processes_[static_cast<std::size_t>(src)].sent.push_back(c);
      }
      processes_[static_cast<std::size_t>(dst)].inter.push_back(c);
    }
    auto& q = processes_[static_cast<std::size_t>(dst)];
    classes_[static_cast<std::size_t>(c)].messages.add(id, bytes);
    if (observer_) members_[static_cast<std::size_t>(c)].push_back(id);
    ++q.inter_count;
    add_weights(q, g, +1);
    if (source_process >= 0) count_sent(source_process, +1, stale_nodes_, stale_senders_);
    after_change(dst, kNode, now, update_membership(dst, kNode));
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
  if (!stale_nodes_.empty() || !stale_senders_.empty()) return stale_since_;
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
    if (!stale_nodes_.empty() || !stale_senders_.empty()) {
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
  const int first = g.completions.top().id;
  const int process = classes_[static_cast<std::size_t>(first)].process;
  const GroupKind kind = g.kind;
  auto& p = processes_[static_cast<std::size_t>(process)];
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
    if (c.source_process >= 0 && popped > 0) count_sent(c.source_process, -popped, stale_nodes_, stale_senders_);
    if (c.messages.empty()) {
      g.completions.erase(id);
      free_class(id);
      id = -1;
    }
  };
  if (kind == kSocket) {
    pop(p.on, p.on == first);
    pop(p.off, p.off == first);
  } else {
    for (int& id : p.inter) pop(id, id == first);
    std::erase(p.inter, -1);
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
