#include "models/flowcut/conflict_graph.hpp"

#include <algorithm>
#include <cassert>
#include <tuple>

namespace contend {

ConflictGraph::Node& ConflictGraph::node(int n) {
  if (static_cast<std::size_t>(n) >= nodes_.size()) nodes_.resize(static_cast<std::size_t>(n) + 1);
  return nodes_[static_cast<std::size_t>(n)];
}

void ConflictGraph::mark_dirty(int n, bool out_list) {
  Node& x = node(n);
  (out_list ? x.out_changed : x.in_changed) = true;
  if (x.stamp == round_) return;
  x.stamp = round_;
  dirty_.push_back(n);
}

// A row per source node indexed by destination, not a hash map: every flow
// that starts looks its pair up.
ConflictGraph::PairId ConflictGraph::pair_index(int src_node, int dst_node) {
  node(dst_node);  // (before taking a reference into nodes_)
  auto& row = node(src_node).pair_to;
  const auto column = static_cast<std::size_t>(dst_node);
  if (row.size() <= column) row.resize(column + 1, kNoPair);
  if (row[column] != kNoPair) return row[column];
  const auto p = static_cast<PairId>(pairs_.size());
  row[column] = p;
  pairs_.push_back(Pair{});
  pairs_.back().src = src_node;
  pairs_.back().dst = dst_node;
  node(src_node).out_pairs.push_back(p);
  node(dst_node).in_pairs.push_back(p);
  return p;
}

void ConflictGraph::seed(FlowId id) {
  if (id != kNone) seeds_.push_back(id);
}

void ConflictGraph::add(FlowId id, int src_node, int dst_node, std::uint64_t order) {
  assert(src_node != dst_node);
  if (id >= flows_.size()) flows_.resize(static_cast<std::size_t>(id) + 1);
  Flow& f = flows_[id];
  assert(!f.live);
  f = Flow{};
  f.src = src_node;
  f.dst = dst_node;
  f.order = order;
  f.live = true;
  f.added = true;
  auto& out = node(src_node).out;
  f.pos_out = static_cast<std::uint32_t>(out.size());
  out.push_back(id);
  auto& in = node(dst_node).in;
  f.pos_in = static_cast<std::uint32_t>(in.size());
  in.push_back(id);
  f.pair = pair_index(src_node, dst_node);
  auto& members = pairs_[f.pair].flows;
  f.pos_pair = static_cast<std::uint32_t>(members.size());
  members.push_back(id);
  added_.push_back(id);
  ++live_;
  mark_dirty(src_node, true);
  mark_dirty(dst_node, false);
}

void ConflictGraph::remove(FlowId id) {
  Flow& f = flows_[id];
  assert(f.live);
  f.live = false;
  --live_;
  auto unlink = [this](std::vector<FlowId>& list, std::uint32_t pos, bool out_list) {
    const FlowId last = list.back();
    list[pos] = last;
    (out_list ? flows_[last].pos_out : flows_[last].pos_in) = pos;
    list.pop_back();
  };
  unlink(nodes_[static_cast<std::size_t>(f.src)].out, f.pos_out, true);
  unlink(nodes_[static_cast<std::size_t>(f.dst)].in, f.pos_in, false);
  auto& members = pairs_[f.pair].flows;
  flows_[members.back()].pos_pair = f.pos_pair;
  members[f.pos_pair] = members.back();
  members.pop_back();
  // The chains it belonged to change beyond its own nodes.
  for (FlowId link : f.links) seed(link);
  mark_dirty(f.src, true);
  mark_dirty(f.dst, false);
}

// ---------------------------------------------------------------- structure

bool ConflictGraph::grouped(FlowId id) const {
  const Flow& f = flows_[id];
  return nodes_[static_cast<std::size_t>(f.src)].out.size() >= 2 ||
         nodes_[static_cast<std::size_t>(f.dst)].in.size() >= 2;
}

// Groups of three or more flows in one direction at one node: the paper's
// two-flow cut scaled so that, with cut 1, k flows share the link evenly.
double ConflictGraph::crowded_cut(FlowId id) const {
  const Flow& f = flows_[id];
  const std::size_t k =
      std::max(nodes_[static_cast<std::size_t>(f.src)].out.size(), nodes_[static_cast<std::size_t>(f.dst)].in.size());
  return k >= 3 ? static_cast<double>(k - 1) * table_.odd_conflicts.front() : 0.0;
}

// The other flow of a same-direction group of exactly two: at the
// destination (both entering it) or at the source (both leaving it).
ConflictGraph::FlowId ConflictGraph::pair_neighbour(FlowId id, bool via_destination) const {
  const Flow& f = flows_[id];
  const auto& group =
      via_destination ? nodes_[static_cast<std::size_t>(f.dst)].in : nodes_[static_cast<std::size_t>(f.src)].out;
  if (group.size() != 2) return kNone;
  return group[0] == id ? group[1] : group[0];
}

// Mixed chains link free flows only: a flow in a same-direction conflict
// belongs to that dominant conflict (R3).
ConflictGraph::FlowId ConflictGraph::predecessor(FlowId id) const {
  const auto& in = nodes_[static_cast<std::size_t>(flows_[id].src)].in;
  return in.size() == 1 && !grouped(in[0]) ? in[0] : kNone;
}

ConflictGraph::FlowId ConflictGraph::successor(FlowId id) const {
  const auto& out = nodes_[static_cast<std::size_t>(flows_[id].dst)].out;
  return out.size() == 1 && !grouped(out[0]) ? out[0] : kNone;
}

// The flows linked to `start` through groups of exactly two, in chain order.
// Walking a chain alternates: arriving through the destination's group, a
// flow is left through its source's group, and the other way round.
std::vector<ConflictGraph::FlowId> ConflictGraph::pair_chain(FlowId start, bool& cycle) const {
  std::vector<FlowId> forward;
  cycle = false;
  FlowId cur = start;
  bool via_destination = true;
  while (true) {
    const FlowId next = pair_neighbour(cur, via_destination);
    if (next == kNone) break;
    if (next == start) {
      cycle = true;
      break;
    }
    forward.push_back(next);
    cur = next;
    via_destination = !via_destination;
  }
  std::vector<FlowId> chain;
  if (!cycle) {
    cur = start;
    via_destination = false;
    while (true) {
      const FlowId next = pair_neighbour(cur, via_destination);
      if (next == kNone) break;
      chain.push_back(next);
      cur = next;
      via_destination = !via_destination;
    }
    std::reverse(chain.begin(), chain.end());
  }
  chain.push_back(start);
  chain.insert(chain.end(), forward.begin(), forward.end());
  return chain;
}

// The free flows linked to `start` in the direction of the data, from the
// chain's origin (a cycle: from its earliest flow).
std::vector<ConflictGraph::FlowId> ConflictGraph::mixed_chain(FlowId start, bool& cycle) const {
  cycle = false;
  FlowId origin = start;
  while (true) {
    const FlowId prev = predecessor(origin);
    if (prev == kNone) break;
    if (prev == start) {
      cycle = true;
      break;
    }
    origin = prev;
  }
  std::vector<FlowId> chain{origin};
  for (FlowId next = successor(origin); next != kNone && next != origin; next = successor(next)) chain.push_back(next);
  if (cycle) {
    const auto earliest = std::min_element(chain.begin(), chain.end(),
                                           [this](FlowId a, FlowId b) { return flows_[a].order < flows_[b].order; });
    std::rotate(chain.begin(), earliest, chain.end());
  }
  return chain;
}

// ---------------------------------------------------------------- evaluation

void ConflictGraph::settle(FlowId id, Conflict conflict, double cut) {
  Flow& f = flows_[id];
  if (f.added || f.reclassified || f.conflict != conflict || f.cut != cut) changed_.push_back(id);
  f.added = f.reclassified = false;
  f.conflict = conflict;
  f.cut = cut;
  f.stamp = round_;
}

void ConflictGraph::evaluate_pair_chain(FlowId start) {
  bool cycle = false;
  std::vector<FlowId> chain = pair_chain(start, cycle);
  // Anchor: the end whose flow started first; a cycle from its earliest flow.
  if (cycle) {
    const auto earliest = std::min_element(chain.begin(), chain.end(),
                                           [this](FlowId a, FlowId b) { return flows_[a].order < flows_[b].order; });
    std::rotate(chain.begin(), earliest, chain.end());
  } else if (flows_[chain.back()].order < flows_[chain.front()].order) {
    std::reverse(chain.begin(), chain.end());
  }
  const std::size_t conflicts = cycle ? chain.size() : chain.size() - 1;
  const auto& sequence = conflicts % 2 == 1 ? table_.odd_conflicts : table_.even_conflicts;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const FlowId id = chain[i];
    settle(id, Conflict::SameDirection, std::max(sequence[i % sequence.size()], crowded_cut(id)));
    Flow& f = flows_[id];
    f.links[0] = i > 0 ? chain[i - 1] : (cycle ? chain.back() : kNone);
    f.links[1] = i + 1 < chain.size() ? chain[i + 1] : (cycle ? chain.front() : kNone);
    f.links[2] = f.links[3] = kNone;
  }
}

