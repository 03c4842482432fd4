#pragma once
// Replays a SimGrid time-independent trace (formats/ti_trace.hpp): each
// rank's actor reads its own file lazily and performs its actions against
// the Mpi handle, so memory does not grow with the trace's length.
//
// Semantics follow SimGrid 3.32's replay (smpi_replay.cpp): requests are
// stored by (src, dst, tag) and `wait`/`test` take the oldest one with that
// key; `waitall` waits for every stored request; a `wait` whose request an
// earlier `test` completed returns at once; requests still pending at the
// end of the file are waited for.
#include <map>
#include <memory>
#include <string>

#include "formats/ti_trace.hpp"
#include "workload/workload.hpp"

namespace contend {

class TiWorkload final : public Workload {
 public:
  explicit TiWorkload(const std::string& path);

  int rank_count() const override { return files_.ranks(); }
  std::string description() const override;
  void run(Mpi& mpi) override;

  // Actions replayed so far, by name (every rank together): coverage reports.
  const std::map<std::string, long long>& action_counts() const { return counts_; }

 private:
  TiTraceFiles files_;
  std::map<std::string, long long> counts_;
};

}  // namespace contend
