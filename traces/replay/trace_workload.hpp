#pragma once
// Workloads replayed from traces: SimGrid TI traces (ti_workload.hpp) and
// OTF2 archives (otf2_workload.hpp). `contend simulate --trace PATH` opens
// either: a path ending in .otf2 is an OTF2 anchor file, anything else a TI
// index or single TI file.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sim/collectives/collectives.hpp"
#include "sim/engine/workload.hpp"
#include "traces/replay/rank_replay.hpp"

namespace contend {

// How a trace's computation is replayed (`--compute`): `scaled`, its flops at
// the platform's core speed (SimGrid's rule, the default); `measured`, the
// seconds the traced run spent, its flops divided by the speed the tracer
// recorded them at (`# contend-trace compute-speed`, ti_trace.hpp). OTF2
// archives record seconds: both modes replay them as measured.
enum class ComputeMode { scaled, measured };
const std::vector<std::string>& compute_mode_names();  // "scaled", "measured"
ComputeMode compute_mode_by_name(std::string_view name);

class TraceWorkload : public Workload {
 public:
  // Actions replayed so far, by name (every rank together): coverage reports.
  const std::map<std::string, long long>& action_counts() const { return shared_.counts(); }
  // The flop/s at which the trace's computation was turned into flops, when it says.
  virtual std::optional<double> recorded_speed() const { return std::nullopt; }

 protected:
  // `collectives`: how the trace's collectives run.
  explicit TraceWorkload(const coll::CollectiveSettings& collectives) : shared_(collectives) {}
  ReplayShared shared_;  // what the ranks' actors share
};

// `collectives`: how the trace's collectives run (--ompi, --coll); `compute`:
// how its computation does (measured needs a recorded speed: an error otherwise).
std::unique_ptr<TraceWorkload> open_trace_workload(const std::string& path,
                                                   const coll::CollectiveSettings& collectives = {},
                                                   ComputeMode compute = ComputeMode::scaled);

// A note for the user when the replay rescales the trace's computation
// (recorded at one speed, replayed on cores of another): nothing otherwise.
std::optional<std::string> compute_note(const TraceWorkload& trace, double core_speed, ComputeMode compute);

}  // namespace contend