void ConflictGraph::evaluate_mixed_chain(FlowId start) {
  bool cycle = false;
  const std::vector<FlowId> chain = mixed_chain(start, cycle);
  const std::size_t paired = chain.size() - chain.size() % 2;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const FlowId id = chain[i];
    if (i >= paired) {
      evaluate_alone(id);
    } else if (i % 2 == 0) {
      settle(id, Conflict::Incoming, table_.incoming);  // enters X, where its partner leaves
    } else {
      settle(id, Conflict::Outgoing, table_.outgoing);
    }
    Flow& f = flows_[id];
    f.links[0] = f.links[1] = kNone;
    f.links[2] = i > 0 ? chain[i - 1] : (cycle ? chain.back() : kNone);
    f.links[3] = i + 1 < chain.size() ? chain[i + 1] : (cycle ? chain.front() : kNone);
  }
}

void ConflictGraph::evaluate_alone(FlowId id) {
  const Flow& f = flows_[id];
  const Node& src = nodes_[static_cast<std::size_t>(f.src)];
  const Node& dst = nodes_[static_cast<std::size_t>(f.dst)];
  const bool busy_src = src.out.size() + src.in.size() > 1;
  const bool busy_dst = dst.out.size() + dst.in.size() > 1;
  if (busy_src && busy_dst) {
    settle(id, Conflict::AloneInclude, table_.include);
  } else if (busy_src || busy_dst) {
    settle(id, Conflict::AloneStartEnd, table_.start_end);
  } else {
    settle(id, Conflict::None, 0.0);
  }
}

