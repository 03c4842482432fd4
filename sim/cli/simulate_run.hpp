#pragma once
// One simulation as `contend simulate` runs it: the platform (read by the
// caller: from its file, or a sweep case's text with overrides), the
// workload, the mapping and the options. `contend simulate` and every case
// of `contend sweep` run through here, so a sweep's row is what simulate
// says for the same inputs.
#include <chrono>
#include <iosfwd>
#include <memory>
#include <string>

#include "sim/cli/options.hpp"
#include "sim/cli/workload_input.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/results.hpp"
#include "sim/engine/simulation.hpp"

namespace contend {
class PatternWorkload;
class TraceWorkload;
}  // namespace contend

namespace contend::cli {

struct SimulateRequest {
  std::string mapping = "block", model, progress, hosts;
  WorkloadInput workload;
  bool oversubscribe = false;
  double time_limit = 0;             // seconds of wall-clock time; 0 = none
  bool record_messages = false;      // --messages
  bool attribution = false;          // --explain, --attribution
  bool record_timeline = false;      // --timeline, --paje
  bool html_report = false;          // --html: records the timeline and the attribution
  std::ostream* step_out = nullptr;  // --step: every event printed there
  bool progress_line = false;        // the line on a terminal's stderr
  double progress_line_after = 2;    // seconds of simulation before its first line
};

struct SimulateRun {
  std::unique_ptr<Workload> workload;
  const TraceWorkload* trace = nullptr;      // when the workload is a trace
  const PatternWorkload* pattern = nullptr;  // when it is a pattern
  ModelChoice model;                         // --model, else the platform's default_model, else maxmin
  SimulationOptions options;
  Results results;
  std::chrono::steady_clock::time_point began, inputs_read, simulated;
  // The process's CPU time (user + system) at the same points (--stats: on a
  // loaded machine wall time says little about the run's own cost).
  double cpu_inputs_read = 0, cpu_simulated = 0;
};

// CPU time (user + system) the process has used so far, in seconds.
double process_cpu_seconds();

// The inputs every command that runs `simulate`'s simulation shares
// (--mapping, --model, --progress, --hosts, the workload, --oversubscribe),
// copied from that command's options.
template <class CommandOptions>
SimulateRequest simulate_request(const CommandOptions& o) {
  SimulateRequest request;
  request.mapping = o.mapping;
  request.model = o.model;
  request.progress = o.progress;
  request.hosts = o.hosts;
  request.workload = o.workload;
  request.oversubscribe = o.oversubscribe;
  return request;
}

// Registers those shared inputs' options on `cmd`, in simulate's order.
template <class CommandOptions>
void add_simulation_input_options(CLI::App& cmd, CommandOptions& o) {
  add_platform_option(cmd, o.platform);
  add_workload_options(cmd, o.workload);
  add_mapping_option(cmd, o.mapping);
  add_model_option(cmd, o.model);
  add_oversubscribe_flag(cmd, o.oversubscribe);
  add_hosts_option(cmd, o.hosts);
  add_progress_option(cmd, o.progress);
}

// Validates the platform's model sections, opens the workload, maps its
// ranks and simulates. Throws contend::Error on bad input.
SimulateRun run_simulation(const Platform& platform, const SimulateRequest& request);

}  // namespace contend::cli
