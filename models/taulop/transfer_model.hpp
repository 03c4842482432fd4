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
// a rate change costs the pool O(1), not one update per transfer. A network
// pool moves at the rate of the NIC that limits it (the one with the larger
// s(tau)), and its counter is that NIC's own counter plus an offset: when a
// transfer enters or leaves a NIC, every pool it limits changes rate at the
// cost of one counter, and only the pools whose limiting NIC changes (the
// other NIC's s(tau) crossed this one's) move, O(log n) each. An event costs
// O(log n) in its pool and its NIC, plus a scan of the node pairs in flight
// through the two NICs that reads two numbers per pair. Without pools every
// transfer on a channel was replanned at every event (quadratic in the
// transfers sharing a node, which a halo exchange of 128 ranks per node has
// by the thousand); with pools but no NIC counters, every pool of the two
// NICs was replanned at every network event (75 per event at 64 nodes).
#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "models/taulop/member_queue.hpp"
#include "models/taulop/pair_index.hpp"
#include "models/taulop/parameters.hpp"
#include "sim/engine/indexed_heap.hpp"

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
      pool.members.for_each([&](const Pool::Member& member) {
        const Flow& flow = flows_[member.id];
        f(member.id, flow.work[static_cast<std::size_t>(flow.step)], rate_of(pool));
      });
    }
  }
  enum class ChannelInstance : std::uint8_t { kMemory, kNicOut, kNicIn };
  using ChannelObserver = std::function<void(ChannelInstance channel, int node, double at, int tau)>;
  void observe_channels(ChannelObserver observer) { channel_observer_ = std::move(observer); }

 private:
  static constexpr Id kNone = 0xffffffffu;
  static constexpr std::uint32_t kSolo = 0xffffffffu;  // Flow::lane of a message alone in its pair
  // lane_of_'s value for a pair with one message in flight: the message's id, tagged.
  static constexpr std::uint32_t kSoloTag = 0x80000000u;
  static constexpr int kSteps = 4;
  enum class StepKind : std::uint8_t { Delay, Memory, Network };

  // One cache line each (every step of every message reads its Flow).
  struct alignas(64) Flow {
    std::array<double, kSteps> work{};  // seconds alone on the step's channel (or of delay)
    std::uint64_t pair = 0;             // (source rank, destination rank)
    std::uint32_t lane = kSolo;         // the pair's Lanes in lanes_, or kSolo
    int src_node = 0, dst_node = 0;
    std::int8_t step = -1;  // current step
    std::int8_t step_count = 0;
    Id next_waiting = kNone;  // the pair's next message queued behind this one's step
  };
  // Per pair of processes with two or more messages in flight: which steps a
  // message occupies, and the messages queued for each (a FIFO linked
  // through Flow::next_waiting). A message finds its pair's Lanes once, when
  // it starts, not at every step. A message alone in its pair (most of a
  // halo exchange's) has none (Flow::lane == kSolo): nothing can queue
  // behind it, and the steps it occupies are read off its own step when a
  // second message of the pair arrives; its steps then touch no Lanes.
  struct Lanes {
    std::uint64_t pair = 0;      // (source rank, destination rank)
    std::uint32_t messages = 0;  // in flight
    std::uint8_t busy = 0;       // bit per step
    std::array<Id, kSteps> head{kNone, kNone, kNone, kNone};
    std::array<Id, kSteps> tail{kNone, kNone, kNone, kNone};
  };
  // Transfers of one channel instance (a node's memory) or of one node pair
  // on the network, all moving at one rate.
  struct Pool {
    struct Member {
      double threshold;  // value of the pool's counter at which the transfer's step ends
      Id id;
      bool operator>(const Member& o) const {
        return threshold > o.threshold || (threshold == o.threshold && id > o.id);
      }
    };
    // The counter, work per member since the pool was last empty. Memory
    // pools: moving at `rate` since settled_at. Network pools: plus what the
    // limiting NIC's counter has gained since it read nic_work_at (kept
    // apart, not as one offset, so that the counter read back at the same
    // instant is exactly `served`: same-instant moves between NICs leave
    // equal thresholds equal).
    double served = 0;
    double nic_work_at = 0;  // network pools
    double rate = 0;         // memory pools
    double settled_at = 0;
    MemberQueue<Member> members;
    int src_node = -1, dst_node = -1;  // network pools
    int slot_out = -1, slot_in = -1;   // network pools with members: index in the NICs' active lists
    int nic = -1;                      // network pools with members: the limiting NIC (index in nics_)
  };
  // One direction of a node's NIC: the network transfers through it (tau),
  // each moving at most at 1 / s^1(tau), and a counter of the work a
  // transfer moving at that rate has done; the pools it limits wait in
  // `limited` by the NIC counter's value at their next completion, each
  // under its slot in the NIC's list of active pools (small dense ids).
  struct Nic {
    int tau = 0;
    double slowdown = 1;  // max(1, s^1(tau))
    double rate = 1;      // 1 / slowdown
    double work = 0;
    double settled_at = 0;
    IndexedHeap<int> limited;
    int scheduled = -1;  // the pool whose completion stands for the NIC's in pool_ends_
  };
  // A network pool in a NIC's list of active pools.
  struct Active {
    int pool;
    int partner;        // the node at the pool's other end
    bool limited_here;  // the pool is in this NIC's queue
  };

  static StepKind kind(const Flow& f);
  double slowdown(Channel c, std::size_t tau) const;
  int pool_of(const Flow& f);  // the pool of f's current (shared) step
  double rate_of(const Pool& pool) const {
    return pool.src_node < 0 ? pool.rate : nics_[static_cast<std::size_t>(pool.nic)].rate;
  }
  static double network_served(const Pool& pool, const Nic& nic) { return pool.served + (nic.work - pool.nic_work_at); }
  // The value of the limiting NIC's counter at which the pool's first member completes.
  static double completion_key(const Pool& pool) {
    return pool.nic_work_at + (pool.members.top().threshold - pool.served);
  }
  int nic_out(int node) const { return node; }
  int nic_in(int node) const { return static_cast<int>(nodes_) + node; }
  // The pool's slot in the list of active pools of NIC `nic` (its id in the NIC's queue).
  int slot_at(const Pool& pool, int nic) const { return nic == nic_out(pool.src_node) ? pool.slot_out : pool.slot_in; }
  const std::vector<Active>& active_of(int nic) const {
    return nic < static_cast<int>(nodes_) ? active_out_[static_cast<std::size_t>(nic)]
                                          : active_in_[static_cast<std::size_t>(nic) - nodes_];
  }
  // Memory pools.
  static void settle(Pool& pool, double now);
  void set_rate(int pool, double now);
  void reschedule(int pool);
  // Network pools and NICs.
  static void settle(Nic& nic, double now);
  void schedule_nic(int nic);
  void attach(int pool, int nic, double served, double now);  // the pool's counter reads `served`
  double detach(int pool, double now);                        // returns the pool's counter
  void requeue(int pool);                                     // the pool's next completion changed
  void add_network_member(int pool, Id id, double work, double now);
  // The transfers through src_node's NIC out and dst_node's NIC in change by `delta`.
  void change_tau(int src_node, int dst_node, int delta, double now);
  // Moves to the other NIC the pools of `nic` (in `list`) this NIC no longer
  // limits, or now limits, its slowdown having changed from `before` (and
  // that of the NIC of node `changed_partner` on the other side too).
  void rebalance(int nic, std::vector<Active>& list, bool out, double before, int changed_partner, double now);
  // A network pool gained its first member or lost its last one.
  void activate(int pool);
  void deactivate(int pool);
  void report_network(int src_node, int dst_node, double now);

  void enter_step(Id id, double now);    // starts flows_[id].step at `now`
  void request_step(Id id, double now);  // enters it, or queues behind the pair's previous message
  void release_step(Id id, double now);  // the pair's next message may enter this step
  void join_lanes(Id id);                // message `id` of flows_[id].pair starts
  void leave_lanes(Id id);               // message `id` is complete
  bool in_flight_alone(Id holder, std::uint64_t pair, Id id) const;
  void step_done(Id id, double time, std::vector<Completion>& completed);
  void pool_event(int pool, double time, std::vector<Completion>& completed);
  void nic_event(int nic, double time, std::vector<Completion>& completed);
  void forget_member(int pool, Id id);  // with an observer: `id` left the pool
  void report(int pool, double now);
  // With a channel observer: the concurrency of pool's channel changed.
  void report_concurrency(const Pool& pool, int index, double now) const;

  const Parameters& parameters_;
  std::vector<Flow> flows_;
  std::vector<Pool> pools_;                                 // memory pools (one per node) first, then network pools
  std::unordered_map<std::uint64_t, int> network_pool_of_;  // by (source node, destination node)
  std::size_t nodes_;
  std::vector<Nic> nics_;  // NICs out (one per node), then NICs in
  // Per node: the network pools with members leaving (out) or entering (in) it.
  std::vector<std::vector<Active>> active_out_, active_in_;
  IndexedHeap<Id> delays_;  // each delayed transfer's end of delay
  // The next completion of each memory pool and of each NIC's pools, by pool
  // (a NIC's first pool stands for it): simultaneous completions come in
  // pool order, as when every pool had its own event.
  IndexedHeap<int> pool_ends_;
  std::vector<Lanes> lanes_;               // in use or free
  std::vector<std::uint32_t> free_lanes_;  // indices in lanes_
  // By source rank, then destination rank: a lane, or a solo id | kSoloTag.
  // A table per source: a rank's messages start together, and find its
  // table in cache, small, and growing without moving the others'.
  std::vector<PairIndex> lane_of_;
  PairIndex& lanes_from(std::uint64_t pair) {
    const auto source = static_cast<std::size_t>(pair >> 32);
    if (lane_of_.size() <= source) lane_of_.resize(source + 1);
    return lane_of_[source];
  }
  static std::uint64_t destination(std::uint64_t pair) { return pair & 0xffffffffu; }
  double clock_ = 0;
  StepObserver observer_;
  ChannelObserver channel_observer_;
  std::vector<std::vector<Id>> members_;  // by pool, with an observer
};

}  // namespace contend::taulop
