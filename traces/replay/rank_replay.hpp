#pragma once
// Replays one rank's actions (TI lines, or OTF2 events turned into them)
// against the Mpi handle, with SimGrid 3.32's replay semantics
// (smpi_replay.cpp): requests are stored by (src, dst, tag, communicator) and
// `wait`/`test` take the oldest one with that key; `waitall` waits for every
// stored request; a `wait` whose request an earlier `test` completed returns
// at once; requests still pending at the end are waited for. Collectives run
// as Open MPI's algorithms (sim/collectives, coll::run_collective).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/collectives/collectives.hpp"
#include "traces/formats/ti_trace.hpp"

namespace contend {

class Mpi;

// Where a rank's actions come from.
class ActionSource {
 public:
  virtual ~ActionSource() = default;
  virtual std::optional<TiAction> next() = 0;
  virtual SourceLocation where() const = 0;
  // The replay created communicator `id` of `size` ranks on this rank.
  virtual void communicator_created(int /*id*/, int /*size*/) {}
};

// Communicators the trace defines with their members (OTF2 definitions):
// id -> world ranks in communicator order. They get contexts of their own.
using PredefinedCommunicators = std::map<int, std::vector<int>>;

// What every rank's replay shares: how collectives run (--ompi, --coll),
// the (color, key) pairs of comm_split calls, which each member reads from
// its own file, and action counts.
class ReplayShared {
 public:
  explicit ReplayShared(coll::CollectiveSettings collectives = {}) : collectives_(std::move(collectives)) {}
  const coll::CollectiveSettings& collectives() const { return collectives_; }
  // --compute measured: flops become seconds at the speed the trace recorded.
  void replay_flops_as_seconds(double recorded_speed) { measured_speed_ = recorded_speed; }
  const std::optional<double>& measured_speed() const { return measured_speed_; }

  // Member `local_rank` of a split of `parent_context` (its `derivation`-th
  // derived communicator) gives its pair; `members` is the parent's size.
  void deposit(int parent_context, int derivation, int members, int local_rank, coll::ColorKey pair);
  // Every member's pair; valid once all members deposited. The last of the
  // members to take them frees the entry.
  std::vector<coll::ColorKey> take(int parent_context, int derivation);

  std::map<std::string, long long>& counts() { return counts_; }
  const std::map<std::string, long long>& counts() const { return counts_; }

 private:
  struct Split {
    std::vector<coll::ColorKey> pairs;
    int deposited = 0;
    int taken = 0;
  };
  coll::CollectiveSettings collectives_;
  std::optional<double> measured_speed_;
  std::map<std::pair<int, int>, Split> splits_;
  std::map<std::string, long long> counts_;
};

// Runs `mpi.rank()`'s actions from `source` to the end.
void replay_rank(Mpi& mpi, ActionSource& source, ReplayShared& shared, const PredefinedCommunicators& predefined = {});

// The collective call a TI collective line stands for, on `comm`
// (bytes from counts and datatypes; see ti_trace.hpp for the lines).
coll::CollectiveCall collective_call(const TiAction& action, const coll::Communicator& comm, bool default_is_double,
                                     const SourceLocation& where);

}  // namespace contend
