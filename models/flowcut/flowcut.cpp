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
// Reading of Sec. 6.1 (models/flowcut/README.md): the cut is a rate. Two equal flows
// starting together in C->X-> with cuts (0, 3): the incoming one ends after
// D = m / Bw; the outgoing one has then moved D / 4 and ends alone at
// 1.75 D. The text's "(1 + 1/2) T(NC)" would need alpha = 1; its "alpha = 3"
// and Table 4 (0.334 s = 2 x 0.0891 + 1.75 x 0.0891) need 1.75 D.
//
// Intra-node messages take their level's latency + m / BW(1), without
// conflicts (the paper models the network only).
#include "models/flowcut/flowcut.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cassert>
#include <limits>
#include <string>
#include <vector>

#include "models/flowcut/conflict_graph.hpp"
#include "models/flowcut/cut_table.hpp"
#include "models/flowcut/shared_progress.hpp"
#include "sim/core/timeline_loads.hpp"
#include "sim/core/units.hpp"
#include "sim/engine/attribution_recorder.hpp"
#include "sim/engine/fluid_model.hpp"

namespace contend {
namespace {

// FluidModel's timers hold each flow's next event: the end of its latency,
// then its last byte at its current rate (moved whenever its cut changes).
// The flows of a crowded node pair (conflict_graph.hpp) share one rate and
// one clock of progress (shared_progress.hpp): only the first of them to
// end has a live delivery timer, the others' are parked at infinity, so a
// change of the pair's cut moves one timer, not one per flow.
// The conflict graph is re-evaluated once per instant, in advance_sharing(),
// after every event of that instant.
class FlowCutModel final : public FluidModel {
 public:
  FlowCutModel(const ModelContext& c, FlowCutTable table)
      : FluidModel(c),
        graph_(std::move(table)),
        network_bandwidth_(c.platform.level(Level::InterNode).bandwidth.single()) {}

  // The inter-node flows in the conflict graph; intra-node messages take a
  // fixed time (no sharing) and are not listed.
  bool moving_transfers(std::vector<MovingTransfer>& out) const override {
    for (TransferId id = 0; id < flows_.size(); ++id) {
      if (graph_.contains(id)) out.push_back({id, rate_of(id)});
    }
    return true;
  }

 protected:
  // Not FluidModel's default start: flowcut clamps the start to its own
  // clock, times an intra-node message with one timer and sends a zero
  // latency through a timer too.
  void on_start(TransferId id, double now) override {
    now = std::max(now, clock());  // SimGrid's clock may read a rounding error behind ours
    const Transfer& t = sink().transfer(id);
    const double bytes = static_cast<double>(t.bytes);
    if (t.level != Level::InterNode) {
      // Linear model of the intra-node level, no conflicts: known at once.
      const double bandwidth = context().platform.level(t.level).bandwidth.single();
      deliver_at(id, now + latency(t) + bytes / bandwidth);
      if (t.release_remaining > 0) {
        // Transport buffering: byte m - B arrives at the same constant rate.
        release_at(id, now + latency(t) + (bytes - static_cast<double>(t.release_remaining)) / bandwidth);
      }
      if (recorder() != nullptr) {
        record_latency(t, now, latency(t));
        recorder()->bound(t, now + latency(t), fmt::format("bandwidth:{}", level_name(t.level)), bandwidth,
                          fmt::format("the {} bandwidth, no conflicts within a node", level_name(t.level)));
      }
      return;
    }
    // Copies: the engine recycles its transfer slots once delivered.
    if (flows_.size() <= id) flows_.resize(static_cast<std::size_t>(id) + 1);
    Flow& f = flows_[id];
    f = Flow{};
    f.bytes = bytes;
    f.src_node = context().mapping[t.src].node;
    f.dst_node = context().mapping[t.dst].node;
    // Through a timer even when the latency is 0: flows starting at one
    // instant join the conflict graph in id order.
    const double wait = latency(t);  // (a look-up of the route's latency: once)
    wait_latency(id, now + wait);
    record_latency(t, now, wait);
  }

  // Transport buffering: within a node in closed form (on_start); between
  // nodes a flow's rate changes only when its cut does, so FluidModel follows
  // its delivered bytes through the events (follow_release).
  bool releases_senders(Level /*level*/) const override { return true; }

  // Sec. 3.2: L + m / Bw, each level's own.
  double contention_free_time(const Transfer& t) const override {
    return latency(t) + static_cast<double>(t.bytes) / context().platform.level(t.level).bandwidth.single();
  }

  void on_data_start(TransferId id, double at) override {
    // The latency has passed: data starts moving, in whatever conflict.
    Flow& f = flows_[id];
    f.remaining = f.bytes;
    f.since = at;
    graph_.add(id, f.src_node, f.dst_node, next_order_++);
    follow_release(id, at);
    if (context().loads != nullptr) record_loads(f, at);
  }

