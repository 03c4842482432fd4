#include "models/staircase/sending_side.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contend {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A sending node loaded within this of its capacity does not bind: in a
// symmetric exchange its load equals its capacity but for rounding of the
// sums, and the receiving side's rates must stay bit for bit.
constexpr double kTolerance = 1e-9;
// While sending nodes bind, nearly every event moves every pair's x a
// little, and applying a new x re-rates all the pair's classes: 56 % of
// the time at P = 2048 with exact x (81-89 s of CPU, 6.4-7.0 s with this
// tolerance; every rank's time within 5.3e-4 of the exact allocation's,
// eq. (11) of the stored testbed cases unchanged at 0.1 %).
constexpr double kApplyTolerance = 1e-3;
constexpr std::size_t kLanes = 4;

}  // namespace

SendingSide::SendingSide(int nodes, const FabricSharing* fabric)
    : fabric_(fabric), sending_(static_cast<std::size_t>(nodes)), receiving_(static_cast<std::size_t>(nodes)) {
  // Padded with infinity to whole blocks of lowest_leaf()'s lanes.
  levels_.assign((2 * static_cast<std::size_t>(nodes) + kLanes - 1) / kLanes * kLanes, kInfinity);
}

int SendingSide::pair_index(int src, int dst) {
  const auto [it, inserted] = pair_of_.try_emplace(key(src, dst), static_cast<int>(pairs_.size()));
  if (inserted) pairs_.push_back(Pair{src, dst});
  return it->second;
}

void SendingSide::set_demands(int dst, const std::vector<std::pair<int, double>>& demand_by_source) {
  auto& in = receiving_[static_cast<std::size_t>(dst)].in;
  for (int p : in) {
    auto& pair = pairs_[static_cast<std::size_t>(p)];
    pair.demand = 0;
    auto& out = sending_[static_cast<std::size_t>(pair.src)].out;
    out.erase(std::find(out.begin(), out.end(), p));
  }
  in.clear();
  for (const auto& [src, demand] : demand_by_source) {
    if (!(demand > 0)) continue;
    const int p = pair_index(src, dst);
    pairs_[static_cast<std::size_t>(p)].demand = demand;
    in.push_back(p);
    sending_[static_cast<std::size_t>(src)].out.push_back(p);
  }
}

void SendingSide::set_capacity(int src, double capacity) {
  auto& node = sending_[static_cast<std::size_t>(src)];
  if (node.capacity != capacity) capacities_changed_ = true;
  node.capacity = capacity;
}

double SendingSide::factor(int src, int dst) const {
  const auto found = pair_of_.find(key(src, dst));
  return found == pair_of_.end() ? 1.0 : pairs_[static_cast<std::size_t>(found->second)].x;
}

bool SendingSide::sender_bound(int src, int dst) const {
  const auto found = pair_of_.find(key(src, dst));
  return found != pair_of_.end() && pairs_[static_cast<std::size_t>(found->second)].by_sender;
}

bool SendingSide::all_senders_within_capacity() const {
  for (const auto& node : sending_) {
    if (node.out.empty() || !(node.capacity > 0)) continue;
    double load = 0;
    for (int p : node.out) load += pairs_[static_cast<std::size_t>(p)].weight;
    if (load > node.capacity * (1 + kTolerance)) return false;
  }
  return true;
}

void SendingSide::freeze(int p, double x, bool by_sender) {
  auto& pair = pairs_[static_cast<std::size_t>(p)];
  pair.frozen = true;
  pair.x = x;
  pair.by_sender = by_sender;
  for (Node* node : {&sending_[static_cast<std::size_t>(pair.src)], &receiving_[static_cast<std::size_t>(pair.dst)]}) {
    node->free_weight -= pair.weight;
    node->frozen_load += x * pair.weight;
  }
}

// The level at which a node saturates next (infinity: it cannot). A
// receiving node none of whose pairs is frozen takes what the staircase
// gives it, exactly x = 1.
double SendingSide::receiving_level(const Node& r) {
  if (r.saturated || !(r.free_weight > 0)) return kInfinity;
  return r.frozen_load == 0 ? 1.0 : std::max(0.0, r.receive_capacity - r.frozen_load) / r.free_weight;
}

double SendingSide::sending_level(const Node& s) {
  if (s.saturated || !(s.free_weight > 0) || !(s.capacity > 0)) return kInfinity;
  return std::max(0.0, s.capacity - s.frozen_load) / s.free_weight;
}

// The leaf with the lowest level, the first of equal ones (-1: no node can
// saturate): a round's choice, as a scan in leaf order would make it. The
// minimum and its first leaf are taken over every leaf, saturated ones at
// infinity, in lanes without a branch (a branch per node, taken at random,
// cost more than the comparisons): each lane keeps its first lowest leaf,
// and the lanes' ties go to the lower leaf.
int SendingSide::lowest_leaf() const {
  double lane[kLanes];
  int first[kLanes];
  for (std::size_t k = 0; k < kLanes; ++k) {
    lane[k] = kInfinity;
    first[k] = -1;
  }
  for (std::size_t i = 0; i < levels_.size(); i += kLanes) {
    for (std::size_t k = 0; k < kLanes; ++k) {
      const bool lower = levels_[i + k] < lane[k];
      lane[k] = lower ? levels_[i + k] : lane[k];
      first[k] = lower ? static_cast<int>(i + k) : first[k];
    }
  }
  int leaf = first[0];
  double lowest = lane[0];
  for (std::size_t k = 1; k < kLanes; ++k) {
    if (lane[k] < lowest || (lane[k] == lowest && first[k] < leaf)) {
      lowest = lane[k];
      leaf = first[k];
    }
  }
  return lowest < kInfinity ? leaf : -1;
}

