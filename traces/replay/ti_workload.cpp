#include "replay/ti_workload.hpp"

#include <deque>
#include <fmt/format.h>
#include <optional>
#include <tuple>
#include <vector>

#include "engine/mpi.hpp"

namespace contend {

namespace {

// SimGrid's RequestStorage: pending requests by (src, dst, tag), oldest
// first. An empty slot stands for a request a `test` found complete.
class RequestStore {
 public:
  using Key = std::tuple<int, int, int>;
  void add(const Key& key, std::optional<RequestId> id) { store_[key].push_back(id); }
  // The oldest request with this key; nothing if none was posted.
  std::optional<std::optional<RequestId>> pop(const Key& key) {
    auto it = store_.find(key);
    if (it == store_.end()) return std::nullopt;
    auto id = it->second.front();
    it->second.pop_front();
    if (it->second.empty()) store_.erase(it);
    return id;
  }
  std::vector<RequestId> take_all() {
    std::vector<RequestId> ids;
    for (auto& [key, queue] : store_) {
      for (auto id : queue) {
        if (id) ids.push_back(*id);
      }
    }
    store_.clear();
    return ids;
  }
  bool empty() const { return store_.empty(); }

 private:
  std::map<Key, std::deque<std::optional<RequestId>>> store_;
};

class RankReplay {
 public:
  RankReplay(Mpi& mpi, const TiTraceFiles& files, std::map<std::string, long long>& counts)
      : mpi_(mpi), reader_(files, mpi.rank()), counts_(counts) {}

  void run() {
    while (auto action = reader_.next()) {
      ++counts_[std::string(ti_kind_name(action->kind))];
      perform(*action);
    }
    mpi_.waitall(requests_.take_all());
  }

 private:
  std::uint64_t bytes(std::int64_t count, const std::string& datatype) const {
    return ti_bytes(count, datatype, default_is_double_, reader_.where());
  }
  [[noreturn]] void fail(const std::string& message) const { throw Error(reader_.where(), message); }

  void perform(const TiAction& a) {
    if (a.comm != 0) fail(fmt::format("communicator {} was never created on rank {}", a.comm, a.rank));
    const int me = mpi_.rank();
    switch (a.kind) {
      case TiKind::Init:
        default_is_double_ = a.init_has_argument;
        break;
      case TiKind::Finalize:
      case TiKind::CommSize:
        break;
      case TiKind::Send:
        mpi_.wait(mpi_.isend(a.peer, bytes(a.count, a.datatype1), a.tag, Mpi::kCommWorld, layout(a)));
        break;
      case TiKind::Isend:
        requests_.add({me, a.peer, a.tag},
                      mpi_.isend(a.peer, bytes(a.count, a.datatype1), a.tag, Mpi::kCommWorld, layout(a)));
        break;
      case TiKind::Recv:
        mpi_.wait(mpi_.irecv(peer(a.peer), bytes(a.count, a.datatype1), tag(a.tag), Mpi::kCommWorld, layout(a)));
        break;
      case TiKind::Irecv:
        requests_.add({a.peer, me, a.tag},
                      mpi_.irecv(peer(a.peer), bytes(a.count, a.datatype1), tag(a.tag), Mpi::kCommWorld, layout(a)));
        break;
      case TiKind::Wait:
        if (auto id = requests_.pop({a.src, a.dst, a.tag})) {
          if (*id) mpi_.wait(**id);
        } else {
          fail(fmt::format("wait {} {} {}: no isend or irecv with this source, destination and tag is pending", a.src,
                           a.dst, a.tag));
        }
        break;
      case TiKind::Test:
        // As SimGrid: a test of nothing pending (an earlier test succeeded) is ignored.
        if (auto id = requests_.pop({a.src, a.dst, a.tag}); id && *id) {
          const bool done = mpi_.test(**id);
          requests_.add({a.src, a.dst, a.tag}, done ? std::nullopt : *id);
        }
        break;
      case TiKind::Waitall:
        mpi_.waitall(requests_.take_all());
        break;
      case TiKind::Compute:
        mpi_.compute(a.amount);
        break;
      case TiKind::Sleep:
        mpi_.sleep(a.amount);
        break;
      default:
        fail(fmt::format("'{}' is not replayed yet", ti_kind_name(a.kind)));
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
  static int peer(int p) { return p < 0 ? Mpi::kAnySource : p; }
  static int tag(int t) { return t < 0 ? Mpi::kAnyTag : t; }

  Mpi& mpi_;
  TiRankReader reader_;
  std::map<std::string, long long>& counts_;
  RequestStore requests_;
  bool default_is_double_ = false;
};

}  // namespace

TiWorkload::TiWorkload(const std::string& path) : files_(open_ti_trace(path)) {}

std::string TiWorkload::description() const {
  return fmt::format("TI trace {} ({})", files_.path, files_.single_file ? "one file" : "index of rank files");
}

void TiWorkload::run(Mpi& mpi) { RankReplay(mpi, files_, counts_).run(); }

}  // namespace contend
