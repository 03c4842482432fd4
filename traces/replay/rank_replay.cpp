#include "traces/replay/rank_replay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "sim/engine/mpi.hpp"

namespace contend {

// ------------------------------------------------------------ shared state

void ReplayShared::deposit(int parent_context, int derivation, int members, int local_rank, coll::ColorKey pair) {
  auto& split = splits_[{parent_context, derivation}];
  if (split.pairs.empty()) split.pairs.resize(static_cast<std::size_t>(members));
  split.pairs.at(static_cast<std::size_t>(local_rank)) = pair;
  ++split.deposited;
}

std::vector<coll::ColorKey> ReplayShared::take(int parent_context, int derivation) {
  auto it = splits_.find({parent_context, derivation});
  auto& split = it->second;
  const int members = static_cast<int>(split.pairs.size());
  if (split.deposited != members) {
    throw Error(fmt::format("internal error: comm_split read before every member gave its color ({} of {})",
                            split.deposited, members));
  }
  auto pairs = split.pairs;
  if (++split.taken == members) splits_.erase(it);
  return pairs;
}

// ------------------------------------------------------------ collective lines

namespace {

std::uint32_t element_size(const std::string& datatype, bool default_is_double, const SourceLocation& where) {
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, ti_bytes(1, datatype, default_is_double, where)));
}

std::vector<std::uint64_t> scaled(const std::vector<std::int64_t>& counts, std::uint32_t size,
                                  const SourceLocation& where) {
  std::vector<std::uint64_t> out;
  for (auto c : counts) out.push_back(ti_element_bytes(c, size, where));
  return out;
}

// The collective operation of a TI action, if it is one.
std::optional<coll::CollectiveOp> collective_op(TiKind k) {
  using coll::CollectiveOp;
  switch (k) {
    case TiKind::Barrier:
      return CollectiveOp::barrier;
    case TiKind::Bcast:
      return CollectiveOp::bcast;
    case TiKind::Reduce:
      return CollectiveOp::reduce;
    case TiKind::Allreduce:
      return CollectiveOp::allreduce;
    case TiKind::Alltoall:
      return CollectiveOp::alltoall;
    case TiKind::Alltoallv:
      return CollectiveOp::alltoallv;
    case TiKind::Gather:
      return CollectiveOp::gather;
    case TiKind::Gatherv:
      return CollectiveOp::gatherv;
    case TiKind::Scatter:
      return CollectiveOp::scatter;
    case TiKind::Scatterv:
      return CollectiveOp::scatterv;
    case TiKind::Allgather:
      return CollectiveOp::allgather;
    case TiKind::Allgatherv:
      return CollectiveOp::allgatherv;
    case TiKind::ReduceScatter:
      return CollectiveOp::reduce_scatter;
    default:
      return std::nullopt;
  }
}

}  // namespace

coll::CollectiveCall collective_call(const TiAction& a, const coll::Communicator& comm, bool default_is_double,
                                     const SourceLocation& where) {
  const auto op = collective_op(a.kind);
  if (!op) throw Error(where, fmt::format("'{}' is not a collective", ti_kind_name(a.kind)));
  const std::uint32_t size1 = element_size(a.datatype1, default_is_double, where);
  const std::uint32_t size2 = element_size(a.datatype2, default_is_double, where);
  const auto me = static_cast<std::size_t>(comm.local_rank);
  const bool is_root = comm.local_rank == a.root;
  coll::CollectiveCall call;
  call.op = *op;
  call.root = a.root;
  call.element_bytes = size1;
  auto bytes = [&](std::int64_t count, std::uint32_t size) { return ti_element_bytes(count, size, where); };
  auto scaled = [&](const std::vector<std::int64_t>& counts, std::uint32_t size) {
    return contend::scaled(counts, size, where);
  };
  auto own_entry_only = [&](std::uint64_t own) {
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(comm.size()), 0);
    counts[me] = own;
    return counts;
  };
  switch (a.kind) {
    case TiKind::Bcast:
    case TiKind::Reduce:
    case TiKind::Allreduce:
      call.bytes = bytes(a.count, size1);
      break;
    case TiKind::Alltoall:
    case TiKind::Gather:
    case TiKind::Allgather:
      call.bytes = bytes(a.send_count, size1);
      break;
    case TiKind::Scatter:
      call.bytes = bytes(a.recv_count, size2);
      call.element_bytes = size2;
      break;
    case TiKind::Gatherv:
      // SimGrid writes zeros for the receive counts of non-roots (not significant there).
      call.counts = is_root ? scaled(a.recv_counts, size2) : own_entry_only(bytes(a.send_count, size1));
      break;
    case TiKind::Scatterv:
      call.counts = is_root ? scaled(a.send_counts, size1) : own_entry_only(bytes(a.recv_count, size2));
      call.element_bytes = size2;
      break;
    case TiKind::Allgatherv:
      call.counts = scaled(a.recv_counts, size2);
      call.element_bytes = size2;
      break;
    case TiKind::Alltoallv:
      call.send_counts = scaled(a.send_counts, size1);
      call.recv_counts = scaled(a.recv_counts, size2);
      break;
    case TiKind::ReduceScatter:
      call.counts = scaled(a.recv_counts, size1);
      break;
    default:
      break;  // barrier: nothing to move
  }
  return call;
}

