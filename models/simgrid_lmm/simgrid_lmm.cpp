// Model `simgrid-lmm`: every message is a SimGrid communication between the
// endpoints of its source and destination sockets, so SimGrid's LMM solver
// shares the links of the route (sim/engine/simgrid_platform.hpp) max-min
// fairly among the flows crossing them, level links with their tabulated
// BW_MP(n) capacity: what SimGrid itself would say about the same platform,
// and the reference the faster `maxmin` (models/maxmin) reproduces.
// Casanova et al., JPDC 2014 (SimGrid, CM02 network model). Details and
// validation: models/simgrid_lmm/README.md.
#include "models/simgrid_lmm/simgrid_lmm.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <simgrid/s4u.hpp>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/core/timeline_loads.hpp"
#include "sim/core/units.hpp"
#include "sim/engine/attribution_recorder.hpp"
#include "sim/engine/daemon_loop.hpp"
#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace {
namespace sg4 = simgrid::s4u;

class SimgridLmmModel final : public CommunicationModel {
 public:
  explicit SimgridLmmModel(const ModelContext& c) : context_(c) {
    // Starting a SimGrid communication (sendto_async) lets other actors run;
    // inside a rank's MPI call that would let other ranks act in the middle
    // of it. A daemon actor starts them instead, at the same simulated time.
    sg4::Actor::create("simgrid-lmm-starter", c.simgrid.endpoint(0, 0), [this] { run_starter(); })->daemonize();
  }

  // SimGrid completes the communications; they are delivered when awaited.
  bool delivers_by_itself() const override { return false; }

  void start(TransferId id) override {
    to_start_.push_back(id);
    // Filed under the rank that started it, which awaits it before it ends.
    auto& mine = started_by_[sg4::this_actor::get_pid()];
    mine.push_back(id);
    if (mine.size() >= 64 && mine.size() % 64 == 0) forget_delivered(mine);
    if (starter_waiting_) starter_->notify_one();
  }

  // A finishing rank awaits what it started: SimGrid must not be left with
  // communications nobody waits for. drain() runs in the rank's own actor.
  void drain(int /*rank*/) override {
    auto it = started_by_.find(sg4::this_actor::get_pid());
    if (it == started_by_.end()) return;
    // await() yields: work on a copy of the list.
    const auto mine = std::move(it->second);
    started_by_.erase(it);
    for (TransferId id : mine) {
      if (context_.sink.transfer(id).state == Transfer::State::Moving) await(id);
    }
  }

  void poll(TransferId id) override {
    if (id >= comms_.size() || !comms_[id]) return;
    const sg4::CommPtr comm = comms_[id];
    if (comm->test() && comms_[id] == comm) {
      comms_[id] = nullptr;
      deliver(id, comm->get_finish_time());
    }
  }

  // Alone: the route's latency, then its smallest capacity for one flow
  // (BW_MP(1) of a level link; SimGrid's bound without latency is the
  // smallest nominal bandwidth, never below that).
  double contention_free_time(const Transfer& t) const override {
    double latency = 0;
    double rate = std::numeric_limits<double>::infinity();
    for (const sg4::Link* link : route(t, latency)) {
      const LevelCapacity* capacity = context_.simgrid.level_capacity(link);
      rate = std::min(rate, capacity != nullptr ? (*capacity)(1) : link->get_bandwidth());
    }
    return latency + static_cast<double>(t.bytes) / rate;
  }

  // No --step: an action's rate (kernel/resource/Action.hpp, get_rate())
  // is reached from an s4u::Comm only through its kernel activity
  // (Activity::get_impl()), whose class Debian's SimGrid 3.32 does not
  // install the header of.
  std::string no_rates_reason() const override {
    return "SimGrid 3.32's public API gives a communication's remaining bytes, not its rate (the action holding it "
           "sits behind kernel activity classes whose headers Debian does not install)";
  }

