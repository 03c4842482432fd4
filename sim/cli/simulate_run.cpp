#include "sim/cli/simulate_run.hpp"

#include <time.h>

#include <iostream>

#include "models/registry.hpp"
#include "sim/core/hosts.hpp"
#include "sim/core/mapping.hpp"
#include "sim/workload/pattern_workload.hpp"
#include "traces/replay/trace_workload.hpp"

namespace contend::cli {

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

SimulateRun run_simulation(const Platform& platform, const SimulateRequest& r) {
  SimulateRun run;
  run.began = std::chrono::steady_clock::now();
  const coll::CollectiveSettings collectives = collective_settings(r.workload);
  all_models().validate_platform(platform);
  if (!r.workload.trace.empty()) {
    const ComputeMode compute = compute_mode_by_name(r.workload.compute);
    auto opened = open_trace_workload(r.workload.trace, collectives, compute);
    if (auto note = compute_note(*opened, platform.nodes.core_speed, compute))
      std::cerr << "contend: note: " << *note << "\n";
    run.trace = opened.get();
    run.workload = std::move(opened);
  } else {
    auto read = std::make_unique<PatternWorkload>(read_pattern(r.workload.pattern), collectives);
    run.pattern = read.get();
    run.workload = std::move(read);
  }
  const Mapping mapping =
      make_mapping(r.mapping, run.workload->rank_count(), machine_of(platform, r.hosts), r.oversubscribe);
  run.inputs_read = std::chrono::steady_clock::now();
  run.cpu_inputs_read = process_cpu_seconds();

  run.model = choose_model(r.model, platform);
  run.options.model = run.model.name;
  if (!r.progress.empty()) run.options.progress = progress_by_name(r.progress);
  run.options.mapping_name = r.mapping;
  run.options.record_messages = r.record_messages;
  run.options.attribution = r.attribution || r.html_report;
  run.options.record_timeline = r.record_timeline || r.html_report;
  run.options.step_out = r.step_out;
  run.options.wall_time_limit = r.time_limit;
  run.options.progress_line.enabled = r.progress_line;
  run.options.progress_line.after_seconds = r.progress_line_after;
  run.results = simulate(platform, mapping, *run.workload, all_models(), run.options);
  if (run.model.source == ModelChoice::Source::PlatformDefault)
    run.results.model_origin = run.model.source_text(platform);
  run.simulated = std::chrono::steady_clock::now();
  run.cpu_simulated = process_cpu_seconds();
  return run;
}

}  // namespace contend::cli
