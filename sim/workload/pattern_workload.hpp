#pragma once
// Pattern workloads: the steps of a pattern file (sim/core/pattern.hpp)
// bound to the simulator's MPI layer. Every rank takes the steps in turn
// (each rank starts a step when it has finished the previous one; no
// implicit barrier):
//  - an exchange is Thune et al.'s Algorithm 2: every rank posts MPI_Isend
//    for its outgoing messages (file order), then MPI_Irecv for its incoming
//    ones, then waits for the sends, then for the receives. A message with a
//    start offset is sent that long after the step began (after the receives
//    are posted), as in Martinasso's staggered patterns. Overlapping compute
//    steps run after the last post and before the waits;
//  - a compute step computes on its ranks;
//  - a collective step runs the collective on MPI_COMM_WORLD with the
//    algorithms and decision rules of the run's collective settings.
#include <memory>
#include <string>
#include <vector>

#include "sim/collectives/collectives.hpp"
#include "sim/core/pattern.hpp"
#include "sim/engine/workload.hpp"

namespace contend {

// One step as a rank runs it.
class PatternStep {
 public:
  virtual ~PatternStep() = default;
  virtual void run(Mpi& mpi) const = 0;
};

class PatternWorkload final : public Workload {
 public:
  // `collectives`: how collective steps run (--ompi, --coll).
  explicit PatternWorkload(Pattern pattern, coll::CollectiveSettings collectives = {});
  // A workload of one exchange.
  explicit PatternWorkload(const ManyPairPattern& exchange);
  // The steps refer to the pattern the workload holds.
  PatternWorkload(const PatternWorkload&) = delete;
  PatternWorkload& operator=(const PatternWorkload&) = delete;

  int rank_count() const override { return pattern_.ranks; }
  std::string description() const override { return describe(pattern_); }
  std::uint64_t expected_messages() const override { return pattern_.message_count(); }
  void run(Mpi& mpi) override;
  // Exchanges receive from named ranks; only collectives may take any source.
  bool receives_from_any_source() const override;
  const Pattern& pattern() const { return pattern_; }
  const coll::CollectiveSettings& collectives() const { return collectives_; }

 private:
  Pattern pattern_;
  coll::CollectiveSettings collectives_;
  std::vector<std::unique_ptr<PatternStep>> steps_;
};

}  // namespace contend
