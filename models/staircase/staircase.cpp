// Model `staircase` on the engine: Thune, Reinemo, Skeie, Cai, "Detailed
// Modeling of Heterogeneous and Contention-Constrained Point-to-Point MPI
// Communication", IEEE TPDS 2023. A message waits its route's latency
// (FluidModel's latency phase, as in maxmin), then joins the staircase
// sharing of its receiving group (staircase_sharing.hpp) and, between nodes,
// of the fabric links it crosses (fabric_sharing.hpp). Equations, parameters
// and validation: models/staircase/README.md.
#include "models/staircase/staircase.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <simgrid/s4u.hpp>
#include <string>
#include <variant>

#include "sim/core/timeline_loads.hpp"
#include "sim/core/units.hpp"
#include "sim/engine/attribution_recorder.hpp"
#include "sim/engine/fluid_model.hpp"
#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace {
namespace sg4 = simgrid::s4u;

// The latency phase is FluidModel's (the route's latency); a message joins
// the sharing when its data starts moving.
class StaircaseModel final : public FluidModel {
 public:
  StaircaseModel(const ModelContext& c, StaircaseOptions options)
      : FluidModel(c), sharing_(c.platform, c.mapping, options, make_fabric(c, options)) {
    if (c.recorder != nullptr) {
      sharing_.observe([this](const std::vector<TransferId>& ids, double at, double rate,
                              const StaircaseSharing::RateCause& cause) { record(ids, at, rate, cause); });
    }
    if (c.loads != nullptr) {
      sharing_.observe_groups([this](int group, const StaircaseSharing::GroupName& name, double at, int members) {
        record_members(group, name, at, members);
      });
    }
  }

  // Alone: a group of one process (Thune eq. (5): BW_MP(1); eq. (12) with
  // theta 1 or 0 within a node), at most the slowest fabric link of the
  // route when the fabric is on.
  double contention_free_time(const Transfer& t) const override {
    const auto& platform = context().platform;
    double rate = platform.level(t.level).bandwidth.aggregate(1);
    if (t.level == Level::InterNode && sharing_.fabric() != nullptr) {
      for (const auto& link :
           fabric_links(context().simgrid, context().mapping[t.src].node, context().mapping[t.dst].node)) {
        rate = std::min(rate, link.capacity);
      }
    }
    return latency(t) + static_cast<double>(t.bytes) / rate;
  }

 protected:
  // A start outside the network actor's instant (no latency) ends its own
  // instant: the sending side's rates are brought up to date at once.
  void on_start(TransferId id, double now) override {
    FluidModel::on_start(id, now);
    sharing_.flush();
  }

  void on_data_start(TransferId id, double at) override {
    const Transfer& t = sink().transfer(id);
    sharing_.add(id, t.src, t.dst, t.level, static_cast<double>(t.bytes), at, done_);
    follow_release(id, at);
  }

  double next_sharing_event() const override { return sharing_.next_event(); }

  // Transport buffering: a message's rate changes only at the sharing's
  // events, so FluidModel follows its delivered bytes through them
  // (follow_release) and plans its release at its current rate.
  bool releases_senders(Level /*level*/) const override { return true; }

  bool moving_transfers(std::vector<MovingTransfer>& out) const override {
    sharing_.for_each_flow([&out](TransferId id, double rate) { out.push_back({id, rate}); });
    return true;
  }

  void advance_sharing(double now, std::vector<Completion>& completed) override {
    sharing_.advance(now, done_);
    for (const auto& d : done_) completed.push_back(Completion{d.id, d.time});
    done_.clear();
  }

 private:
  static std::unique_ptr<FabricSharing> make_fabric(const ModelContext& c, const StaircaseOptions& options) {
    (void)options;
    // A star has no link beyond the NICs (a route is nic_out, uplink,
    // downlink, nic_in): every pair would keep phi = 1.
    if (c.platform.nodes.count < 2 || std::holds_alternative<StarNetwork>(c.platform.network) ||
        !fabric_enabled(c.parameters)) {
      return nullptr;
    }
    const SimgridPlatform* simgrid = &c.simgrid;
    return std::make_unique<FabricSharing>([simgrid](int a, int b) { return fabric_links(*simgrid, a, b); });
  }

  // The links beyond the nodes' own: the route without the NIC links (the
  // staircase's node groups stand for them) and without each node's cable to
  // its first switch (the NIC's link, as fast as the NIC). On a star nothing
  // remains; on a fat tree or a Dragonfly+ the switch-to-switch links do.
  static std::vector<FabricSharing::LinkRef> fabric_links(const SimgridPlatform& simgrid, int a, int b) {
    std::vector<sg4::Link*> links;
    for (auto* link : simgrid.node_route(a, b)) {
      if (link != simgrid.nic_out(a) && link != simgrid.nic_in(b)) links.push_back(link);
    }
    std::vector<FabricSharing::LinkRef> refs;
    for (std::size_t i = 1; i + 1 < links.size(); ++i) {
      refs.push_back(FabricSharing::LinkRef{links[i], links[i]->get_bandwidth()});
    }
    return refs;
  }

