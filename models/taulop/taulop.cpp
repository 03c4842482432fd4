// Model `taulop`: the engine side of TransferModel (transfer_model.hpp).
#include "models/taulop/taulop.hpp"

#include <fmt/format.h>

#include <string>

#include "models/taulop/parameters.hpp"
#include "models/taulop/transfer_model.hpp"
#include "sim/core/units.hpp"
#include "sim/engine/attribution_recorder.hpp"
#include "sim/engine/fluid_model.hpp"

namespace contend {
namespace {

class TauLopModel final : public FluidModel {
 public:
  TauLopModel(const ModelContext& c, taulop::Parameters parameters)
      : FluidModel(c), parameters_(std::move(parameters)), transfers_(parameters_, c.platform.nodes.count) {
    if (c.recorder != nullptr) {
      transfers_.observe([this](taulop::TransferModel::Id id, double at,
                                const taulop::TransferModel::StepCause& cause) { record(id, at, cause); });
    }
  }

  // Alone every step moves at its solo speed (tau = 1): o + 2 L^0(m) within
  // a node, o^1 + L^0 + L^1 + L^0 between nodes (Nuriyev et al. Sec. 4).
  double contention_free_time(const Transfer& t) const override {
    const auto& sm = parameters_.channels[taulop::kSharedMemory];
    const auto& net = parameters_.channels[taulop::kNetwork];
    const double m = static_cast<double>(t.bytes);
    if (context().mapping[t.src].node == context().mapping[t.dst].node) return sm.o(m) + 2 * sm.L(m);
    return net.o(m) + 2 * sm.L(m) + net.L(m);
  }

 protected:
  // No latency phase: L is in the message's transfer steps.
  double latency(const Transfer& /*t*/) const override { return 0; }

  void on_data_start(TransferId id, double now) override {
    const Transfer& t = sink().transfer(id);
    const taulop::TransferModel::Endpoints e{t.src, t.dst, context().mapping[t.src].node,
                                             context().mapping[t.dst].node};
    transfers_.start(id, e, static_cast<double>(t.bytes), now);
  }

  double next_sharing_event() const override { return transfers_.next_event(); }

  void advance_sharing(double now, std::vector<Completion>& completed) override {
    done_.clear();
    transfers_.advance(now, done_);
    for (const auto& d : done_) completed.push_back({d.id, d.time});
  }

 private:
  // Attribution: the step the message is in and its channel's concurrency.
  void record(taulop::TransferModel::Id id, double at, const taulop::TransferModel::StepCause& c) {
    using Kind = taulop::TransferModel::StepCause::Kind;
    const Transfer& t = sink().transfer(id);
    const bool same_node = context().mapping[t.src].node == context().mapping[t.dst].node;
    const double rate = c.work > 0 ? static_cast<double>(t.bytes) / c.work * c.fraction : 0;
    const std::string alone = units::format_duration(c.work);
    switch (c.kind) {
      case Kind::Delay:
        recorder()->bound(t, at, "taulop:o", 0,
                          fmt::format("o^{}(m) = {}: the protocol overhead, on no channel", same_node ? 0 : 1, alone));
        break;
      case Kind::Queued:
        recorder()->bound(t, at, "taulop:order", 0,
                          fmt::format("step {} waits for the previous message from rank {} to rank {} (MPI's order)",
                                      c.step, t.src, t.dst));
        break;
      case Kind::Memory:
        recorder()->bound(t, at, fmt::format("taulop:memory@node{}(c={})", c.node, c.tau), rate,
                          fmt::format("L^0(m) = {} alone; concurrency {} on node {}'s memory channel: s^0({}) = {:.4g}",
                                      alone, c.tau, c.node, c.tau, 1 / c.fraction));
        break;
      case Kind::Network:
        recorder()->bound(t, at, fmt::format("taulop:nic@node{}/{}(c={})", c.node, c.out ? "out" : "in", c.tau), rate,
                          fmt::format("L^1(m) = {} alone; concurrency {} through node {}'s {} NIC: s^1({}) = {:.4g}",
                                      alone, c.tau, c.node, c.out ? "sending" : "receiving", c.tau, 1 / c.fraction));
        break;
    }
  }

  taulop::Parameters parameters_;  // before transfers_, which keeps a reference
  taulop::TransferModel transfers_;
  std::vector<taulop::TransferModel::Completion> done_;
};

}  // namespace

ModelInfo taulop_model_info() {
  return parameterized_model_info<TauLopModel>(
      "taulop", "tau-Lop: messages as transfers over shared-memory and network channels, slowed by concurrency",
      "J.-A. Rico-Gallego et al., tau-Lop (Parallel Comput. 2015, FGCS 2016); E. Nuriyev, J.-A. Rico-Gallego, "
      "A. Lastovetsky, JPDC 2022, Sec. 4",
      taulop::parse_parameters);
}

}  // namespace contend