// ------------------------------------------------------------ one rank

namespace {

// Contexts of communicators a trace defines up front; far from those that
// coll::split_communicator and dup_communicator hand out.
constexpr int kPredefinedContextBase = 1 << 28;

// SimGrid's RequestStorage: pending requests by (src, dst, tag) (plus the
// communicator here), oldest first. An empty slot stands for a request a
// `test` found complete.
// One node per request, in a multimap: requests with the same key stay in
// posting order (insertion goes after the equal ones), and a key needs no
// queue of its own (most keys in a trace name one request).
class RequestStore {
 public:
  using Key = std::tuple<int, int, int, int>;
  void add(const Key& key, std::optional<RequestId> id) { store_.emplace(key, Posted{next_++, id}); }
  // The oldest request with this key; nothing if none was posted.
  std::optional<std::optional<RequestId>> pop(const Key& key) {
    auto it = store_.lower_bound(key);
    if (it == store_.end() || it->first != key) return std::nullopt;
    return take(it);
  }
  // The request posted last (SimGrid before 3.20: wait and test name none);
  // nothing if none is pending.
  std::optional<std::optional<RequestId>> pop_latest() {
    if (store_.empty()) return std::nullopt;
    return take(std::max_element(store_.begin(), store_.end(), by_order));
  }
  // The oldest request of all (SimGrid's waitAny names none); nothing if none is pending.
  std::optional<std::optional<RequestId>> pop_oldest() {
    if (store_.empty()) return std::nullopt;
    return take(std::min_element(store_.begin(), store_.end(), by_order));
  }
  std::vector<RequestId> take_all() {
    std::vector<RequestId> ids;
    ids.reserve(store_.size());
    for (const auto& [key, posted] : store_) {
      if (posted.id) ids.push_back(*posted.id);
    }
    store_.clear();
    return ids;
  }

 private:
  struct Posted {
    std::uint64_t order;  // posting order
    std::optional<RequestId> id;
  };
  using Store = std::multimap<Key, Posted>;
  static bool by_order(const Store::value_type& a, const Store::value_type& b) {
    return a.second.order < b.second.order;
  }
  std::optional<RequestId> take(Store::iterator it) {
    const auto id = it->second.id;
    store_.erase(it);
    return id;
  }
  Store store_;
  std::uint64_t next_ = 0;
};

class RankReplay {
 public:
  RankReplay(Mpi& mpi, ActionSource& source, ReplayShared& shared, const PredefinedCommunicators& predefined)
      : mpi_(mpi), source_(source), shared_(shared) {
    comms_[0] = coll::world_communicator(mpi);
    for (const auto& [id, members] : predefined) {
      auto me = std::find(members.begin(), members.end(), mpi.rank());
      if (me == members.end()) continue;
      coll::Communicator c;
      c.context = kPredefinedContextBase + id;
      c.world_ranks = members;
      c.local_rank = static_cast<int>(me - members.begin());
      comms_[id] = c;
      source_.communicator_created(id, c.size());
    }
  }

  void run() {
    while (auto action = source_.next()) {
      ++shared_.counts()[std::string(ti_action_name(*action))];
      perform(*action);
    }
    mpi_.waitall(requests_.take_all());
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw Error(source_.where(), message); }

