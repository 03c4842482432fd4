#pragma once
// Replays an OTF2 archive of an MPI program (formats/otf2_trace.hpp): each
// rank's actor reads its own location's events lazily and replays them as
// TI actions (rank_replay.hpp).
#include <string>

#include "traces/formats/otf2_trace.hpp"
#include "traces/replay/trace_workload.hpp"

namespace contend {

class Otf2Workload final : public TraceWorkload {
 public:
  explicit Otf2Workload(const std::string& anchor, const coll::CollectiveSettings& collectives = {});

  int rank_count() const override { return defs_.ranks(); }
  std::string description() const override;
  void run(Mpi& mpi) override;

 private:
  Otf2Definitions defs_;
};

}  // namespace contend
