#pragma once
// One simulation run: builds the SimGrid engine and platform, starts one
// actor per rank, runs the workload under the chosen model, returns the
// per-rank predictions. SimGrid allows one engine per process, so a process
// runs one Simulation.
#include <optional>
#include <string>

#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/results.hpp"
#include "sim/engine/model.hpp"
#include "sim/engine/workload.hpp"

namespace contend {

struct SimulationOptions {
  std::string model = "maxmin";
  std::optional<Progress> progress;  // overrides the platform file's `progress`
  std::string mapping_name = "block";
  bool record_messages = false;  // keep one record per message (--messages)
  double wall_time_limit = 0;    // seconds of real time before giving up; 0 = none
};

// Throws contend::Error on deadlock (naming the blocked ranks and what they
// wait for), on workload errors, and when the wall-time limit is reached.
Results simulate(const Platform& platform, const Mapping& mapping, Workload& workload, const ModelRegistry& models,
                 const SimulationOptions& options);

}  // namespace contend