  // Attribution: the group that set the rate (Thune eqs. (5)-(9), (12)-(17)),
  // or the fabric link that held the node pair back.
  void record(const std::vector<TransferId>& ids, double at, double rate, const StaircaseSharing::RateCause& c) {
    std::string resource, detail;
    const std::string per_process = units::format_bandwidth(c.members > 0 ? c.aggregate / c.members : 0);
    if (c.waiting) {
      resource = "staircase:sequential";
      detail = fmt::format("rank {}'s intra-node data waits for its inter-node data (levels: sequential)", c.receiver);
    } else if (c.node_level && c.sender_limited) {
      resource = fmt::format("staircase:node{}/out(N={})", c.source_node, c.senders);
      detail = fmt::format(
          "BW_MP({}) of sending node {} shared max-min by its node pairs (sender side): x = {:.4g} of the staircase "
          "rate into node {}",
          c.senders, c.source_node, c.send_factor, c.node);
    } else if (c.node_level) {
      const auto bottleneck = c.factor < 1 && sharing_.fabric() != nullptr
                                  ? sharing_.fabric()->bottleneck(c.source_node, c.node)
                                  : FabricSharing::Bottleneck{};
      resource = fmt::format("staircase:node{}(N={})", c.node, c.members);
      detail =
          fmt::format("BW_MP({})/{} = {} per receiving process; rank {} splits it over its inter-node messages ({})",
                      c.members, c.members, per_process, c.receiver, c.messages);
      if (bottleneck.key != nullptr) {
        resource = SimgridPlatform::resource_name(static_cast<const sg4::Link*>(bottleneck.key));
        detail = fmt::format(
            "fabric link of {} shared max-min by the node pairs crossing it ({} each): phi = {:.4g} of the staircase "
            "rate from node {}; {}",
            units::format_bandwidth(bottleneck.capacity), units::format_bandwidth(bottleneck.share), c.factor,
            c.source_node, detail);
      }
    } else {
      resource = fmt::format("staircase:node{}/socket{}(N={})", c.node, c.socket, c.members);
      detail = fmt::format(
          "BW_mix({}, theta={:.4g})/{} = {} per receiving process; rank {} gives {} of it to its {} messages ({})",
          c.members, c.theta, c.members, per_process, c.receiver, c.intra_socket ? "theta" : "1 - theta",
          c.intra_socket ? "intra-socket" : "inter-socket", c.messages);
    }
    for (TransferId id : ids) recorder()->bound(sink().transfer(id), at, resource, rate, detail);
  }

  // Timeline: the processes N receiving on each group (Thune eqs. (5), (12):
  // the N of BW_MP(N)), under the group's attribution name without "(N=n)".
  void record_members(int group, const StaircaseSharing::GroupName& name, double at, int members) {
    const auto slot = static_cast<std::size_t>(group);
    if (group_tracks_.size() <= slot) group_tracks_.resize(slot + 1, kUntracked);
    if (group_tracks_[slot] == kUntracked) {
      group_tracks_[slot] =
          context().loads->resource(name.node_level ? fmt::format("staircase:node{}", name.node)
                                                    : fmt::format("staircase:node{}/socket{}", name.node, name.socket),
                                    "processes");
    }
    context().loads->set(group_tracks_[slot], at, members);
  }

  static bool fabric_enabled(const YamlField& params) {
    const auto f = params.child("fabric");
    return !f.present() || f.as_bool();
  }

  StaircaseSharing sharing_;
  static constexpr ResourceLoads::Id kUntracked = UINT32_MAX;
  std::vector<ResourceLoads::Id> group_tracks_;  // by group, with a timeline
  // Completions found while adding a message or advancing, reported at the
  // next advance_sharing().
  std::vector<StaircaseSharing::Completion> done_;
};

}  // namespace

StaircaseOptions parse_staircase_options(const YamlField& section) {
  StaircaseOptions o;
  if (!section.present()) return o;
  section.allow_only({"levels", "fabric", "sender_nic"});
  if (auto levels = section.child("levels"); levels.present()) {
    const std::string value = levels.as_string();
    if (value == "sequential") {
      o.sequential_levels = true;
    } else if (value != "concurrent") {
      levels.fail("concurrent or sequential");
    }
  }
  if (auto fabric = section.child("fabric"); fabric.present()) fabric.as_bool();
  if (auto sender = section.child("sender_nic"); sender.present()) o.sender_nic = sender.as_bool();
  return o;
}

ModelInfo staircase_model_info() {
  return parameterized_model_info<StaircaseModel>(
      "staircase",
      "staircase fair sharing of BW_MP(n) per group of processes (socket, node), mixed intra/inter-socket levels",
      "Thune, Reinemo, Skeie, Cai, Detailed Modeling of Heterogeneous and Contention-Constrained Point-to-Point MPI "
      "Communication, IEEE TPDS 2023",
      parse_staircase_options);
}

}  // namespace contend
