#pragma once
// The staircase state machine of Thune et al. (TPDS 2023), event by event,
// without SimGrid: flows are added when their data starts to move (after
// their latency), and the machine tells when each completes.
//
// Groups: the processes of one socket share the intra-node bandwidth (mixed
// intra/inter-socket model, eqs (12)-(17)); the processes of one node share
// the inter-node bandwidth (eqs (5)-(9)). At every moment the n processes of
// a group that still receive data on it share the level's aggregate BW_MP(n)
// evenly; a process splits its share evenly over its active messages
// (eq. (9)). In a socket group a process with intra/inter-socket volume
// ratio theta receives at BW_mix(n, theta) of eq. (12), its two kinds of
// data flowing as theta : 1 - theta (eqs (16)-(17)); theta is recomputed
// from the process's remaining volumes at every event, which keeps it
// constant when all messages start together (the paper's case) and follows
// messages that start later. Inter-node flows may further be held back by
// the fabric (FabricSharing).
//
// Cost: each message class (a process's messages on a level) keeps the
// time its smallest message completes and is settled lazily; each group
// keeps, per member process, the earliest of its classes' times in a heap,
// and the earliest completion of each group is in one heap of groups. A
// message event touches only its process's classes (a scan of them, one
// heap update); only a change in the number n of receivers of a group
// (which changes every share) touches all of the group's members, and so
// does a change in the fabric's caps.
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/staircase/fabric_sharing.hpp"
#include "models/staircase/message_class.hpp"
#include "models/staircase/sending_side.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/engine/indexed_heap.hpp"
#include "sim/engine/transfer.hpp"

namespace contend {

struct StaircaseOptions {
  // Thune eq. (18) assumes a process's intra-node and inter-node receives
  // cannot overlap; by default they do. When sequential, a process receives
  // its intra-node data only while it has no inter-node data moving.
  bool sequential_levels = false;
  // A departure from the paper (models/staircase/README.md, "The sending
  // side"): the sending node's BW_MP(n_s) is shared too, n_s its processes
  // sending inter-node data, max-min between node pairs with the receiving
  // nodes (SendingSide).
  bool sender_nic = true;
};

class StaircaseSharing {
 public:
  struct Completion {
    TransferId id;
    double time;
  };
  // `fabric` may be null (no network sharing beyond the NICs).
  StaircaseSharing(const Platform& platform, const Mapping& mapping, StaircaseOptions options,
                   std::unique_ptr<FabricSharing> fabric);

  // The data of `id` (bytes from src to dst, on `level`) starts moving at `now`.
  void add(TransferId id, int src, int dst, Level level, double bytes, double now, std::vector<Completion>& done);
  // Why messages move at their rate (attribution; the model words it).
  struct RateCause {
    bool node_level = false;  // the node group (inter-node data), else the socket group
    int node = 0, socket = -1;
    int receiver = 0;      // the receiving process (rank)
    int members = 0;       // n: processes of the group receiving on it
    int messages = 0;      // the process's messages sharing its share
    double aggregate = 0;  // node: BW_MP(n); socket: BW_mix(n, theta) x n
    double theta = 1;      // socket: the process's intra-socket share of its volume
    bool intra_socket = false;
    double factor = 1;     // node: the fabric's phi for the pair
    int source_node = -1;  // node, with a fabric: the sending node
    bool waiting = false;  // sequential levels: held until the process's inter-node data is in
    // node, sender side: the sending node's BW_MP(n_s), not the receiving group's, bounds the rate
    bool sender_limited = false;
    int senders = 0;         // n_s: processes of the sending node sending inter-node data
    double send_factor = 1;  // x of the node pair (sending_side.hpp)
  };
  // observer(ids, at, rate, cause): from `at` on the messages `ids` move at
  // `rate` B/s each, for `cause`. Set before the first add(); it makes the
  // sharing keep each class's messages (only then).
  using RateObserver =
      std::function<void(const std::vector<TransferId>& ids, double at, double rate, const RateCause& cause)>;
  void observe(RateObserver observer) { observer_ = std::move(observer); }
  // group_observer(group, at, members): from `at` on, `members` processes
  // receive on the group (timeline counter tracks). Cheap: one call per
  // change of a group's membership.
  struct GroupName {
    bool node_level = false;  // the node group, else a socket group
    int node = 0, socket = -1;
  };
  using GroupObserver = std::function<void(int group, const GroupName& name, double at, int members)>;
  void observe_groups(GroupObserver observer) { group_observer_ = std::move(observer); }
  const FabricSharing* fabric() const { return fabric_.get(); }

  // Earliest time a flow completes (infinity if none moves), or the time of
  // rates still to bring up to date (flush()).
  double next_event() const;
  // Processes every completion at or before `now`, in time order, and
  // brings every rate up to date.
  void advance(double now, std::vector<Completion>& done);
  // Brings the rates of inter-node messages up to date, on both sides.
  // add() defers them to the end of its instant, so that many messages
  // starting together cost one refresh per receiver and per sender; call it
  // when the instant's adds are done.
  void flush();
  // Calls f(id, rate) for each moving message, its rate in B/s (for --step).
  template <class F>
  void for_each_flow(F f) const {
    for (const auto& c : classes_) c.messages.for_each_message([&](TransferId id) { f(id, c.rate); });
  }

