// Model `flowcut`: Martinasso & Mehaut, "Model of concurrent MPI
// communications over SMP clusters", INRIA RR-5910, 2006.
//
// Contention-free, a message costs the linear model of Sec. 3.2: L + m / Bw
// (Table 1: the platform's route latency and inter-node bandwidth). A flow
// first waits L, then moves its data; while it is in an elementary conflict
// with cut alpha (conflict_graph.hpp, Table 2) it moves at Bw / (1 + alpha).
// Conflicts are re-evaluated whenever a flow starts moving or ends, which is
// the asynchronous and heterogeneous algorithm of Sec. 5.3 run as a discrete
// event simulation: between two events every flow is in a synchronous and
// homogeneous conflict.
//
// Reading of Sec. 6.1 (README "flowcut"): the cut is a rate. Two equal flows
// starting together in C->X-> with cuts (0, 3): the incoming one ends after
// D = m / Bw; the outgoing one has then moved D / 4 and ends alone at
// 1.75 D. The text's "(1 + 1/2) T(NC)" would need alpha = 1; its "alpha = 3"
// and Table 4 (0.334 s = 2 x 0.0891 + 1.75 x 0.0891) need 1.75 D.
//
// Intra-node messages take their level's latency + m / BW(1), without
// conflicts (the paper models the network only).
#include "models/flowcut/flowcut.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "sim/engine/fluid_model.hpp"
#include "models/flowcut/conflict_graph.hpp"
#include "models/flowcut/cut_table.hpp"
#include "models/flowcut/event_queue.hpp"
#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace {

class FlowCutModel final : public FluidModel {
 public:
  FlowCutModel(const ModelContext& c, FlowCutTable table)
      : FluidModel(c),
        graph_(std::move(table)),
        network_bandwidth_(c.platform.level(Level::InterNode).bandwidth.single()) {}

 protected:
  void on_start(TransferId id, double now) override {
    now = std::max(now, clock_);  // SimGrid's clock may read a rounding error behind ours
    // Copies: the engine recycles its transfer slots once delivered.
    const Transfer& t = sink().transfer(id);
    const Placement& from = context().mapping[t.src];
    const Placement& to = context().mapping[t.dst];
    if (flows_.size() <= id) flows_.resize(static_cast<std::size_t>(id) + 1);
    Flow& f = flows_[id];
    f = Flow{};
    f.bytes = static_cast<double>(t.bytes);
    if (t.level != Level::InterNode) {
      // Linear model of the intra-node level, no conflicts.
      const LevelParams& level = context().platform.level(t.level);
      f.phase = Phase::IntraNode;
      events_.set(id, now + level.latency + f.bytes / level.bandwidth.single());
      return;
    }
    f.phase = Phase::Latency;
    f.src_node = from.node;
    f.dst_node = to.node;
    events_.set(id, now + route_latency(from.node, to.node));
  }

  double next_event() const override { return events_.empty() ? kNever : events_.top().time; }

  void advance(double now, std::vector<Completion>& completed) override {
    clock_ = now;
    while (!events_.empty() && events_.top().time <= now) {
      const EventQueue::Event e = events_.top();
      events_.pop();
      Flow& f = flows_[e.id];
      if (f.phase == Phase::Latency) {
        // The latency has passed: data starts moving, in whatever conflict.
        f.phase = Phase::Moving;
        f.remaining = f.bytes;
        f.since = e.time;
        graph_.add(e.id, f.src_node, f.dst_node, next_order_++);
        continue;
      }
      if (f.phase == Phase::Moving) graph_.remove(e.id);
      f.phase = Phase::Done;
      completed.push_back({e.id, e.time});
    }
    for (ConflictGraph::FlowId id : graph_.update()) retime(id, now);
  }

 private:
  enum class Phase : std::uint8_t { Done, IntraNode, Latency, Moving };
  struct Flow {
    Phase phase = Phase::Done;
    int src_node = 0, dst_node = 0;
    double bytes = 0;
    double remaining = 0;  // bytes still to move at `since`
    double rate = 0;       // B/s since `since`
    double since = 0;
  };

  // The flow's cut changed (or it just started moving): bring it to `now`
  // at its old rate, then plan its end at the new one.
  void retime(TransferId id, double now) {
    Flow& f = flows_[id];
    if (f.rate > 0) f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.since));
    f.since = now;
    f.rate = network_bandwidth_ / (1.0 + graph_.cut(id));
    events_.set(id, now + f.remaining / f.rate);
  }

  double route_latency(int from, int to) {
    const auto key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) |
                     static_cast<std::uint32_t>(to);
    auto it = latency_.find(key);
    if (it == latency_.end()) {
      double latency = 0;
      context().simgrid.node_route(from, to, &latency);
      it = latency_.emplace(key, latency).first;
    }
    return it->second;
  }

  ConflictGraph graph_;
  double network_bandwidth_;
  std::vector<Flow> flows_;  // by transfer id
  EventQueue events_;  // each flow's next event: end of its latency, or its last byte
  std::unordered_map<std::uint64_t, double> latency_;  // route latency by (source, destination) node
  std::uint64_t next_order_ = 0;
  double clock_ = 0;  // the time of the last advance()
};

}  // namespace

ModelInfo flowcut_model_info() {
  ModelInfo info;
  info.name = "flowcut";
  info.description = "Martinasso & Mehaut's flow cuts: elementary conflicts at each node slow flows by 1/(1+cut)";
  info.citation = "M. Martinasso, J.-F. Mehaut, Model of concurrent MPI communications over SMP clusters, "
                  "INRIA RR-5910, 2006";
  info.validate = [](const Platform&, const YamlField& params) { parse_flowcut_table(params); };
  info.create = [](const ModelContext& c) {
    return std::make_unique<FlowCutModel>(c, parse_flowcut_table(c.parameters));
  };
  return info;
}

}  // namespace contend