  // Transport buffering: an s4u::Comm reports its completion only; its
  // remaining bytes can be read, but no event marks the instant they reach
  // the buffer's size, and polling would only approximate it.
  std::string no_release_reason() const override {
    return "SimGrid's communications signal only their completion, not the instant their remaining bytes reach the "
           "buffer's size (use maxmin, its fluid equivalent)";
  }

  void await(TransferId id) override {
    // The engine only awaits transfers still moving. Their communication may
    // not be started yet: the starter actor has not run, or is inside
    // sendto_async, which let us run. Sleep until it has started a batch
    // (yielding instead made every waiting rank run again at each of the
    // starter's sendto_async: quadratic, no progress at P = 2048).
    if (id >= comms_.size() || !comms_[id]) {
      std::unique_lock<sg4::Mutex> lock(*created_mutex_);
      while (id >= comms_.size() || !comms_[id]) {
        if (context_.sink.transfer(id).state == Transfer::State::Delivered) return;
        created_->wait(lock);
      }
    }
    const sg4::CommPtr comm = comms_[id];
    // Both ranks of a message may wait for its communication at once. SimGrid
    // 3.32's Comm::wait() gives each waiter of a host-to-host communication a
    // sleep action kept in one field (CommImpl::dst_timeout_), so a second
    // waiter overwrites the first's and that one is never freed: 232 bytes
    // per message (LeakSanitizer, `make test-sanitize`; fixed after 3.32 by
    // SimGrid commit e59357ba4f). wait_any() waits the same way, without a
    // sleep action.
    sg4::Comm::wait_any({comm});
    // Another waiter (the other side of the message) may have delivered it
    // meanwhile, and the id may even be reused by a newer transfer.
    if (comms_[id] == comm) {
      comms_[id] = nullptr;
      deliver(id, comm->get_finish_time());
    }
  }

 private:
  std::vector<sg4::Link*> route(const Transfer& t, double& latency) const {
    const Placement& from = context_.mapping[t.src];
    const Placement& to = context_.mapping[t.dst];
    std::vector<sg4::Link*> links;
    latency = 0;
    context_.simgrid.endpoint(from.node, from.socket)
        ->route_to(context_.simgrid.endpoint(to.node, to.socket), links, &latency);
    return links;
  }

  void deliver(TransferId id, double finish) {
    if (context_.recorder != nullptr) record(context_.sink.transfer(id), finish);
    if (context_.loads != nullptr) record_loads(context_.sink.transfer(id), finish);
    context_.sink.deliver(id, finish);
  }

  // Attribution, as far as SimGrid 3.32 shows it: the route's latency, then
  // the sharing of the route's links by SimGrid's LMM at the message's
  // average rate. Its public API gives no action's variable nor the
  // constraint that fixed it (models/simgrid_lmm/README.md, "Attribution").
  void record(const Transfer& t, double finish) {
    double latency = 0;
    const auto links = route(t, latency);
    std::vector<std::string> names;
    for (const sg4::Link* link : links) names.push_back(SimgridPlatform::resource_name(link));
    const Placement& from = context_.mapping[t.src];
    const Placement& to = context_.mapping[t.dst];
    if (latency > 0) {
      context_.recorder->bound(t, t.start, "latency", 0, "the route's latency = " + units::format_duration(latency));
    }
    const double moving = finish - (t.start + latency);
    const double rate = moving > 0 ? static_cast<double>(t.bytes) / moving : 0;
    context_.recorder->bound(
        t, t.start + latency,
        fmt::format("lmm:node{}/socket{}->node{}/socket{}", from.node, from.socket, to.node, to.socket), rate,
        fmt::format("SimGrid's LMM shares {} among the flows crossing them; average rate {} (SimGrid 3.32 does not "
                    "say which link fixed it)",
                    fmt::join(names, ", "), units::format_bandwidth(rate)));
  }

