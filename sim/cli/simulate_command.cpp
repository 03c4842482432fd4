#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "models/dedicated_core/progress_profile.hpp"
#include "models/registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/simulate_run.hpp"
#include "sim/cli/workload_input.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/html_report.hpp"
#include "sim/core/pattern.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/results.hpp"
#include "sim/core/timeline.hpp"
#include "sim/core/units.hpp"
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
  std::string platform, mapping = "block", model, progress, hosts;  // model: empty unless --model
  WorkloadInput workload;
  std::string per_rank, messages, json, progress_profile, timeline, paje, explain, html;
  bool attribution = false;
  bool oversubscribe = false;
  bool quiet = false;
  bool stats = false;
  bool step = false;
  double time_limit = 0;
};

// The options the run used, defaults included, for the JSON output.
nlohmann::ordered_json options_used(const SimulateOptions& o, const SimulationOptions& run, const Platform& platform) {
  nlohmann::ordered_json j;
  j["platform"] = o.platform;
  if (o.workload.trace.empty()) {
    j["pattern"] = o.workload.pattern;
  } else {
    j["trace"] = o.workload.trace;
  }
  j["model"] = run.model;
  j["mapping"] = o.mapping;
  if (!o.hosts.empty()) j["hosts"] = o.hosts;
  j["oversubscribe"] = o.oversubscribe;
  j["progress"] = std::string(progress_name(run.progress.value_or(platform.progress)));
  j["ompi"] = o.workload.ompi;
  j["coll"] = o.workload.coll;
  if (!o.workload.trace.empty()) j["compute"] = o.workload.compute;
  j["time_limit_s"] = o.time_limit;
  return j;
}

// The same as key and text pairs, for the HTML report's summary.
std::vector<std::pair<std::string, std::string>> option_texts(const nlohmann::ordered_json& options) {
  std::vector<std::pair<std::string, std::string>> texts;
  for (const auto& [key, value] : options.items()) {
    texts.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
  }
  return texts;
}

// One line per collective step: the algorithm it runs and why.
void print_collective_choices(const PatternWorkload& workload) {
  for (const auto& step : workload.pattern().steps) {
    if (const auto* call = std::get_if<coll::CollectiveCall>(&step.content)) {
      fmt::print("collective: {}\n", coll::describe_choice(*call, workload.rank_count(), workload.collectives()));
    }
  }
}

// CONTEND_PROGRESS_AFTER: seconds before the progress line's first showing
// (2 without it); a test or a demonstration sets 0 to see it on a short run.
double progress_line_after() {
  const char* text = std::getenv("CONTEND_PROGRESS_AFTER");
  if (text == nullptr) return 2;
  const auto seconds = units::parse_duration(text);
  if (!seconds) {
    throw Error(fmt::format(
        "environment variable CONTEND_PROGRESS_AFTER: expected a duration such as 0 or 2s, got '{}'", text));
  }
  return *seconds;
}