// Progressive filling: every pair not frozen rises as x d_AB until a node
// is saturated, whose pairs then keep their x. Each round takes the node
// with the lowest level (ties: receiving nodes first, then the lower node
// number, so that a tie keeps the receiving side's value).
// The nodes' free weights and receive capacities are set by solve().
void SendingSide::fill() {
  const int nodes = static_cast<int>(receiving_.size());
  for (int leaf = 0; leaf < 2 * nodes; ++leaf) {
    levels_[static_cast<std::size_t>(leaf)] = leaf < nodes
                                                  ? receiving_level(receiving_[static_cast<std::size_t>(leaf)])
                                                  : sending_level(sending_[static_cast<std::size_t>(leaf - nodes)]);
  }
  auto freeze_pair = [&](int p, double x, bool by_sender) {
    freeze(p, x, by_sender);
    const auto& pair = pairs_[static_cast<std::size_t>(p)];
    levels_[static_cast<std::size_t>(pair.dst)] = receiving_level(receiving_[static_cast<std::size_t>(pair.dst)]);
    levels_[static_cast<std::size_t>(nodes + pair.src)] = sending_level(sending_[static_cast<std::size_t>(pair.src)]);
  };
  for (;;) {
    const int leaf = lowest_leaf();
    const double level = leaf < 0 ? kInfinity : levels_[static_cast<std::size_t>(leaf)];
    std::erase_if(bounded_, [&](int p) { return pairs_[static_cast<std::size_t>(p)].frozen; });
    if (!bounded_.empty() && (leaf < 0 || level > 1)) {
      for (int p : bounded_) freeze_pair(p, 1.0, false);
      continue;
    }
    if (leaf < 0) break;
    const bool by_sender = leaf >= nodes;
    auto& saturated =
        by_sender ? sending_[static_cast<std::size_t>(leaf - nodes)] : receiving_[static_cast<std::size_t>(leaf)];
    saturated.saturated = true;
    levels_[static_cast<std::size_t>(leaf)] = kInfinity;
    // Each pair's other node takes its frozen load (freeze() without the
    // saturated node's own sums, never read again before the next solve).
    for (int p : by_sender ? saturated.out : saturated.in) {
      auto& pair = pairs_[static_cast<std::size_t>(p)];
      if (pair.frozen) continue;
      pair.frozen = true;
      pair.x = level;
      pair.by_sender = by_sender;
      auto& other =
          by_sender ? receiving_[static_cast<std::size_t>(pair.dst)] : sending_[static_cast<std::size_t>(pair.src)];
      other.free_weight -= pair.weight;
      other.frozen_load += level * pair.weight;
      if (by_sender) {
        levels_[static_cast<std::size_t>(pair.dst)] = receiving_level(other);
      } else {
        levels_[static_cast<std::size_t>(nodes + pair.src)] = sending_level(other);
      }
    }
  }
}

// The pairs' weights d_AB = D_AB phi_AB; whether any moved since the last
// solve (or a sending node's capacity did).
bool SendingSide::update_weights() {
  bool moved = capacities_changed_;
  capacities_changed_ = false;
  for (auto& pair : pairs_) {
    const double weight = pair.demand * (fabric_ ? fabric_->factor(pair.src, pair.dst) : 1.0);
    moved = moved || weight != pair.weight;
    pair.weight = weight;
  }
  return moved;
}

// Every pair free at x = 1, and each node's sum of the weights of its pairs
// (in pair order, as the filling has always summed them).
void SendingSide::reset_filling() {
  for (auto* side : {&sending_, &receiving_}) {
    for (auto& node : *side) {
      node.free_weight = 0;
      node.frozen_load = 0;
      node.saturated = false;
    }
  }
  bounded_.clear();
  before_.resize(pairs_.size());
  for (std::size_t p = 0; p < pairs_.size(); ++p) {
    auto& pair = pairs_[p];
    before_[p] = pair.x;
    pair.x = 1;
    pair.by_sender = false;
    pair.frozen = !(pair.weight > 0);
    if (pair.frozen) continue;
    sending_[static_cast<std::size_t>(pair.src)].free_weight += pair.weight;
    receiving_[static_cast<std::size_t>(pair.dst)].free_weight += pair.weight;
    if (fabric_ && fabric_->factor(pair.src, pair.dst) < 1) bounded_.push_back(static_cast<int>(p));
  }
  // sum_A d_AB, the same sum in the same order as the free weight.
  for (auto& node : receiving_) node.receive_capacity = node.free_weight;
}

void SendingSide::solve(std::vector<std::pair<int, int>>& changed) {
  // The same weights and capacities give the same x (the filling does not
  // depend on the order of a node's pair lists, which set_demands()
  // reshuffles; all_senders_within_capacity()'s sums do, so its answer is
  // asked again): nothing to solve. 3.6 % of the solves at P = 2048.
  const bool moved = update_weights();
  const bool within = all_senders_within_capacity();
  if (!moved && within == last_within_) return;
  last_within_ = within;
  reset_filling();
  if (!within) fill();
  for (std::size_t p = 0; p < pairs_.size(); ++p) {
    // A new x is applied when it moves by more than kApplyTolerance, or to
    // or from exactly 1; otherwise the pair keeps its applied x.
    auto& pair = pairs_[p];
    const bool exact = pair.x == 1 || before_[p] == 1;
    if (pair.x == before_[p] || (!exact && std::abs(pair.x - before_[p]) <= kApplyTolerance * before_[p])) {
      pair.x = before_[p];
      continue;
    }
    changed.emplace_back(pair.src, pair.dst);
  }
}

}  // namespace contend
