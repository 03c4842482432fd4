// `contend explain`: runs the simulation as `simulate` does (same inputs),
// recording what bounded each message, and tells the story of the slowest
// rank, of --rank R, or of --message SRC:DST[:K] (docs/explain.md).
#include <iostream>
#include <memory>

#include "models/registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/simulate_run.hpp"
#include "sim/cli/workload_input.hpp"
#include "sim/core/explain_story.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/hosts.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/engine/simulation.hpp"

namespace contend::cli {

namespace {

struct ExplainOptions {
  std::string platform, mapping = "block", model, progress, hosts, message, explain;  // model: empty unless --model
  WorkloadInput workload;
  int rank = -1;
  int last = 3;
  bool oversubscribe = false;
};

int run_explain(const ExplainOptions& o) {
  const Platform platform = read_platform(o.platform);
  StoryRequest request;
  if (!o.message.empty()) request.message = parse_message_key(o.message);
  if (o.rank >= 0) request.rank = o.rank;
  request.last = o.last;

  // The same run as `contend simulate` (sim/cli/simulate_run.hpp), with the
  // attribution recorded.
  SimulateRequest simulation = simulate_request(o);
  simulation.attribution = true;
  const SimulateRun run = run_simulation(platform, simulation);
  const Results& results = run.results;
  if (!o.explain.empty()) {
    write_file_atomically(o.explain, [&](std::ostream& out) { write_explain_csv(out, results.attribution); });
  }
  for (const auto& warning : results.warnings) std::cerr << "contend: warning: " << warning << "\n";
  write_story(std::cout, results, request);
  return 0;
}

}  // namespace

Action add_explain_command(CLI::App& app) {
  auto o = std::make_shared<ExplainOptions>();
  auto* cmd = app.add_subcommand(
      "explain", "Simulate, then tell what slowed the slowest rank (or --rank, --message) and by how much");
  add_simulation_input_options(*cmd, *o);
  auto* rank =
      cmd->add_option("--rank", o->rank, "The rank to explain (default: the slowest)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--message", o->message, "One message to explain: SRC:DST[:K], the K-th from SRC to DST (from 0)")
      ->excludes(rank);
  cmd->add_option("--last", o->last, "How many of the rank's messages to tell, those that ended last first")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--explain", o->explain,
                  "Also write every interval of every message as CSV, as 'simulate --explain' does");
  add_collective_options(*cmd, o->workload);
  set_example(*cmd, {"contend explain --platform platforms/martinasso-gigaeth-lam.yaml --pattern "
                     "tests/data/attribution/chain-3.pattern --mapping cyclic --model flowcut"});
  return [o] { return run_explain(*o); };
}

}  // namespace contend::cli