  std::uint64_t bytes(std::int64_t count, const std::string& datatype) const {
    if (auto within = ti_bytes_within_limits(count, datatype, default_is_double_)) return *within;
    return ti_bytes(count, datatype, default_is_double_, source_.where());  // throws, naming the line
  }

  coll::Communicator& comm(int id) {
    auto it = comms_.find(id);
    if (it == comms_.end()) fail(fmt::format("communicator {} was not created on rank {}", id, mpi_.rank()));
    return it->second;
  }

  // The world rank of `local` in `c` (any source stays any source).
  int world_peer(const coll::Communicator& c, int local) const {
    if (local < 0) return Mpi::kAnySource;
    if (local >= c.size()) fail(fmt::format("peer {} is not in the communicator ({} ranks)", local, c.size()));
    return c.world_rank(local);
  }

  // At the core's speed, or (--compute measured) as the seconds they took when traced.
  void compute_flops(double flops) {
    if (const auto& speed = shared_.measured_speed()) {
      mpi_.compute_seconds(flops / *speed);
    } else {
      mpi_.compute(flops);
    }
  }

  // The message's datatype: contiguous, or the layout the tracer recorded.
  DatatypeId layout(const TiAction& a) {
    if (a.layout.empty()) return kContiguous;
    std::string error;
    auto type = parse_datatype(a.layout, error);
    if (!type) fail("type=" + a.layout + ": " + error);
    return mpi_.datatype(*type);
  }

  void point_to_point(const TiAction& a) {
    const coll::Communicator& c = comm(a.comm);
    const int peer = world_peer(c, a.peer);
    const std::uint64_t size = bytes(a.count, a.datatype1);
    const int tag = a.tag < 0 ? Mpi::kAnyTag : a.tag;
    switch (a.kind) {
      case TiKind::Send:
        mpi_.wait(mpi_.isend(peer, size, tag, c.context, layout(a)));
        break;
      case TiKind::Isend:
        requests_.add({c.local_rank, a.peer, a.tag, a.comm}, mpi_.isend(peer, size, tag, c.context, layout(a)));
        break;
      case TiKind::Recv:
        mpi_.wait(mpi_.irecv(peer, size, tag, c.context, layout(a)));
        break;
      default:
        requests_.add({a.peer, c.local_rank, a.tag, a.comm}, mpi_.irecv(peer, size, tag, c.context, layout(a)));
    }
  }

  void wait(const TiAction& a) {
    if (a.latest_request) {
      if (auto id = requests_.pop_latest(); id && *id) mpi_.wait(**id);
      return;
    }
    if (auto id = requests_.pop({a.src, a.dst, a.tag, a.comm})) {
      if (*id) mpi_.wait(**id);
      return;
    }
    fail(fmt::format("wait {} {} {}: no isend or irecv with this source, destination and tag is pending", a.src, a.dst,
                     a.tag));
  }

  void test(const TiAction& a) {
    // As SimGrid: a test of nothing pending (an earlier test succeeded) is ignored.
    if (a.latest_request) {
      // Before 3.20: the last request, put back (SimGrid's reqq push_back).
      if (auto id = requests_.pop_latest(); id && *id) {
        const bool done = mpi_.test(**id);
        requests_.add({0, 0, 0, -1}, done ? std::nullopt : *id);
      }
      return;
    }
    const RequestStore::Key key{a.src, a.dst, a.tag, a.comm};
    if (auto id = requests_.pop(key); id && *id) {
      const bool done = mpi_.test(**id);
      requests_.add(key, done ? std::nullopt : *id);
    }
  }

  // SimGrid's sendRecv: an isend and an irecv, both with tag 0 (the trace
  // has no tags; SimGrid's replay uses 0 too), then a wait for both.
  void send_receive(const TiAction& a) {
    const coll::Communicator& c = comm(a.comm);
    const RequestId sent = mpi_.isend(world_peer(c, a.dst), bytes(a.send_count, a.datatype1), 0, c.context);
    const RequestId received = mpi_.irecv(world_peer(c, a.src), bytes(a.recv_count, a.datatype2), 0, c.context);
    mpi_.waitall({sent, received});
  }

