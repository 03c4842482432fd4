#pragma once
// A pattern step that runs one MPI collective on MPI_COMM_WORLD, with the
// algorithms and decision rules of the run's collective settings (--ompi,
// --coll).
#include "sim/collectives/collectives.hpp"
#include "sim/workload/pattern_workload.hpp"

namespace contend {

class CollectiveStep final : public PatternStep {
 public:
  // For alltoallv, `call.counts[i]` is what rank i sends to every peer; the
  // step expands it into each rank's send and receive counts. `settings`
  // must outlive the step (the workload holds both).
  CollectiveStep(const coll::CollectiveCall& call, const coll::CollectiveSettings& settings)
      : call_(call), settings_(settings) {}
  void run(Mpi& mpi) const override;

 private:
  const coll::CollectiveCall& call_;
  const coll::CollectiveSettings& settings_;
};

}  // namespace contend