// A crowded pair takes its cut as a whole; the flows of any other pair (two
// at most) are seeded for evaluation one by one, with the chains they were in.
void ConflictGraph::evaluate_pair(PairId p) {
  Pair& pair = pairs_[p];
  if (pair.stamp == round_) return;
  pair.stamp = round_;
  const std::size_t a = nodes_[static_cast<std::size_t>(pair.src)].out.size();
  const std::size_t b = nodes_[static_cast<std::size_t>(pair.dst)].in.size();
  // No group of exactly two at either end (no pair chain: R2, R3), one of
  // three or more (no mixed chain): the crowded cut alone.
  if (!pair.flows.empty() && a != 2 && b != 2 && std::max(a, b) >= 3) {
    const double cut = static_cast<double>(std::max(a, b) - 1) * table_.odd_conflicts.front();
    if (!pair.crowded || pair.cut != cut) repriced_.push_back(p);
    pair.cut = cut;
    if (!pair.crowded) {
      pair.crowded = true;
      for (FlowId id : pair.flows) join(id);
    }
    return;
  }
  if (pair.crowded) {
    for (FlowId id : pair.flows) {
      flows_[id].crowded = false;
      flows_[id].reclassified = true;
    }
  }
  pair.crowded = false;
  for (FlowId id : pair.flows) {
    seeds_.push_back(id);
    for (FlowId link : flows_[id].links) seed(link);
  }
}

void ConflictGraph::join(FlowId id) {
  Flow& f = flows_[id];
  f.crowded = true;
  f.added = f.reclassified = false;
  f.stamp = round_;
  // The chain it leaves changes beyond its own nodes.
  for (FlowId& link : f.links) {
    seed(link);
    link = kNone;
  }
  joined_.push_back(id);
}

const std::vector<ConflictGraph::FlowId>& ConflictGraph::update() {
  changed_.clear();
  joined_.clear();
  repriced_.clear();
  for (int n : dirty_) {
    Node& x = nodes_[static_cast<std::size_t>(n)];
    for (const auto& [list, pairs, changed] :
         {std::tuple{&x.out, &x.out_pairs, x.out_changed}, std::tuple{&x.in, &x.in_pairs, x.in_changed}}) {
      // An unchanged group of two or more keeps its flows' conflicts (they
      // do not depend on the other direction); a lone flow's may change.
      if (!changed && list->size() >= 2) continue;
      for (PairId p : *pairs) evaluate_pair(p);
    }
    x.out_changed = x.in_changed = false;
  }
  // New flows of pairs that were crowded already (their pair's evaluation
  // joined those of newly crowded pairs).
  for (FlowId id : added_) {
    const Flow& f = flows_[id];
    if (f.live && !f.crowded && pairs_[f.pair].crowded) join(id);
  }
  added_.clear();
  for (std::size_t i = 0; i < seeds_.size(); ++i) {
    const FlowId id = seeds_[i];
    if (id >= flows_.size() || !flows_[id].live || flows_[id].stamp == round_ || flows_[id].crowded) continue;
    if (!grouped(id)) {
      evaluate_mixed_chain(id);
    } else {
      // Grouped and not crowded: a group of exactly two at one end.
      assert(pair_neighbour(id, true) != kNone || pair_neighbour(id, false) != kNone);
      evaluate_pair_chain(id);
    }
  }
  seeds_.clear();
  dirty_.clear();
  ++round_;
  return changed_;
}

}  // namespace contend
