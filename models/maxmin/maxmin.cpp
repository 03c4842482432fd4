// Model `maxmin`: every message is a SimGrid communication between the
// endpoints of its source and destination sockets, so SimGrid's LMM solver
// shares the links of the route (sim/engine/simgrid_platform.hpp) max-min
// fairly among the flows crossing them, level links with their tabulated
// BW_MP(n) capacity: what SimGrid itself would say about the same platform.
// Casanova et al., JPDC 2014 (SimGrid, CM02 network model). Details and
// validation: models/maxmin/README.md.
#include "models/maxmin/maxmin.hpp"

#include <simgrid/s4u.hpp>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace {
namespace sg4 = simgrid::s4u;

class MaxMinModel final : public CommunicationModel {
 public:
  explicit MaxMinModel(const ModelContext& c) : context_(c) {}

  // SimGrid completes the communications; they are delivered when awaited.
  bool delivers_by_itself() const override { return false; }

  void start(TransferId id) override {
    // Copies: sendto_async lets other actors run, which may grow the tables.
    const Transfer t = context_.sink.transfer(id);
    const Placement& from = context_.mapping[t.src];
    const Placement& to = context_.mapping[t.dst];
    auto* src = context_.simgrid.endpoint(from.node, from.socket);
    auto* dst = context_.simgrid.endpoint(to.node, to.socket);
    const sg4::CommPtr comm = sg4::Comm::sendto_async(src, dst, t.bytes);
    if (comms_.size() <= id) comms_.resize(id + 1);
    comms_[id] = comm;
    // Filed under the actor that started it (sender or receiver), which
    // must outlive it.
    auto& mine = started_by_[sg4::this_actor::get_pid()];
    mine.emplace_back(id, comm);
    if (mine.size() >= 64 && mine.size() % 64 == 0) forget_delivered(mine);
  }

  // The actor that started a SimGrid communication must outlive it; drain()
  // runs in the finishing rank's own actor.
  void drain(int /*rank*/) override {
    auto it = started_by_.find(sg4::this_actor::get_pid());
    if (it == started_by_.end()) return;
    // await() yields: work on a copy of the list.
    const auto mine = std::move(it->second);
    started_by_.erase(it);
    for (const auto& [id, comm] : mine) {
      if (id < comms_.size() && comms_[id] == comm) await(id);
    }
  }

  void poll(TransferId id) override {
    if (id >= comms_.size() || !comms_[id]) return;
    const sg4::CommPtr comm = comms_[id];
    if (comm->test() && comms_[id] == comm) {
      comms_[id] = nullptr;
      context_.sink.deliver(id, comm->get_finish_time());
    }
  }

  void await(TransferId id) override {
    // The engine only awaits transfers still moving. Their communication may
    // not be recorded yet: the actor starting it is inside sendto_async,
    // which let us run. Let it finish.
    while (id >= comms_.size() || !comms_[id]) {
      if (context_.sink.transfer(id).state == Transfer::State::Delivered) return;
      sg4::this_actor::yield();
    }
    const sg4::CommPtr comm = comms_[id];
    comm->wait();
    // Another waiter (the other side of the message) may have delivered it
    // meanwhile, and the id may even be reused by a newer transfer.
    if (comms_[id] == comm) {
      comms_[id] = nullptr;
      context_.sink.deliver(id, comm->get_finish_time());
    }
  }

 private:
  void forget_delivered(std::vector<std::pair<TransferId, sg4::CommPtr>>& list) const {
    std::erase_if(list, [this](const auto& entry) {
      return entry.first >= comms_.size() || comms_[entry.first] != entry.second;
    });
  }

  ModelContext context_;
  std::vector<sg4::CommPtr> comms_;  // by transfer id, while in flight
  // Per actor (pid): the communications it started.
  std::unordered_map<long, std::vector<std::pair<TransferId, sg4::CommPtr>>> started_by_;
};

}  // namespace

ModelInfo maxmin_model_info() {
  ModelInfo info;
  info.name = "maxmin";
  info.description = "SimGrid's LMM max-min fair sharing over the platform's links (the reference)";
  info.citation =
      "Casanova et al., Versatile, Scalable, and Accurate Simulation of Distributed Applications and "
      "Platforms, JPDC 2014 (SimGrid, CM02 network model)";
  info.validate = [](const Platform&, const YamlField& params) {
    if (params.present()) params.allow_only({});
  };
  info.create = [](const ModelContext& c) { return std::make_unique<MaxMinModel>(c); };
  return info;
}

}  // namespace contend
