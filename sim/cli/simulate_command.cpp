#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "models/dedicated_core/progress_profile.hpp"
#include "models/registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/pattern.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/results.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/workload/pattern_workload.hpp"
#include "traces/replay/trace_workload.hpp"

namespace contend::cli {

long long peak_memory_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<long long>(usage.ru_maxrss) * 1024;
}

namespace {

struct SimulateOptions {
  std::string platform, pattern, trace, mapping = "block", model = "maxmin", progress;
  std::string per_rank, messages, json, progress_profile;
  std::string ompi = "4.1";
  std::string compute = "scaled";
  std::vector<std::string> coll;
  bool oversubscribe = false;
  bool quiet = false;
  bool stats = false;
  double time_limit = 0;
};

coll::CollectiveSettings collective_settings(const SimulateOptions& o) {
  coll::CollectiveSettings settings;
  settings.version = coll::parse_ompi_version(o.ompi);
  coll::apply_coll_options(settings, o.coll);
  return settings;
}

// One line per collective step: the algorithm it runs and why.
void print_collective_choices(const PatternWorkload& workload) {
  for (const auto& step : workload.pattern().steps) {
    if (const auto* call = std::get_if<coll::CollectiveCall>(&step.content)) {
      fmt::print("collective: {}\n", coll::describe_choice(*call, workload.rank_count(), workload.collectives()));
    }
  }
}

int run_simulate(const SimulateOptions& o) {
  const auto begin = std::chrono::steady_clock::now();
  const coll::CollectiveSettings collectives = collective_settings(o);
  const Platform platform = read_platform(o.platform);
  all_models().validate_platform(platform);
  std::unique_ptr<Workload> workload_owner;
  TraceWorkload* trace = nullptr;
  const PatternWorkload* pattern = nullptr;
  if (!o.trace.empty()) {
    const ComputeMode compute = compute_mode_by_name(o.compute);
    auto opened = open_trace_workload(o.trace, collectives, compute);
    if (auto note = compute_note(*opened, platform.nodes.core_speed, compute))
      std::cerr << "contend: note: " << *note << "\n";
    trace = opened.get();
    workload_owner = std::move(opened);
  } else {
    auto read = std::make_unique<PatternWorkload>(read_pattern(o.pattern), collectives);
    pattern = read.get();
    workload_owner = std::move(read);
  }
  Workload& workload = *workload_owner;
  const Mapping mapping = make_mapping(o.mapping, workload.rank_count(), platform.nodes, o.oversubscribe);
  const auto inputs_read = std::chrono::steady_clock::now();

  SimulationOptions options;
  options.model = o.model;
  if (!o.progress.empty()) options.progress = progress_by_name(o.progress);
  options.mapping_name = o.mapping;
  options.record_messages = !o.messages.empty();
  options.wall_time_limit = o.time_limit;
  const Results results = simulate(platform, mapping, workload, all_models(), options);
  const auto simulated = std::chrono::steady_clock::now();

  if (!o.per_rank.empty()) write_file_atomically(o.per_rank, [&](std::ostream& out) { write_rank_csv(out, results); });
  if (!o.messages.empty())
    write_file_atomically(o.messages, [&](std::ostream& out) { write_messages_csv(out, results); });
  if (!o.json.empty()) write_file_atomically(o.json, [&](std::ostream& out) { write_json(out, results); });
  if (!o.progress_profile.empty()) {
    write_file_atomically(o.progress_profile,
                          [&](std::ostream& out) { write_progress_profile(out, profile_of(results)); });
  }
  if (!o.quiet) print_summary(std::cout, results);
  if (!o.quiet && trace) {
    std::string actions;
    for (const auto& [name, count] : trace->action_counts()) actions += fmt::format(" {} {}", name, count);
    fmt::print("  trace actions  {}\n", actions);
  }
  if (o.stats) {
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - begin;
    const std::chrono::duration<double> reading = inputs_read - begin;
    const std::chrono::duration<double> simulation = simulated - inputs_read;
    const double msgs = static_cast<double>(results.total_messages());
    fmt::print(
        "stats: wall {:.3f} s (inputs {:.3f} s, simulation {:.3f} s), peak memory {:.1f} MiB, {} messages, "
        "{:.0f} messages/s simulated\n",
        wall.count(), reading.count(), simulation.count(), static_cast<double>(peak_memory_bytes()) / 1048576.0,
        results.total_messages(), simulation.count() > 0 ? msgs / simulation.count() : 0.0);
    if (pattern) print_collective_choices(*pattern);
  }
  return 0;
}

}  // namespace

Action add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  auto* cmd = app.add_subcommand("simulate", "Predict per-rank communication times of a workload on a platform");
  add_platform_option(*cmd, o->platform);
  auto* pattern = cmd->add_option("--pattern", o->pattern, "Many-pair pattern file: 'src dst bytes' per line");
  auto* trace =
      cmd->add_option("--trace", o->trace, "Trace to replay: SimGrid TI index or single file, or OTF2 anchor (*.otf2)");
  pattern->excludes(trace);
  trace->excludes(pattern);
  cmd->callback([pattern, trace] {
    if (pattern->count() == 0 && trace->count() == 0) throw CLI::RequiredError("--pattern or --trace");
  });
  cmd->add_option("--compute", o->compute,
                  "scaled | measured: a trace's computation in flops at the platform's core speed, or as the "
                  "seconds recorded (the tracer's CONTEND_TRACE_SPEED)")
      ->capture_default_str()
      ->check(CLI::IsMember(compute_mode_names()))
      ->needs(trace);
  add_mapping_option(*cmd, o->mapping);
  add_model_option(*cmd, o->model);
  add_oversubscribe_flag(*cmd, o->oversubscribe);
  add_progress_option(*cmd, o->progress);
  cmd->add_option("--per-rank", o->per_rank, "Write rank,node,socket,core,recv_time,send_time,total_time CSV");
  cmd->add_option("--messages", o->messages, "Write src,dst,bytes,level,start,end CSV (one line per message)");
  cmd->add_option("--json", o->json, "Write the summary and per-rank times as JSON");
  cmd->add_option("--progress-profile", o->progress_profile,
                  "Write each rank's time per kind of MPI call (Denis et al.'s profile, for 'contend progress')");
  cmd->add_option("--time-limit", o->time_limit, "Give up after this many seconds of wall-clock time")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--ompi", o->ompi,
                  "3.1 | 4.1: whose fixed decision rules pick collective algorithms (3.1 differs for bcast)")
      ->capture_default_str();
  cmd->add_option("--coll", o->coll,
                  "OP=ALG[:SEGSIZE[:FANOUT]] forces a collective algorithm, e.g. bcast=chain:8K:4 or bcast=2 "
                  "(Open MPI id); repeatable");
  add_quiet_flag(*cmd, o->quiet);
  cmd->add_flag("--stats", o->stats, "Print wall time, peak memory and messages simulated per second");
  return [o] { return run_simulate(*o); };
}

}  // namespace contend::cli
