// Model `staircase` on the engine: Thune, Reinemo, Skeie, Cai, "Detailed
// Modeling of Heterogeneous and Contention-Constrained Point-to-Point MPI
// Communication", IEEE TPDS 2023. A message waits its route's latency
// (FluidModel's latency phase, as in maxmin), then joins the staircase
// sharing of its receiving group (staircase_sharing.hpp) and, between nodes,
// of the fabric links it crosses (fabric_sharing.hpp). Equations, parameters
// and validation: models/staircase/README.md.
#include "models/staircase/staircase.hpp"

#include <simgrid/s4u.hpp>
#include <variant>

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
      : FluidModel(c), sharing_(c.platform, c.mapping, options, make_fabric(c, options)) {}

 protected:
  void on_data_start(TransferId id, double at) override {
    const Transfer& t = sink().transfer(id);
    sharing_.add(id, t.src, t.dst, t.level, static_cast<double>(t.bytes), at, done_);
  }

  double next_sharing_event() const override { return sharing_.next_event(); }

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
    return std::make_unique<FabricSharing>([simgrid](int a, int b) {
      // The links beyond the nodes' own: the route without the NIC links
      // (the staircase's node groups stand for them) and without each node's
      // cable to its first switch (the NIC's link, as fast as the NIC). On a
      // star nothing remains; on a fat tree or a Dragonfly+ the switch-to-
      // switch links do.
      std::vector<sg4::Link*> links;
      for (auto* link : simgrid->node_route(a, b)) {
        if (link != simgrid->nic_out(a) && link != simgrid->nic_in(b)) links.push_back(link);
      }
      std::vector<FabricSharing::LinkRef> refs;
      for (std::size_t i = 1; i + 1 < links.size(); ++i) {
        refs.push_back(FabricSharing::LinkRef{links[i], links[i]->get_bandwidth()});
      }
      return refs;
    });
  }

  static bool fabric_enabled(const YamlField& params) {
    const auto f = params.child("fabric");
    return !f.present() || f.as_bool();
  }

  StaircaseSharing sharing_;
  // Completions found while adding a message or advancing, reported at the
  // next advance_sharing().
  std::vector<StaircaseSharing::Completion> done_;
};

}  // namespace

StaircaseOptions parse_staircase_options(const YamlField& section) {
  StaircaseOptions o;
  if (!section.present()) return o;
  section.allow_only({"levels", "fabric"});
  if (auto levels = section.child("levels"); levels.present()) {
    const std::string value = levels.as_string();
    if (value == "sequential") {
      o.sequential_levels = true;
    } else if (value != "concurrent") {
      levels.fail("concurrent or sequential");
    }
  }
  if (auto fabric = section.child("fabric"); fabric.present()) fabric.as_bool();
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
