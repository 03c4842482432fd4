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
#include <array>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

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

 private:
  struct Step {
    double work = 0;              // seconds alone on the channel (or of delay)
    int resources[2] = {-1, -1};  // channel instances; none = a delay
    Channel channel = kSharedMemory;
  };
  struct Flow {
    std::array<Step, 4> steps;
    int step_count = 0;
    int step = -1;         // current step
    double remaining = 0;  // work left in the current step at `since`
    double rate = 1;       // work per second since `since`
    double since = 0;
    std::uint64_t pair = 0;  // (source rank, destination rank)
  };
  // Per pair of processes, which steps a message occupies and who waits for them.
  struct Lanes {
    std::array<bool, 4> busy{};
    std::array<std::deque<Id>, 4> waiting;
  };

  int memory(int node) const { return node; }
  int nic_out(int node) const { return nodes_ + node; }
  int nic_in(int node) const { return 2 * nodes_ + node; }
  double slowdown(Channel c, std::size_t tau) const;

  void enter_step(Id id, double now);    // starts flows_[id].step at `now`
  void request_step(Id id, double now);  // enters it, or queues behind the pair's previous message
  void release_step(Id id, double now);  // the pair's next message may enter this step
  void leave_channels(Id id);
  void settle(int resource, double now);  // brings its flows to `now`
  void replan(int resource, double now);  // new rates and end events
  void plan(Id id, double now);

  const Parameters& parameters_;
  int nodes_;
  std::vector<Flow> flows_;
  std::vector<std::vector<Id>> members_;  // by channel instance
  IndexedHeap<Id> events_;                // each flow's end of its current step
  std::unordered_map<std::uint64_t, Lanes> lanes_;
  double clock_ = 0;
};

}  // namespace contend::taulop
