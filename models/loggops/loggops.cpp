// The LogGOPS model on the engine.
//
// A message of k bytes posted at t_post by rank s, whose data may move from
// t_start (= t_post for eager; for rendezvous, once the handshake is done):
//  - the sender's CPU is busy o_s + O_s k from t_post (the engine charges it
//    through send_overhead());
//  - the sender's NIC injects it from t_inject = max(t_start, NIC free) and
//    is busy g + G k (the gap before its next injection);
//  - the last byte arrives at max(t_post + o_s + O_s k, t_inject + g + G k) + L;
//  - the receiver's CPU is then busy o_r + O_r k when it completes the
//    receive (the engine charges it through receive_overhead()).
// With an idle NIC and a receive already posted this is Bacon et al.'s eq.
// (2) for one direction: max(o_s + O_s k, g + G k) + L + O_r k + o_r.
//
// Choices where the papers leave room:
//  - one NIC (g, G) per rank, as in LogGOPSim where every process is a host
//    with its own network interface; ranks sharing a physical NIC do not
//    delay each other here (contention models do that);
//  - rendezvous (k >= the level's eager_threshold S): the data moves after the
//    handshake, whose timing the engine decides (both sides posted; with
//    `progress: none` both inside MPI). Its latency is not added separately:
//    the rendezvous range's L, g, G, o, O are fitted on that range (Bacon et
//    al. fit per protocol range), so they already contain it;
//  - messages never share bandwidth: LogGOPS has no contention.
#include "models/loggops/loggops.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "models/loggops/loggops_parameters.hpp"
#include "models/loggops/nic_schedule.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/timeline_loads.hpp"
#include "sim/core/units.hpp"
#include "sim/engine/attribution_recorder.hpp"
#include "sim/engine/fluid_model.hpp"

namespace contend {
namespace {

class LogGopsModel final : public FluidModel {
 public:
  explicit LogGopsModel(const ModelContext& c)
      : FluidModel(c), parameters_(c.platform, c.parameters), nics_(static_cast<std::size_t>(c.mapping.rank_count())) {}

  double send_overhead(const Transfer& t) const override { return overheads(t).send(static_cast<double>(t.bytes)); }
  double receive_overhead(const Transfer& t) const override {
    return overheads(t).receive(static_cast<double>(t.bytes));
  }
  // Composed (`A+loggops`), g is charged between a rank's sends on its CPU.
  double overhead_gap(const Transfer& t) const override { return protocol(t).g; }
  // Transport buffering: the arrival of byte k - B in closed form (on_data_start).
  bool releases_senders(Level /*level*/) const override { return true; }
  // Sends posted ahead of the clock: their NIC slots and arrivals are closed
  // forms of their start times (NicSchedule keeps them in start order). Not
  // with what reports instants as they come (attribution, timeline, --step).
  bool accepts_early_starts() const override {
    return recorder() == nullptr && context().loads == nullptr && !context().step;
  }

 protected:
  // No latency phase: L is in the arrival time, computed at start.
  double latency(const Transfer& /*t*/) const override { return 0; }
  // A send posted ahead of SimGrid's clock starts at its post (t.start).
  void on_start(TransferId id, double now) override { on_data_start(id, std::max(now, sink().transfer(id).start)); }

  void on_data_start(TransferId id, double now) override {
    const Transfer& t = sink().transfer(id);
    const LogGopsProtocol& p = protocol(t);
    const double k = static_cast<double>(t.bytes);
    const auto injection = nics_[static_cast<std::size_t>(t.src)].add(
        id, now, p.g, p.G * k, simgrid::s4u::Engine::get_clock(),
        [this](const NicSchedule::Injection& moved) { plan_arrival(moved); });
    plan_arrival(injection);
    const double inject = injection.begin, nic = injection.end;
    if (recorder() != nullptr) record(t, now, inject, t.post_time + overheads(t).send(k), p);
    if (context().loads != nullptr) record_queue(t.src, now, nic);
    if (context().step) plan_step(id, now, inject, nic, k);
  }

  // The arrival of a message the NIC injects over [begin, end) (and, with
  // transport buffering, the release of its sender).
  void plan_arrival(const NicSchedule::Injection& injection) {
    const Transfer& t = sink().transfer(injection.id);
    const LogGopsProtocol& p = protocol(t);
    const double k = static_cast<double>(t.bytes);
    const double cpu_done = t.post_time + overheads(t).send(k);
    // A sender's arrivals of one protocol range (one L) mostly come in time
    // order (its NIC is FIFO, its posts follow each other): one timer FIFO each.
    deliver_at(injection.id, std::max(cpu_done, injection.end) + p.L, arrival_family(t));
    if (t.release_remaining > 0) {
      // Transport buffering: byte k - B leaves the NIC at inject + g + G (k - B)
      // and arrives L later (not before the sender's CPU is done with the post).
      const double sent = k - static_cast<double>(t.release_remaining);
      release_at(injection.id, std::max(cpu_done, injection.begin + p.g + p.G * sent) + p.L);
    }
  }

  // For --step: the messages the NICs inject now (their g + G k), at
  // k / (g + G k). The o phases are the ranks' CPU time (the timeline's
  // spans) and L is the wire's: no NIC is busy with the message then.
  bool moving_transfers(std::vector<MovingTransfer>& out) const override {
    const double now = std::max(clock(), last_start_);
    for (const Injection& i : injections_) {
      if (i.begin <= now && now < i.end) out.push_back({i.id, i.rate});
    }
    return true;
  }

