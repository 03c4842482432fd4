#pragma once
// The sending side of the staircase (models/staircase/README.md, "The
// sending side", a departure from Thune et al.), shared work-conservingly
// between node pairs. Each node pair (A, B) has a load d_AB: the bandwidth
// its messages get from the receiving side (Thune eqs. (5)/(7), (9), times
// the fabric's phi). Each sending node A can send BW_MP(n_s) in all, n_s
// its processes sending inter-node data; each receiving node B receives at
// most sum_A d_AB, what the staircase gives it. Every message of the pair
// moves at x_AB times its receiving-side rate, x_AB from a weighted max-min
// allocation (progressive filling) over both kinds of node: capacity a
// sender leaves unused goes to the node's other pairs, capacity a receiver
// cannot use because its senders hold it back goes to its other senders.
// A pair the fabric holds back (phi < 1) keeps x_AB <= 1.
//
// When no sending node is overloaded every x_AB is exactly 1: the
// receiving side's rates, bit for bit (the paper's model). The solve costs
// O(pairs + nodes x rounds) and runs once per instant at most; a pair's new
// x is applied only when it moves by more than 0.1 % (or to or from 1).
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/staircase/fabric_sharing.hpp"

namespace contend {

class SendingSide {
 public:
  // `fabric` may be null: every phi is 1.
  SendingSide(int nodes, const FabricSharing* fabric);

  // The receiving side's demands D_AB of every pair into node `dst` (pairs
  // not listed have none), before the fabric's phi.
  void set_demands(int dst, const std::vector<std::pair<int, double>>& demand_by_source);
  // BW_MP(n_s) of sending node `src`.
  void set_capacity(int src, double capacity);
  // Solves x for every pair; appends to `changed` the pairs (src, dst)
  // whose x changed.
  void solve(std::vector<std::pair<int, int>>& changed);
  // x_AB of the pair (src, dst): 1 when no sender holds the pair back.
  double factor(int src, int dst) const;
  // Whether the sending node, not the receiving one, bounds the pair.
  bool sender_bound(int src, int dst) const;

 private:
  struct Pair {
    int src, dst;
    double demand = 0;  // D_AB, before phi
    double weight = 0;  // d_AB = D_AB phi_AB, at the last solve
    double x = 1;
    bool by_sender = false;
    bool frozen = false;
  };
  struct Node {
    double capacity = 0;          // sending: BW_MP(n_s)
    std::vector<int> out, in;     // pairs with a demand, by sending and by receiving node
    double free_weight = 0;       // sum of the weights of its pairs not frozen yet
    double frozen_load = 0;       // sum of x d of its frozen pairs
    double receive_capacity = 0;  // sum_A d_AB into it
    bool saturated = false;
  };
  static long long key(int src, int dst) { return (static_cast<long long>(src) << 32) | static_cast<unsigned>(dst); }
  int pair_index(int src, int dst);
  void freeze(int pair, double x, bool by_sender);
  bool all_senders_within_capacity() const;
  bool update_weights();
  void reset_filling();
  void fill();
  // The progressive filling's candidates are the nodes, receiving nodes
  // first, then sending nodes (the order in which ties are broken): leaf
  // n < nodes is receiving node n, leaf nodes + n sending node n. Each
  // keeps the level at which it would saturate (infinity: it cannot),
  // computed again only when one of its pairs freezes: a round compares
  // the nodes' levels, it does not compute them.
  static double receiving_level(const Node& r);
  static double sending_level(const Node& s);
  int lowest_leaf() const;

  const FabricSharing* fabric_;
  std::vector<Node> sending_, receiving_;  // by node
  std::vector<Pair> pairs_;
  std::unordered_map<long long, int> pair_of_;
  std::vector<double> levels_;  // by leaf (receiving_level, sending_level)
  std::vector<double> before_;  // by pair: x before the solve
  std::vector<int> bounded_;    // pairs the fabric holds back: x <= 1
  // The last solve's inputs: whether a capacity changed since, and whether
  // every sending node was within its capacity (then every x is 1).
  bool capacities_changed_ = false;
  bool last_within_ = true;
};

}  // namespace contend
