#include "sim/cli/workload_input.hpp"

#include "sim/workload/pattern_workload.hpp"
#include "traces/replay/trace_workload.hpp"

namespace contend::cli {

void add_workload_options(CLI::App& cmd, WorkloadInput& input) {
  auto* pattern = cmd.add_option("--pattern", input.pattern, "Many-pair pattern file: 'src dst bytes' per line");
  auto* trace = cmd.add_option("--trace", input.trace,
                               "Trace to replay: SimGrid TI index or single file, or OTF2 anchor (*.otf2)");
  pattern->excludes(trace);
  trace->excludes(pattern);
  cmd.callback([pattern, trace] {
    if (pattern->count() == 0 && trace->count() == 0) throw CLI::RequiredError("--pattern or --trace");
  });
  cmd.add_option("--compute", input.compute,
                 "scaled | measured: a trace's computation in flops at the platform's core speed, or as the "
                 "seconds recorded (the tracer's CONTEND_TRACE_SPEED)")
      ->capture_default_str()
      ->check(CLI::IsMember(compute_mode_names()))
      ->needs(trace);
}

void add_collective_options(CLI::App& cmd, WorkloadInput& input) {
  cmd.add_option("--ompi", input.ompi,
                 "3.1 | 4.1: whose fixed decision rules pick collective algorithms (3.1 differs for bcast)")
      ->capture_default_str();
  cmd.add_option("--coll", input.coll,
                 "OP=ALG[:SEGSIZE[:FANOUT]] forces a collective algorithm, e.g. bcast=chain:8K:4 or bcast=2 "
                 "(Open MPI id); repeatable");
}

coll::CollectiveSettings collective_settings(const WorkloadInput& input) {
  coll::CollectiveSettings settings;
  settings.version = coll::parse_ompi_version(input.ompi);
  coll::apply_coll_options(settings, input.coll);
  return settings;
}

WorkloadSource::WorkloadSource(const WorkloadInput& input) : input_(input), collectives_(collective_settings(input)) {
  if (!input.trace.empty()) {
    const auto opened = open_trace_workload(input.trace, collectives_, compute_mode_by_name(input.compute));
    ranks_ = opened->rank_count();
    description_ = opened->description();
  } else {
    pattern_ = read_pattern(input.pattern);
    ranks_ = pattern_->ranks;
    description_ = describe(*pattern_);
  }
}

std::unique_ptr<Workload> WorkloadSource::make() const {
  if (pattern_) return std::make_unique<PatternWorkload>(*pattern_, collectives_);
  return open_trace_workload(input_.trace, collectives_, compute_mode_by_name(input_.compute));
}

}  // namespace contend::cli