  void collective(const TiAction& a) {
    const coll::Communicator& c = comm(a.comm);
    coll::run_collective(mpi_, c, collective_call(a, c, default_is_double_, source_.where()), shared_.collectives());
    // SimGrid's replay computes a reduction's FLOPS after the collective.
    if (a.amount > 0) compute_flops(a.amount);
  }

  // MPI_Comm_split: Open MPI allgathers every member's (color, key) on the
  // parent; each member's pair is in its own file, so the replay shares them
  // (deposited before the allgather, complete once it returns).
  void split(const TiAction& a) {
    coll::Communicator& parent = comm(a.parent);
    const int derivation = parent.derived_count;
    const int color = a.color < 0 ? coll::kUndefinedColor : a.color;
    shared_.deposit(parent.context, derivation, parent.size(), parent.local_rank, coll::ColorKey{color, a.key});
    coll::CollectiveCall exchange;
    exchange.op = coll::CollectiveOp::allgather;
    exchange.bytes = 8;
    exchange.element_bytes = 4;
    coll::run_collective(mpi_, parent, exchange, shared_.collectives());
    auto created = coll::split_communicator(mpi_.contexts(), parent, shared_.take(parent.context, derivation));
    add_communicator(created);
  }

  // MPI_Comm_dup: Open MPI agrees on a context id with an allreduce of an int.
  void dup(const TiAction& a) {
    coll::Communicator& parent = comm(a.parent);
    coll::CollectiveCall agree;
    agree.op = coll::CollectiveOp::allreduce;
    agree.bytes = 4;
    agree.element_bytes = 4;
    coll::run_collective(mpi_, parent, agree, shared_.collectives());
    add_communicator(coll::dup_communicator(mpi_.contexts(), parent));
  }

  // Communicators are numbered on each rank in creation order, as the
  // tracer numbers them (MPI_COMM_NULL from an undefined color takes a number too).
  void add_communicator(const std::optional<coll::Communicator>& created) {
    const int id = ++created_;
    if (!created) return;
    comms_[id] = *created;
    source_.communicator_created(id, created->size());
  }

  void perform(const TiAction& a) {
    if (collective_op(a.kind)) return collective(a);
    switch (a.kind) {
      case TiKind::Init:
        default_is_double_ = a.init_has_argument;
        break;
      case TiKind::Finalize:
      case TiKind::CommSize:
        break;
      case TiKind::Send:
      case TiKind::Isend:
      case TiKind::Recv:
      case TiKind::Irecv:
        point_to_point(a);
        break;
      case TiKind::Wait:
        wait(a);
        break;
      case TiKind::Test:
        test(a);
        break;
      case TiKind::Waitall:
        mpi_.waitall(requests_.take_all());
        break;
      case TiKind::Compute:
        if (a.in_seconds) {
          mpi_.compute_seconds(a.amount);
        } else {
          compute_flops(a.amount);
        }
        break;
      case TiKind::Sleep:
        mpi_.sleep(a.amount);
        break;
      case TiKind::SendRecv:
        send_receive(a);
        break;
      case TiKind::WaitAny:
        if (auto id = requests_.pop_oldest(); id && *id) mpi_.wait(**id);
        break;
      case TiKind::TestAny:
      case TiKind::TestAll:
      case TiKind::TestSome:
        break;  // SimGrid names no request
      case TiKind::Location:
        break;  // where the call was made
      case TiKind::Scan:
      case TiKind::Exscan:
        fail(fmt::format("'{}': SimGrid's replay accepts MPI_Scan and MPI_Exscan, contend does not simulate them",
                         ti_action_name(a)));
      case TiKind::CommSplit:
        split(a);
        break;
      case TiKind::CommDup:
        dup(a);
        break;
      default:
        fail(fmt::format("'{}' cannot be replayed", ti_kind_name(a.kind)));
    }
  }

  Mpi& mpi_;
  ActionSource& source_;
  ReplayShared& shared_;
  std::map<int, coll::Communicator> comms_;
  int created_ = 0;
  RequestStore requests_;
  bool default_is_double_ = false;
};

}  // namespace

void replay_rank(Mpi& mpi, ActionSource& source, ReplayShared& shared, const PredefinedCommunicators& predefined) {
  RankReplay(mpi, source, shared, predefined).run();
}

}  // namespace contend
