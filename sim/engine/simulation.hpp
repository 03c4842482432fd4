#pragma once
// One simulation run: builds the SimGrid engine and platform, starts one
// actor per rank, runs the workload under the chosen model, returns the
// per-rank predictions. SimGrid allows one engine per process, so a process
// runs one Simulation.
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>

#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/results.hpp"
#include "sim/engine/model.hpp"
#include "sim/engine/workload.hpp"

namespace contend {

// A line on `out` rewritten in place ('\r') while a long run goes on:
// simulated time, messages delivered of posted, wall time, rate. The
// command line enables it when stderr is a terminal and --quiet is absent.
struct ProgressLineOptions {
  bool enabled = false;
  double after_seconds = 2;    // first line once the run has taken this long
  double every_seconds = 0.5;  // then at most this often
  std::FILE* out = stderr;
};

struct SimulationOptions {
  std::string model = "maxmin";
  std::optional<Progress> progress;  // overrides the platform file's `progress`
  std::string mapping_name = "block";
  bool record_messages = false;  // keep one record per message (--messages)
  bool record_timeline = false;  // keep each rank's spans and every message (--timeline, --paje)
  // Print every instant at which a flow starts or ends, with the rates
  // (--step, sim/engine/step_log.hpp); null: none.
  std::ostream* step_out = nullptr;
  // Record what bounded each message, interval by interval (--explain;
  // Results::attribution). Off: nothing is recorded, no cost.
  bool attribution = false;
  double wall_time_limit = 0;  // seconds of real time before giving up; 0 = none
  ProgressLineOptions progress_line;
};

// Throws contend::Error on deadlock (naming the blocked ranks and what they
// wait for), on workload errors, and when the wall-time limit is reached.
Results simulate(const Platform& platform, const Mapping& mapping, Workload& workload, const ModelRegistry& models,
                 const SimulationOptions& options);

}  // namespace contend
