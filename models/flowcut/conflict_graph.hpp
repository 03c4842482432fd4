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
// update() re-evaluates only what may have changed: the flows of the nodes
// where a flow came or went, the chains through them, and the chains they
// belonged to before. Its cost follows those flows, not all the flows.
#include <cstdint>
#include <vector>

#include "models/flowcut/cut_table.hpp"

namespace contend {

class ConflictGraph {
 public:
  using FlowId = std::uint32_t;
  enum class Conflict : std::uint8_t { None, SameDirection, Incoming, Outgoing, AloneInclude, AloneStartEnd };

  static constexpr FlowId kNone = 0xffffffffu;

  explicit ConflictGraph(FlowCutTable table) : table_(std::move(table)) {}

  // A flow from src_node to dst_node (different nodes) starts moving data.
  // `order` breaks ties between chain ends: the smaller started first.
  void add(FlowId id, int src_node, int dst_node, std::uint64_t order);
  void remove(FlowId id);
  // Re-evaluates every flow whose conflict may have changed since the last
  // call; returns, each once, the flows added since and those whose cut or
  // conflict changed. Valid until the next call.
  const std::vector<FlowId>& update();

  bool contains(FlowId id) const { return id < flows_.size() && flows_[id].live; }
  double cut(FlowId id) const { return flows_[id].cut; }
  Conflict conflict(FlowId id) const { return flows_[id].conflict; }
  std::size_t size() const { return live_; }
  // For attribution: the flows leaving and entering a node, and a flow's
  // neighbours in its C->X-> chain at its last evaluation (kNone if none).
  const std::vector<FlowId>& leaving(int n) const { return nodes_[static_cast<std::size_t>(n)].out; }
  const std::vector<FlowId>& entering(int n) const { return nodes_[static_cast<std::size_t>(n)].in; }
  FlowId chain_previous(FlowId id) const { return flows_[id].links[2]; }
  FlowId chain_next(FlowId id) const { return flows_[id].links[3]; }

 private:
  struct Flow {
    int src = 0, dst = 0;
    std::uint32_t pos_out = 0, pos_in = 0;  // index in the nodes' lists
    std::uint64_t order = 0;
    bool live = false;
    bool added = false;  // not evaluated yet
    double cut = 0;
    Conflict conflict = Conflict::None;
    FlowId links[4] = {kNone, kNone, kNone, kNone};  // chain neighbours at the last evaluation
    std::uint32_t stamp = 0;                         // evaluated in update() number `stamp`
  };
  struct Node {
    std::vector<FlowId> out, in;
    std::uint32_t stamp = 0;                       // marked dirty for update() number `stamp`
    bool out_changed = false, in_changed = false;  // since the last update()
  };

  Node& node(int n);
  void mark_dirty(int n, bool out_list);
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
  std::uint32_t round_ = 1;
  std::size_t live_ = 0;
};

}  // namespace contend
