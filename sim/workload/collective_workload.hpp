#pragma once
// A workload of one collective call on MPI_COMM_WORLD, every rank taking
// part, with the given algorithm settings (e.g. a forced broadcast
// algorithm, as `contend select --simulate` runs each in turn).
#include <string>

#include "sim/collectives/collectives.hpp"
#include "sim/engine/workload.hpp"

namespace contend {

class CollectiveWorkload final : public Workload {
 public:
  CollectiveWorkload(int ranks, coll::CollectiveCall call, coll::CollectiveSettings settings)
      : ranks_(ranks), call_(std::move(call)), settings_(std::move(settings)) {}
  int rank_count() const override { return ranks_; }
  std::string description() const override { return coll::summary(call_); }
  void run(Mpi& mpi) override;

 private:
  int ranks_;
  coll::CollectiveCall call_;
  coll::CollectiveSettings settings_;
};

}  // namespace contend
