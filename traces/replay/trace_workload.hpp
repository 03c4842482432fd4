#pragma once
// Workloads replayed from traces: SimGrid TI traces (ti_workload.hpp) and
// OTF2 archives (otf2_workload.hpp). `contend simulate --trace PATH` opens
// either: a path ending in .otf2 is an OTF2 anchor file, anything else a TI
// index or single TI file.
#include <map>
#include <memory>
#include <string>

#include "sim/collectives/collectives.hpp"
#include "sim/engine/workload.hpp"
#include "traces/replay/rank_replay.hpp"

namespace contend {

class TraceWorkload : public Workload {
 public:
  // Actions replayed so far, by name (every rank together): coverage reports.
  const std::map<std::string, long long>& action_counts() const { return shared_.counts(); }

 protected:
  // `collectives`: how the trace's collectives run.
  explicit TraceWorkload(const coll::CollectiveSettings& collectives) : shared_(collectives) {}
  ReplayShared shared_;  // what the ranks' actors share
};

// `collectives`: how the trace's collectives run (--ompi, --coll).
std::unique_ptr<TraceWorkload> open_trace_workload(const std::string& path,
                                                   const coll::CollectiveSettings& collectives = {});

}  // namespace contend