  // Alone (idle NIC, receive posted): max(o_s + O_s k, g + G k) + L.
  double contention_free_time(const Transfer& t) const override {
    const LogGopsProtocol& p = protocol(t);
    const double k = static_cast<double>(t.bytes);
    return std::max(overheads(t).send(k), p.g + p.G * k) + p.L;
  }

 private:
  const LogGopsProtocol& protocol(const Transfer& t) const { return parameters_.protocol(t.level, t.eager); }
  // Every level x (eager, rendezvous).
  static constexpr std::uint32_t kProtocolSlots = 2 * static_cast<std::uint32_t>(kAllLevels.size());
  static std::uint32_t protocol_slot(const Transfer& t) {
    return static_cast<std::uint32_t>(t.level) * 2 + (t.eager ? 0 : 1);
  }
  static std::uint32_t arrival_family(const Transfer& t) {
    return static_cast<std::uint32_t>(t.src) * kProtocolSlots + protocol_slot(t);
  }
  // The overheads of t's level, protocol range and datatype, looked up by
  // name once per datatype of the run (a message costs an index, not a string).
  const LogGopsOverheads& overheads(const Transfer& t) const {
    const std::size_t slot = protocol_slot(t);
    if (t.datatype >= overheads_.size()) overheads_.resize(static_cast<std::size_t>(t.datatype) + 1);
    auto& cached = overheads_[t.datatype][slot];
    if (cached == nullptr) cached = &protocol(t).overheads(context().sink.datatype(t.datatype));
    return *cached;
  }

  // Attribution: whichever of the sender's CPU (o_s + O_s k from the post)
  // and its NIC (the gap of its previous message, then g + G k) ends later
  // bounds the message until then; then L.
  void record(const Transfer& t, double now, double inject, double cpu_done, const LogGopsProtocol& p) {
    const double k = static_cast<double>(t.bytes);
    const double injected = inject + p.g + p.G * k;
    const std::string nic = fmt::format("loggops:nic@rank{}", t.src);
    if (cpu_done >= injected) {
      recorder()->bound(t, now, "cpu:o_s", 0,
                        fmt::format("rank {}'s CPU posts the message: o_s + O_s k = {} from {:.9g} s", t.src,
                                    units::format_duration(overheads(t).send(k)), t.post_time));
    } else {
      if (inject > now) {
        recorder()->bound(
            t, now, nic, 0,
            fmt::format("rank {}'s NIC is busy with its previous message (its gap) until {:.9g} s", t.src, inject));
      }
      recorder()->bound(
          t, inject, nic, p.g + p.G * k > 0 ? k / (p.g + p.G * k) : 0,
          fmt::format("rank {}'s NIC injects it: g + G k = {} + {} x {} B = {}", t.src, units::format_duration(p.g),
                      units::format_duration(p.G), t.bytes, units::format_duration(p.g + p.G * k)));
    }
    if (p.L > 0) {
      recorder()->bound(t, std::max(cpu_done, injected), "latency", 0, "L = " + units::format_duration(p.L));
    }
  }

  // Timeline: the messages of rank `src` at its NIC, waiting for its gap or
  // being injected (g + G k), from `now` to `injected` (the NIC's queue is
  // FIFO: each ends where the next may start).
  void record_queue(int src, double now, double injected) {
    const auto slot = static_cast<std::size_t>(src);
    if (nic_tracks_.size() <= slot) nic_tracks_.resize(slot + 1, kUntracked);
    if (nic_tracks_[slot] == kUntracked) {
      nic_tracks_[slot] = context().loads->resource(fmt::format("loggops:nic@rank{}", src), "messages");
    }
    context().loads->change(nic_tracks_[slot], now, +1);
    context().loads->change(nic_tracks_[slot], injected, -1);
  }

  // --step: keeps the NIC phase of `id`, and has the model wake when it
  // begins and ends (no event of the run marks those instants otherwise).
  void plan_step(TransferId id, double now, double inject, double injected, double k) {
    last_start_ = std::max(last_start_, now);
    std::erase_if(injections_, [now](const Injection& i) { return i.end <= now; });
    if (!(injected > inject)) return;  // no NIC time: nothing moves
    injections_.push_back({id, inject, injected, k / (injected - inject)});
    if (inject > now) wake_at(inject);
    wake_at(injected);
  }

  LogGopsParameters parameters_;
  std::vector<NicSchedule> nics_;  // per rank
  // By datatype id, then level x range.
  mutable std::vector<std::array<const LogGopsOverheads*, kProtocolSlots>> overheads_;
  static constexpr ResourceLoads::Id kUntracked = UINT32_MAX;
  std::vector<ResourceLoads::Id> nic_tracks_;  // by rank, with a timeline
  struct Injection {
    TransferId id;
    double begin, end;  // the NIC injects the message over [begin, end)
    double rate;        // k / (g + G k)
  };
  std::vector<Injection> injections_;  // with --step: not yet over at the last start
  double last_start_ = 0;              // with --step: the time of the last start
};

}  // namespace

ModelInfo loggops_model_info() {
  ModelInfo info;
  info.name = "loggops";
  info.description = "LogGOPS: latency, per-datatype CPU overheads o/O, NIC gaps g/G, eager and rendezvous ranges";
  info.citation = "Hoefler et al., HPDC 2010 (LogGOPSim); Bacon et al., EuroMPI 2023";
  info.charges_cpu_overheads = true;
  info.validate = [](const Platform& platform, const YamlField& parameters) {
    LogGopsParameters checked(platform, parameters);
  };
  info.create = [](const ModelContext& c) -> std::unique_ptr<CommunicationModel> {
    return std::make_unique<LogGopsModel>(c);
  };
  return info;
}

}  // namespace contend