int run_simulate(const SimulateOptions& o) {
  const auto begin = std::chrono::steady_clock::now();
  const double cpu_begin = process_cpu_seconds();
  collective_settings(o.workload);  // --ompi and --coll are checked before the platform is read
  const Platform platform = read_platform(o.platform);
  SimulateRequest request = simulate_request(o);
  request.time_limit = o.time_limit;
  request.record_messages = !o.messages.empty();
  request.attribution = o.attribution || !o.explain.empty();
  request.record_timeline = !o.timeline.empty() || !o.paje.empty();
  request.html_report = !o.html.empty();
  if (o.step) request.step_out = &std::cout;
  request.progress_line = !o.quiet && isatty(STDERR_FILENO) != 0;
  request.progress_line_after = progress_line_after();
  const SimulateRun run = run_simulation(platform, request);
  const Results& results = run.results;
  const SimulationOptions& options = run.options;
  const TraceWorkload* trace = run.trace;
  const PatternWorkload* pattern = run.pattern;
  const auto inputs_read = run.inputs_read;
  const auto simulated = run.simulated;

  if (!o.per_rank.empty()) write_file_atomically(o.per_rank, [&](std::ostream& out) { write_rank_csv(out, results); });
  if (!o.messages.empty())
    write_file_atomically(o.messages, [&](std::ostream& out) { write_messages_csv(out, results); });
  if (!o.explain.empty()) {
    write_file_atomically(o.explain, [&](std::ostream& out) { write_explain_csv(out, results.attribution); });
  }
  if (!o.json.empty()) {
    const auto head = json_head("simulate", contend_version(), {}, options_used(o, options, platform));
    write_file_atomically(o.json, [&](std::ostream& out) { write_json(out, results, head); });
  }
  std::vector<Placement> placements;
  for (const auto& r : results.ranks) placements.push_back(r.place);
  if (!o.timeline.empty()) {
    write_file_atomically(o.timeline,
                          [&](std::ostream& out) { write_chrome_trace(out, results.timeline, placements); });
  }
  if (!o.paje.empty()) {
    write_file_atomically(o.paje, [&](std::ostream& out) { write_paje_trace(out, results.timeline, placements); });
  }
  if (!o.html.empty()) {
    const HtmlReportInput report{results, platform, option_texts(options_used(o, options, platform))};
    write_file_atomically(o.html, [&](std::ostream& out) { write_html_report(out, report); });
  }
  if (!o.progress_profile.empty()) {
    write_file_atomically(o.progress_profile,
                          [&](std::ostream& out) { write_progress_profile(out, profile_of(results)); });
  }
  for (const auto& warning : results.warnings) std::cerr << "contend: warning: " << warning << "\n";
  const auto written = std::chrono::steady_clock::now();
  const double cpu_written = process_cpu_seconds();
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
    const std::chrono::duration<double> writing = written - simulated;
    const double msgs = static_cast<double>(results.total_messages());
    fmt::print(
        "stats: wall {:.3f} s (inputs {:.3f} s, simulation {:.3f} s, output files {:.3f} s), peak memory {:.1f} MiB, "
        "{} messages, {:.0f} messages/s simulated; CPU {:.3f} s (inputs {:.3f} s, simulation {:.3f} s, output files "
        "{:.3f} s); model {} ({})\n",
        wall.count(), reading.count(), simulation.count(), writing.count(),
        static_cast<double>(peak_memory_bytes()) / 1048576.0, results.total_messages(),
        simulation.count() > 0 ? msgs / simulation.count() : 0.0, cpu_written - cpu_begin,
        run.cpu_inputs_read - cpu_begin, run.cpu_simulated - run.cpu_inputs_read, cpu_written - run.cpu_simulated,
        run.model.name, run.model.source_text(platform));
    if (pattern) print_collective_choices(*pattern);
  }
  return 0;
}

}  // namespace

Action add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  auto* cmd = app.add_subcommand("simulate", "Predict per-rank communication times of a workload on a platform");
  add_simulation_input_options(*cmd, *o);
  cmd->add_option("--per-rank", o->per_rank,
                  "Write rank,node,socket,core,recv_time_s,send_time_s,total_time_s CSV ('-': standard output)");
  cmd->add_option("--messages", o->messages,
                  "Write src,dst,bytes,level,start_s,end_s CSV, one line per message ('-': standard output)");
  cmd->add_option("--explain", o->explain,
                  "Record what bounded each message and write every interval of its life as "
                  "id,src,dst,tag,seq,begin_s,end_s,resource,rate_Bps,detail CSV (docs/explain.md; '-': standard "
                  "output); --messages gains limited_by,slowdown");
  cmd->add_flag("--attribution", o->attribution,
                "Record what bounded each message: --messages gains limited_by,slowdown (implied by --explain)");
  cmd->add_option("--json", o->json,
                  "Write the options, summary and per-rank times as JSON (schema contend.simulate, "
                  "'-': standard output)");
  cmd->add_option("--progress-profile", o->progress_profile,
                  "Write each rank's time per kind of MPI call (Denis et al.'s profile, for 'contend progress')");
  cmd->add_option("--timeline", o->timeline,
                  "Write each rank's compute, MPI calls and waits and every message as a Chrome trace "
                  "(Perfetto, chrome://tracing; '-': standard output)");
  cmd->add_option("--paje", o->paje, "Write the same timeline in the Paje format (ViTE; '-': standard output)");
  cmd->add_option("--html", o->html,
                  "Write a self-contained HTML page: summary, ranks over time, resource loads, mapping, staircase "
                  "curves and the most delayed messages (docs/html-report.md; '-': standard output)");
  cmd->add_option("--time-limit", o->time_limit, "Give up after this many seconds of wall-clock time (exit status 3)")
      ->check(finite_number())
      ->check(CLI::NonNegativeNumber);
  add_collective_options(*cmd, o->workload);
  add_quiet_flag(*cmd, o->quiet);
  cmd->add_flag("--step", o->step,
                "Print every instant a flow starts or ends, and the rate of each moving flow (small runs: "
                "docs/timelines.md)");
  cmd->add_flag("--stats", o->stats, "Print wall time, peak memory and messages simulated per second");
  set_example(*cmd, {"contend simulate --platform platforms/epyc-rome-2node.yaml "
                     "--pattern traces/samples/bidirectional-pairs-4.pattern --mapping tests/data/cross-socket-4.map "
                     "--per-rank ranks.csv --json run.json"});
  return [o] { return run_simulate(*o); };
}

}  // namespace contend::cli