  void on_delivered(TransferId id, double time) override {
    if (!graph_.contains(id)) return;
    // The graph's `crowded` equals the flow's `shared` between two
    // advance_sharing() calls, and costs no look-up in flows_.
    if (graph_.crowded(id)) {
      // Only the pair's first flow has a live timer: the next one takes over.
      SharedProgress& share = shares_[graph_.pair_of(id)];
      assert(share.first() == id);
      share.pop_first();  // (its Flow, `shared` included, is reset when its id starts again)
      if (!share.empty()) {
        deliver_at(share.first(), share.first_end());
        // Its state is cold by the time it ends: fetch it while the
        // pair's other events and the other pairs' come first.
        graph_.prefetch(share.first());
      }
    }
    graph_.remove(id);
    if (context().loads != nullptr) record_loads(flows_[id], time);
  }

  void advance_sharing(double now, std::vector<Completion>& /*completed*/) override {
    const std::vector<ConflictGraph::FlowId>& changed = graph_.update();
    // New rates first: the flows joining a pair join at its new rate.
    for (ConflictGraph::PairId p : graph_.repriced()) reprice(p, now);
    for (ConflictGraph::FlowId id : graph_.joined()) join_share(id, now);
    for (ConflictGraph::FlowId id : changed) {
      if (flows_[id].shared) leave_share(id, now);
      retime(id, now);
    }
  }

 private:
  struct Flow {
    int src_node = 0, dst_node = 0;
    double bytes = 0;
    double remaining = 0;  // bytes still to move at `since`
    double rate = 0;       // B/s since `since`
    double since = 0;
    bool shared = false;  // in its crowded pair's SharedProgress (then `remaining`, `rate` and `since` are unused)
  };

  double rate_of(TransferId id) const {
    return flows_[id].shared ? shares_[graph_.pair_of(id)].rate() : flows_[id].rate;
  }

  // A parked timer never fires; deliver_at() moves it back when the flow
  // becomes its pair's first.
  void park(TransferId id) { deliver_at(id, kNever); }

  // The crowded pair's cut changed (or it just became crowded): its clock
  // takes the new pace from `now`, its first flow's end moves.
  void reprice(ConflictGraph::PairId p, double now) {
    if (shares_.size() <= p) shares_.resize(static_cast<std::size_t>(p) + 1);
    SharedProgress& share = shares_[p];
    share.set_rate(now, network_bandwidth_ / (1.0 + graph_.pair_cut(p)));
    if (share.empty()) return;
    deliver_at(share.first(), share.first_end());
    if (recorder() == nullptr) return;
    for (ConflictGraph::FlowId id : graph_.pair_flows(p)) {
      if (flows_[id].shared) record(id, now);
    }
  }

  // The flow enters its crowded pair at `now`: new (all its bytes to move),
  // or moving alone until now at its own rate.
  void join_share(TransferId id, double now) {
    Flow& f = flows_[id];
    const bool has_timer = f.rate > 0;
    if (has_timer) f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.since));
    SharedProgress& share = shares_[graph_.pair_of(id)];
    const TransferId previous_first = share.empty() ? kNoFlow : share.first();
    share.join(id, f.remaining, now);
    f.shared = true;
    if (share.first() == id) {
      if (previous_first != kNoFlow) park(previous_first);
      deliver_at(id, share.first_end());
    } else if (has_timer) {
      park(id);
    }
    if (recorder() != nullptr) record(id, now);
  }

  // The flow's pair is no longer crowded: it moves on its own from `now`
  // (retime() gives it its rate).
  void leave_share(TransferId id, double now) {
    Flow& f = flows_[id];
    SharedProgress& share = shares_[graph_.pair_of(id)];
    const bool was_first = share.first() == id;
    f.remaining = share.leave(id, now);
    f.since = now;
    f.rate = 0;
    f.shared = false;
    if (was_first && !share.empty()) deliver_at(share.first(), share.first_end());
  }

