#pragma once
// Replays a SimGrid time-independent trace (formats/ti_trace.hpp): each
// rank's actor reads its own file lazily and performs its actions against
// the Mpi handle (rank_replay.hpp), so memory does not grow with the trace.
#include <string>

#include "traces/formats/ti_trace.hpp"
#include "traces/replay/trace_workload.hpp"

namespace contend {

class TiWorkload final : public TraceWorkload {
 public:
  explicit TiWorkload(const std::string& path, const coll::CollectiveSettings& collectives = {},
                      ComputeMode compute = ComputeMode::scaled);

  int rank_count() const override { return files_.ranks(); }
  std::optional<double> recorded_speed() const override { return files_.recorded_speed; }
  std::string description() const override;
  void run(Mpi& mpi) override;

 private:
  TiTraceFiles files_;
};

}  // namespace contend
