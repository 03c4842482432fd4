#pragma once
// Which elementary conflict each inter-node flow is in, and its flow cut
// (Martinasso & Mehaut, RR-5910, Sec. 5.1-5.2, rules R1-R3), kept up to date
// as flows come and go. Plain data, no SimGrid: the model (flowcut.cpp) turns
// cuts into rates.
//
// At every node X the flows leaving X and those entering X are looked at:
// same-direction groups (outgo C<-X->, income C->X<-) form chains that take
// the table's odd or even sequence; the remaining flows pair up along the
// data as C->X-> conflicts; an unpaired flow is alone (include or
// start/end). The rules, their reading of the paper and the generalisation
// to k >= 3 flows per node are in models/flowcut/README.md.
//
// update() re-evaluates only what may have changed: the node pairs of the
// nodes where a flow came or went, the flows of the small groups there, the
// chains through them, and the chains they belonged to before.
//
// Crowded pairs: the flows from node X to node Y are all in the same state,
// which depends only on a = |out(X)| and b = |in(Y)|. When a != 2, b != 2
// and max(a, b) >= 3 they are in no chain and all take the crowded cut
// (max(a, b) - 1) x odd_conflicts[0]: the pair is *crowded*, and its cut
// is kept once for the pair, not per flow. A group's size changing then
// costs one evaluation per node pair, not one per flow (a node with
// thousands of flows has at most one pair per other node). Otherwise every
// group at X or Y that the flows belong to has at most two flows, so a
// non-crowded pair holds at most two flows, evaluated one by one.
#include <cstdint>
#include <vector>

#include "models/flowcut/cut_table.hpp"

namespace contend {

class ConflictGraph {
 public:
  using FlowId = std::uint32_t;
  using PairId = std::uint32_t;  // a (source node, destination node) pair
  enum class Conflict : std::uint8_t { None, SameDirection, Incoming, Outgoing, AloneInclude, AloneStartEnd };

  static constexpr FlowId kNone = 0xffffffffu;
  static constexpr PairId kNoPair = 0xffffffffu;

  explicit ConflictGraph(FlowCutTable table) : table_(std::move(table)) {}

  // A flow from src_node to dst_node (different nodes) starts moving data.
  // `order` breaks ties between chain ends: the smaller started first.
  void add(FlowId id, int src_node, int dst_node, std::uint64_t order);
  void remove(FlowId id);
  // Re-evaluates every flow and pair whose conflict may have changed since
  // the last call; returns, each once, the flows in no crowded pair that
  // were added since, left a crowded pair, or whose cut or conflict changed.
  // joined() and repriced() tell the rest. Valid until the next call.
  const std::vector<FlowId>& update();
  // Since the last update(): the flows that entered a crowded pair (added,
  // or their pair became crowded), and the crowded pairs whose cut changed
  // or which became crowded (their flows, joined or not, take the new cut).
  const std::vector<FlowId>& joined() const { return joined_; }
  const std::vector<PairId>& repriced() const { return repriced_; }

  bool contains(FlowId id) const { return id < flows_.size() && flows_[id].live; }
  // Asks for the flow's line ahead of its end (remove() reads it, and the
  // lists it is in): the model knows a crowded pair's next end early.
  void prefetch(FlowId id) const { __builtin_prefetch(&flows_[id]); }
  double cut(FlowId id) const { return crowded(id) ? pairs_[flows_[id].pair].cut : flows_[id].cut; }
  Conflict conflict(FlowId id) const { return crowded(id) ? Conflict::SameDirection : flows_[id].conflict; }
  // Whether the flow belongs to a crowded pair (it then has its pair's cut).
  bool crowded(FlowId id) const { return flows_[id].crowded; }
  PairId pair_of(FlowId id) const { return flows_[id].pair; }
  double pair_cut(PairId p) const { return pairs_[p].cut; }
  // The live flows of a pair, in no particular order.
  const std::vector<FlowId>& pair_flows(PairId p) const { return pairs_[p].flows; }
  std::size_t size() const { return live_; }
  // For attribution: the flows leaving and entering a node, and a flow's
  // neighbours in its C->X-> chain at its last evaluation (kNone if none).
  const std::vector<FlowId>& leaving(int n) const { return nodes_[static_cast<std::size_t>(n)].out; }
  const std::vector<FlowId>& entering(int n) const { return nodes_[static_cast<std::size_t>(n)].in; }
  FlowId chain_previous(FlowId id) const { return flows_[id].links[2]; }
  FlowId chain_next(FlowId id) const { return flows_[id].links[3]; }

 private:
  // One cache line each (64 bytes, the flags as bits): every start and end
  // reads its flow's and moves another's position.
  struct alignas(64) Flow {
    int src = 0, dst = 0;
    std::uint32_t pos_out = 0, pos_in = 0;  // index in the nodes' lists
    std::uint64_t order = 0;
    double cut = 0;
    PairId pair = 0;
    std::uint32_t pos_pair = 0;                      // index in its pair's list
    FlowId links[4] = {kNone, kNone, kNone, kNone};  // chain neighbours at the last evaluation
    std::uint32_t stamp = 0;                         // evaluated in update() number `stamp`
    Conflict conflict = Conflict::None;
    bool live : 1 = false;
    bool added : 1 = false;         // not evaluated yet
    bool crowded : 1 = false;       // in a crowded pair (its own cut, conflict and links are unused)
    bool reclassified : 1 = false;  // left a crowded pair: reported by the next evaluation
  };
  static_assert(sizeof(Flow) == 64);
  struct Pair {
    int src = 0, dst = 0;
    std::vector<FlowId> flows;
    bool crowded = false;
    double cut = 0;           // while crowded
    std::uint32_t stamp = 0;  // evaluated in update() number `stamp`
  };
  struct Node {
    std::vector<FlowId> out, in;
    std::vector<PairId> out_pairs, in_pairs;       // every pair ever seen from / to this node
    std::vector<PairId> pair_to;                   // by destination node: the pair from this node, or kNoPair
    std::uint32_t stamp = 0;                       // marked dirty for update() number `stamp`
    bool out_changed = false, in_changed = false;  // since the last update()
  };

  Node& node(int n);
  void mark_dirty(int n, bool out_list);
  PairId pair_index(int src_node, int dst_node);
  void evaluate_pair(PairId p);
  void join(FlowId id);
  void seed(FlowId id);
  bool grouped(FlowId id) const;
  double crowded_cut(FlowId id) const;
  FlowId pair_neighbour(FlowId id, bool via_destination) const;
  FlowId predecessor(FlowId id) const;
  FlowId successor(FlowId id) const;
  std::vector<FlowId> pair_chain(FlowId start, bool& cycle) const;
  std::vector<FlowId> mixed_chain(FlowId start, bool& cycle) const;
  void evaluate_pair_chain(FlowId start);
  void evaluate_mixed_chain(FlowId start);
  void evaluate_alone(FlowId id);
  void settle(FlowId id, Conflict conflict, double cut);

  FlowCutTable table_;
  std::vector<Flow> flows_;
  std::vector<Node> nodes_;
  std::vector<int> dirty_;
  std::vector<FlowId> seeds_;
  std::vector<FlowId> changed_;
  std::vector<Pair> pairs_;
  std::vector<FlowId> added_;  // since the last update()
  std::vector<FlowId> joined_;
  std::vector<PairId> repriced_;
  std::uint32_t round_ = 1;
  std::size_t live_ = 0;
};

}  // namespace contend