  // The flow's cut changed (or it just started moving): bring it to `now`
  // at its old rate, then plan its end at the new one.
  void retime(TransferId id, double now) {
    Flow& f = flows_[id];
    if (f.rate > 0) f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.since));
    f.since = now;
    f.rate = network_bandwidth_ / (1.0 + graph_.cut(id));
    deliver_at(id, now + f.remaining / f.rate);
    if (recorder() != nullptr) record(id, now);
  }

  // Timeline: the flows leaving the flow's source node (its outgo) and
  // entering its destination node (its income), Sec. 5.1's groups.
  void record_loads(const Flow& f, double at) {
    auto track = [this](std::vector<ResourceLoads::Id>& tracks, const char* side, int node) {
      const auto slot = static_cast<std::size_t>(node);
      if (tracks.size() <= slot) tracks.resize(slot + 1, kUntracked);
      if (tracks[slot] == kUntracked) {
        tracks[slot] = context().loads->resource(fmt::format("flowcut:{}@node{}", side, node), "flows");
      }
      return tracks[slot];
    };
    context().loads->set(track(outgo_tracks_, "outgo", f.src_node), at,
                         static_cast<double>(graph_.leaving(f.src_node).size()));
    context().loads->set(track(income_tracks_, "income", f.dst_node), at,
                         static_cast<double>(graph_.entering(f.dst_node).size()));
  }

  // Attribution: the elementary conflict that set the flow's cut (Table 2).
  void record(TransferId id, double now) {
    const Flow& f = flows_[id];
    const double cut = graph_.cut(id);
    const double rate = rate_of(id);
    std::string resource, kind;
    std::vector<ConflictGraph::FlowId> with;
    switch (graph_.conflict(id)) {
      case ConflictGraph::Conflict::Incoming:
        resource = fmt::format("flowcut:outgo-income@node{}", f.dst_node);
        kind = fmt::format("incoming side of C->X-> at node {}", f.dst_node);
        with.push_back(graph_.chain_next(id));
        break;
      case ConflictGraph::Conflict::Outgoing:
        resource = fmt::format("flowcut:outgo-income@node{}", f.src_node);
        kind = fmt::format("outgoing side of C->X-> at node {}", f.src_node);
        with.push_back(graph_.chain_previous(id));
        break;
      case ConflictGraph::Conflict::SameDirection: {
        const auto& out = graph_.leaving(f.src_node);
        const auto& in = graph_.entering(f.dst_node);
        std::vector<std::string> where;
        if (out.size() >= 2) {
          where.push_back(fmt::format("outgo@node{}", f.src_node));
          with.insert(with.end(), out.begin(), out.end());
        }
        if (in.size() >= 2) {
          where.push_back(fmt::format("income@node{}", f.dst_node));
          with.insert(with.end(), in.begin(), in.end());
        }
        resource = fmt::format("flowcut:{}", fmt::join(where, "+"));
        kind = "same-direction conflict (C<-X->, C->X<-)";
        break;
      }
      case ConflictGraph::Conflict::AloneInclude:
        resource = "flowcut:include";
        kind = "alone, other flows at both its nodes (include)";
        break;
      case ConflictGraph::Conflict::AloneStartEnd:
        resource = "flowcut:start-end";
        kind = "alone, other flows at one of its nodes (start/end)";
        break;
      case ConflictGraph::Conflict::None:
        kind = "no conflict";
        break;
    }
    if (cut == 0) resource = "bandwidth:inter_node";  // in a conflict or not, nothing slows it
    // A crowded group at a node may hold thousands of flows: name a few.
    constexpr std::size_t kNamed = 4;
    std::vector<std::string> others;
    std::size_t unnamed = 0;
    for (ConflictGraph::FlowId other : with) {
      if (other == ConflictGraph::kNone || other == id || !graph_.contains(other)) continue;
      if (others.size() == kNamed) {
        ++unnamed;
        continue;
      }
      const Transfer& o = sink().transfer(other);
      others.push_back(fmt::format("{}->{}", o.src, o.dst));
    }
    if (unnamed > 0) others.push_back(fmt::format("{} more", unnamed));
    const std::string partners = others.empty() ? "" : fmt::format(" with {}", fmt::join(others, ", "));
    recorder()->bound(sink().transfer(id), now, resource, rate,
                      fmt::format("{}{}: cut {:.4g}, Bw/(1+cut) = {}/{:.4g} = {}", kind, partners, cut,
                                  units::format_bandwidth(network_bandwidth_), 1 + cut, units::format_bandwidth(rate)));
  }

  ConflictGraph graph_;
  double network_bandwidth_;
  std::vector<Flow> flows_;             // inter-node flows, by transfer id
  std::vector<SharedProgress> shares_;  // by conflict-graph pair, while crowded
  static constexpr TransferId kNoFlow = std::numeric_limits<TransferId>::max();
  std::uint64_t next_order_ = 0;
  static constexpr ResourceLoads::Id kUntracked = UINT32_MAX;
  std::vector<ResourceLoads::Id> outgo_tracks_, income_tracks_;  // by node, with a timeline
};

}  // namespace

ModelInfo flowcut_model_info() {
  return parameterized_model_info<FlowCutModel>(
      "flowcut", "Martinasso & Mehaut's flow cuts: elementary conflicts at each node slow flows by 1/(1+cut)",
      "M. Martinasso, J.-F. Mehaut, Model of concurrent MPI communications over SMP clusters, INRIA RR-5910, 2006",
      parse_flowcut_table);
}

}  // namespace contend
