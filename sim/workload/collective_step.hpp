#pragma once
// A pattern step that runs one MPI collective on MPI_COMM_WORLD, with the
// algorithms and decision rules of the run's collective settings
// (Mpi::collective_settings: --ompi, --coll).
#include <string>

#include "collectives/collectives.hpp"
#include "workload/pattern_workload.hpp"

namespace contend {

class CollectiveStep final : public PatternStep {
 public:
  // For alltoallv, `call.counts[i]` is what rank i sends to every peer; the
  // step expands it into each rank's send and receive counts.
  explicit CollectiveStep(coll::CollectiveCall call) : call_(std::move(call)) {}
  void run(Mpi& mpi) const override;
  std::string summary() const override;
  const coll::CollectiveCall& call() const { return call_; }

 private:
  coll::CollectiveCall call_;
};

}  // namespace contend
