// Model `taulop`: the engine side of TransferModel (transfer_model.hpp).
#include "models/taulop/taulop.hpp"

#include <fmt/format.h>

#include <array>
#include <string>
#include <vector>

#include "models/taulop/parameters.hpp"
#include "models/taulop/transfer_model.hpp"
#include "sim/core/timeline_loads.hpp"
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
    if (c.loads != nullptr) {
      transfers_.observe_channels([this](taulop::TransferModel::ChannelInstance channel, int node, double at, int tau) {
        record_concurrency(channel, node, at, tau);
      });
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

  // For --step: the messages in a channel step, at m / L^c(m) of their
  // step alone times 1 / s^c(tau) (Nuriyev et al. Sec. 4): a step's rate
  // changes when a transfer joins or leaves its channel, and when the
  // message moves on to its next step (memory, network, memory).
  bool moving_transfers(std::vector<MovingTransfer>& out) const override {
    transfers_.for_each_moving([&](taulop::TransferModel::Id id, double work, double fraction) {
      const double bytes = static_cast<double>(context().sink.transfer(id).bytes);
      out.push_back({id, work > 0 ? bytes / work * fraction : 0});
    });
    return true;
  }

  double next_sharing_event() const override { return transfers_.next_event(); }
  // Transport buffering: refused. A message crosses its steps whole (memory,
  // network, memory: Nuriyev et al. Sec. 4), so no instant of the model marks
  // how many of its bytes have been delivered.
  std::string no_release_reason() const override {
    return "tau-Lop moves a message through whole transfer steps, so no instant marks how many of its bytes are "
           "delivered";
  }

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

  // Timeline: tau, the transfers on each channel instance (the c of the
  // attribution's taulop:memory@nodeN(c=n), taulop:nic@nodeN/out(c=n)).
  void record_concurrency(taulop::TransferModel::ChannelInstance channel, int node, double at, int tau) {
    using Instance = taulop::TransferModel::ChannelInstance;
    auto& tracks = channel_tracks_[static_cast<std::size_t>(channel)];
    const auto slot = static_cast<std::size_t>(node);
    if (tracks.size() <= slot) tracks.resize(slot + 1, kUntracked);
    if (tracks[slot] == kUntracked) {
      const std::string name = channel == Instance::kMemory   ? fmt::format("taulop:memory@node{}", node)
                               : channel == Instance::kNicOut ? fmt::format("taulop:nic@node{}/out", node)
                                                              : fmt::format("taulop:nic@node{}/in", node);
      tracks[slot] = context().loads->resource(name, "transfers");
    }
    context().loads->set(tracks[slot], at, tau);
  }

  taulop::Parameters parameters_;  // before transfers_, which keeps a reference
  taulop::TransferModel transfers_;
  std::vector<taulop::TransferModel::Completion> done_;
  static constexpr ResourceLoads::Id kUntracked = UINT32_MAX;
  std::array<std::vector<ResourceLoads::Id>, 3> channel_tracks_;  // by channel instance kind, then node
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
