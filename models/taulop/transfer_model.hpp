#pragma once
// The dynamic tau-Lop model: a message as a sequence of transfers over
// channels, concurrent transfers on a channel slowing each other. Pure
// arithmetic (no SimGrid), driven by the FluidModel in taulop.cpp and
// directly by unit tests.
//
// A message of m bytes (Nuriyev et al. JPDC 2022, Sec. 4):
//   same node   o^0(m), then L^0(m) into the shared buffer, then L^0(m) out
//               of it, both on the node's memory channel;
//   other node  o^1(m), then L^0(m) on the sender's memory channel, L^1(m)
//               on the network (the sender's NIC out and the receiver's NIC
//               in), then L^0(m) on the receiver's memory channel.
// Concurrency (tau-Lop's L^c(m, tau)): while tau transfers use a channel
// instance, each moves at 1 / s^c(tau) of its solo speed, s^c the channel's
// `concurrency` table (absent: s(tau) = tau, the channel shared equally); a
// network transfer moves at the slower of its two NICs. o is a fixed delay
// that occupies no channel. Rates change only when a transfer enters or
// leaves a channel: an event-driven fluid computation.
//
// Messages between one pair of processes stay in order (MPI's non-overtaking
// rule over one FIFO connection, TCP stream or shared-memory queue): each
// transfer step of a message starts only once the same step of the pair's
// previous message has finished. Without it an eager sender that posts many
// segments at once would see them all share the channel and end together
// (processor sharing), where a real connection delivers the first one first.
//
// Cost. Every transfer on one node's memory channel moves at the same rate,
// and so does every network transfer between one pair of nodes (the slower
// of the two NICs' rates): such a set is a *pool*. A pool keeps one counter,
// the work each of its members has done since it was last empty, and its
// members' completions as the counter values at which they end, in a heap:
// a rate change costs the pool O(1), not one update per transfer. An event
// (a transfer entering or leaving a step) costs O(log n) in its pool, plus,
// for a network step, one rate update per active pool of the two NICs (the
// node pairs in flight through them). Without pools every transfer on a
// channel was replanned at every event: quadratic in the transfers sharing a
// node, which a halo exchange of 128 ranks per node has by the thousand.
#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "models/taulop/parameters.hpp"
#include "sim/engine/indexed_heap.hpp"
#include "sim/engine/queue_contents.hpp"

namespace contend::taulop {

class TransferModel {
 public:
  using Id = std::uint32_t;
  struct Completion {
    Id id;
    double time;
  };

  struct Endpoints {
    int src_rank = 0, dst_rank = 0;
    int src_node = 0, dst_node = 0;
  };

  TransferModel(const Parameters& parameters, int nodes);

  // Message `id` (ids may be reused once completed) starts at `now`.
  void start(Id id, const Endpoints& endpoints, double bytes, double now);
  double next_event() const;  // infinity if nothing is in flight
  // Processes every event at or before `now`, appending completed messages.
  void advance(double now, std::vector<Completion>& completed);
  double clock() const { return clock_; }

  // Why a message's current step moves as it does (attribution; the model
  // words it). `fraction`: of its solo speed (1 / s^c(tau)); 0 while queued.
  struct StepCause {
    enum class Kind : std::uint8_t { Delay, Memory, Network, Queued } kind = Kind::Delay;
    int step = 0;
    double work = 0;  // seconds of the step alone (o, L^0(m) or L^1(m))
    int node = 0;     // memory: the node; network: the NIC's node
    bool out = true;  // network: the sending NIC (else the receiving one) is the slower
    int tau = 1;      // transfers on the channel (memory) or through the NIC (network)
    double fraction = 1;
  };
  // observer(id, at, cause): from `at` on, message `id` is in cause's step.
  // Set before the first start(); it makes the pools keep their members.
  using StepObserver = std::function<void(Id id, double at, const StepCause& cause)>;
  void observe(StepObserver observer) { observer_ = std::move(observer); }
  // channel_observer(channel, node, at, tau): from `at` on, `tau` transfers
  // use the channel instance (kMemory: the node's memory channel; kNicOut,
  // kNicIn: the network through the node's NIC). One call per change.
  // Calls f(id, work, fraction) for each message in a channel step (memory
  // or network; not in its delay o, nor queued behind the pair's previous
  // message): the step takes `work` seconds alone, and the message moves at
  // `fraction` of that speed now (1 / s^c(tau)). For --step.
  template <class F>
  void for_each_moving(F f) const {
    for (const Pool& pool : pools_) {
      for (const auto& member : queue_contents(pool.members)) {
        const Flow& flow = flows_[member.id];
        f(member.id, flow.work[static_cast<std::size_t>(flow.step)], pool.rate);
      }
    }
  }
  enum class ChannelInstance : std::uint8_t { kMemory, kNicOut, kNicIn };
  using ChannelObserver = std::function<void(ChannelInstance channel, int node, double at, int tau)>;
  void observe_channels(ChannelObserver observer) { channel_observer_ = std::move(observer); }