 private:
  enum GroupKind { kSocket = 0, kNode = 1 };
  // The messages of one process that share its bandwidth equally on one
  // level (and, between nodes, from one source node), with their rate.
  struct Class {
    MessageClass messages;
    int process = -1;
    int source_node = -1;  // inter-node classes, with a fabric or the sending side
    double rate = 0;       // per message, B/s, since settled_at
    double settled_at = 0;
    double factor = 1;       // the fabric's phi for its node pair
    double send_factor = 1;  // the sending side's x for its node pair
    // When its smallest message completes at `rate` (infinity: empty or held).
    double done_at = std::numeric_limits<double>::infinity();
  };
  struct Process {
    int node = 0;
    int socket_group = 0;
    int on = -1, off = -1;  // classes of intra- and inter-socket messages
    // Classes of inter-node messages, by source node; a process has one
    // without the fabric and the sending side, kept in the Process itself
    // (no pointer to chase at each of its events).
    boost::container::small_vector<int, 2> inter;
    int inter_count = 0;
    bool member[2] = {false, false};
    // The sending side: its inter-node messages moving out.
    int sending = 0;
  };
  struct Group {
    GroupKind kind;
    int node = 0;
    std::vector<int> members;
    // member process -> the earliest done_at of its classes on the group:
    // one entry per process, so that a new rate for a process's classes
    // costs a scan of them and one heap update, not one per class.
    IndexedHeap<int> completions;
    // Node groups: per source node A, the sum over members of c_pA / m_p.
    std::vector<std::pair<int, double>> weights;
    std::vector<int> weight_slot;  // node groups: by source node, its entry in `weights` (-1: none)
    // Node groups: by source node, its classes (a vector by node: apply_factor()
    // finds a pair's classes without a tree walk).
    std::vector<std::vector<int>> classes_from;
  };

  // Calls f(class) for each class of process p on the level `kind`.
  template <class F>
  static void for_each_class(const Process& p, GroupKind kind, F f) {
    if (kind == kNode) {
      for (int c : p.inter) f(c);
      return;
    }
    if (p.on >= 0) f(p.on);
    if (p.off >= 0) f(p.off);
  }
  int group_of(const Process& p, GroupKind kind) const;
  bool wants_socket_service(const Process& p) const;
  int new_class(int process, int source_node);
  void free_class(int c);
  static void reset(Class& c);
  static std::uint64_t class_key(int receiver, int source_node);
  void settle(Class& c, double t);
  void settle_process(int process, GroupKind kind, double t);
  double share(const Group& g) const;
  double inter_rate(const Class& c, double per_message) const;
  void schedule(Class& c, double t);
  int first_class(const Process& p, GroupKind kind) const;
  void reschedule(int process, GroupKind kind);
  void count_sent(int sender, int delta);
  void mark_pairs_stale(double t);
  void refresh_senders(double t);
  void refresh_receivers(double t);
  bool stale() const { return pairs_stale_ || !stale_receivers_.empty(); }
  void follow(int id, double before, std::vector<int>& rescan);
  void advance_events(double now, std::vector<Completion>& done);
  void set_rates(int process, GroupKind kind, double t);
  void refresh_process(int process, GroupKind kind, double t);
  void refresh_group(int group, double t);
  bool update_membership(int process, GroupKind kind);
  void report_members(int group) const;
  void add_weights(const Process& p, Group& g, double sign);
  void update_fabric(int group, double t);
  void apply_factor(int src_node, int dst_node, double t);
  void publish(int group);
  void process_group_event(int group, double t, std::vector<Completion>& done);
  void after_change(int process, GroupKind kind, double t, bool membership_changed);
  void report(int c, double t);

  const Platform& platform_;
  StaircaseOptions options_;
  std::unique_ptr<FabricSharing> fabric_;
  std::unique_ptr<SendingSide> sending_;  // with the sender side
  std::vector<Process> processes_;        // by rank
  std::vector<Class> classes_;
  std::vector<int> free_classes_;
  std::vector<Group> groups_;         // socket groups first, then node groups
  std::vector<int> senders_of_node_;  // with the sender side: n_s, processes sending inter-node data
  // Inter-node classes by (receiver, source node), with the fabric or the
  // sending side: finding a new message's class costs O(1), not a scan of
  // the receiver's classes (without either, a receiver has one).
  std::unordered_map<std::uint64_t, int> inter_class_;
  // The node pairs' demands or senders changed: their x is not solved yet.
  bool pairs_stale_ = false;
  std::vector<int> sender_of_;  // with the sender side: by inter-node message, its sending rank
  // Inter-node messages started this instant: their receivers, and the node
  // groups they joined, whose rates are not brought up to date yet.
  std::vector<int> stale_receivers_, stale_groups_;
  double stale_since_ = 0;
  int node_group_base_ = 0;
  IndexedHeap<int> schedule_;  // group -> its earliest completion, as last published
  double clock_ = 0;
  RateObserver observer_;
  GroupObserver group_observer_;
  std::vector<std::vector<TransferId>> members_;  // by class, with an observer
};

}  // namespace contend
