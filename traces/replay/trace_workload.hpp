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

namespace contend {

class TraceWorkload : public Workload {
 public:
  // Actions replayed so far, by name (every rank together): coverage reports.
  virtual const std::map<std::string, long long>& action_counts() const = 0;
};

// `collectives`: how the trace's collectives run (--ompi, --coll).
std::unique_ptr<TraceWorkload> open_trace_workload(const std::string& path,
                                                   const coll::CollectiveSettings& collectives = {});

}  // namespace contend