  // Timeline: the flows crossing each shared link of the route (SimGrid's
  // concurrency of the constraint), from the end of the route's latency
  // (CM02: the action's variable gets its weight then) to the finish. SimGrid
  // 3.32's public API shows no constraint's concurrency; the model knows
  // each message's interval only once it is over, so it reports it then, as
  // two changes (sim/core/timeline_loads.hpp puts them in time order).
  void record_loads(const Transfer& t, double finish) {
    double latency = 0;
    for (const sg4::Link* link : route(t, latency)) {
      if (link->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE) continue;
      auto [it, inserted] = link_tracks_.try_emplace(link, 0);
      if (inserted) it->second = context_.loads->resource(SimgridPlatform::resource_name(link), "flows");
      const double joined = std::min(t.start + latency, finish);
      context_.loads->change(it->second, joined, +1);
      context_.loads->change(it->second, finish, -1);
    }
  }

  void run_starter() {
    std::unique_lock<sg4::Mutex> lock(*mutex_);
    std::vector<TransferId> batch;
    run_daemon_loop(lock, [&] {
      while (true) {
        while (to_start_.empty()) {
          starter_waiting_ = true;
          starter_->wait(lock);
          starter_waiting_ = false;
        }
        batch.swap(to_start_);
        for (TransferId id : batch) start_now(id);
        batch.clear();
        created_->notify_all();
      }
    });
  }

  void start_now(TransferId id) {
    // Copies: sendto_async lets other actors run, which may grow the tables.
    const Transfer t = context_.sink.transfer(id);
    const Placement& from = context_.mapping[t.src];
    const Placement& to = context_.mapping[t.dst];
    auto* src = context_.simgrid.endpoint(from.node, from.socket);
    auto* dst = context_.simgrid.endpoint(to.node, to.socket);
    const sg4::CommPtr comm = sg4::Comm::sendto_async(src, dst, t.bytes);
    // SimGrid 3.32 does not start a host-to-host communication of 0 bytes
    // (Comm::set_destination); the first wait() would, and two ranks
    // waiting for it would start it twice, leaking an action that shares the
    // link for ever. Start it now, as every other message.
    if (comm->get_state() != sg4::Activity::State::STARTED) comm->start();
    if (comms_.size() <= id) comms_.resize(id + 1);
    comms_[id] = comm;
  }

  void forget_delivered(std::vector<TransferId>& list) const {
    std::erase_if(list,
                  [this](TransferId id) { return context_.sink.transfer(id).state == Transfer::State::Delivered; });
  }

  ModelContext context_;
  std::vector<sg4::CommPtr> comms_;  // by transfer id, while in flight
  // Per rank actor (pid): the transfers it started.
  std::unordered_map<long, std::vector<TransferId>> started_by_;
  std::vector<TransferId> to_start_;                                     // by the starter actor
  std::unordered_map<const sg4::Link*, ResourceLoads::Id> link_tracks_;  // with a timeline
  bool starter_waiting_ = false;
  sg4::MutexPtr mutex_ = sg4::Mutex::create();
  sg4::ConditionVariablePtr starter_ = sg4::ConditionVariable::create();
  // Ranks awaiting a communication the starter has not created yet.
  sg4::MutexPtr created_mutex_ = sg4::Mutex::create();
  sg4::ConditionVariablePtr created_ = sg4::ConditionVariable::create();
};

}  // namespace

ModelInfo simgrid_lmm_model_info() {
  ModelInfo info;
  info.name = "simgrid-lmm";
  info.description =
      "SimGrid's own LMM solver sharing the platform's links max-min (maxmin's reference; slow at scale)";
  info.citation =
      "Casanova et al., Versatile, Scalable, and Accurate Simulation of Distributed Applications and "
      "Platforms, JPDC 2014 (SimGrid, CM02 network model)";
  info.validate = [](const Platform&, const YamlField& params) {
    if (params.present()) params.allow_only({});
  };
  info.create = [](const ModelContext& c) { return std::make_unique<SimgridLmmModel>(c); };
  return info;
}

}  // namespace contend