 private:
  static constexpr Id kNone = 0xffffffffu;
  static constexpr int kSteps = 4;
  enum class StepKind : std::uint8_t { Delay, Memory, Network };

  struct Flow {
    std::array<double, kSteps> work{};  // seconds alone on the step's channel (or of delay)
    std::uint64_t pair = 0;             // (source rank, destination rank)
    int src_node = 0, dst_node = 0;
    std::int8_t step = -1;  // current step
    std::int8_t step_count = 0;
    Id next_waiting = kNone;  // the pair's next message queued behind this one's step
  };
  // Per pair of processes: which steps a message occupies, and the messages
  // queued for each (a FIFO linked through Flow::next_waiting).
  struct Lanes {
    std::uint8_t busy = 0;  // bit per step
    std::array<Id, kSteps> head{kNone, kNone, kNone, kNone};
    std::array<Id, kSteps> tail{kNone, kNone, kNone, kNone};
  };
  // Transfers of one channel instance (a node's memory) or of one node pair
  // on the network, all moving at `rate`.
  struct Pool {
    struct Member {
      double threshold;  // value of `served` at which the transfer's step ends
      Id id;
      bool operator>(const Member& o) const {
        return threshold > o.threshold || (threshold == o.threshold && id > o.id);
      }
    };
    double served = 0;  // work per member since the pool was last empty
    double rate = 0;    // work per second since settled_at
    double settled_at = 0;
    std::priority_queue<Member, std::vector<Member>, std::greater<>> members;
    int src_node = -1, dst_node = -1;  // network pools
    int slot_out = -1, slot_in = -1;   // network pools with members: index in the NICs' active lists
  };

  static StepKind kind(const Flow& f);
  double slowdown(Channel c, std::size_t tau) const;
  int pool_of(const Flow& f);  // the pool of f's current (shared) step
  static void settle(Pool& pool, double now);
  void set_rate(int pool, double now);
  void reschedule(int pool);
  // A network pool gained its first member or lost its last one.
  void activate(int pool);
  void deactivate(int pool);
  // tau_out of src_node and tau_in of dst_node changed: new rates for their pools.
  void network_changed(int src_node, int dst_node, double now);

  void enter_step(Id id, double now);    // starts flows_[id].step at `now`
  void request_step(Id id, double now);  // enters it, or queues behind the pair's previous message
  void release_step(Id id, double now);  // the pair's next message may enter this step
  void step_done(Id id, double time, std::vector<Completion>& completed);
  void pool_event(int pool, double time, std::vector<Completion>& completed);
  void report(int pool, double now);
  // With a channel observer: the concurrency of pool's channel changed.
  void report_concurrency(const Pool& pool, int index, double now) const;

  const Parameters& parameters_;
  std::vector<Flow> flows_;
  std::vector<Pool> pools_;                                 // memory pools (one per node) first, then network pools
  std::unordered_map<std::uint64_t, int> network_pool_of_;  // by (source node, destination node)
  std::vector<int> tau_out_, tau_in_;                       // per node: network transfers through its NICs
  // Per node: the network pools with members leaving (out) or entering (in) it.
  std::vector<std::vector<int>> active_out_, active_in_;
  IndexedHeap<Id> delays_;      // each delayed transfer's end of delay
  IndexedHeap<int> pool_ends_;  // each pool's next completion
  std::unordered_map<std::uint64_t, Lanes> lanes_;
  double clock_ = 0;
  StepObserver observer_;
  ChannelObserver channel_observer_;
  std::vector<std::vector<Id>> members_;  // by pool, with an observer
};

}  // namespace contend::taulop
