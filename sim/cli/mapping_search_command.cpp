// contend mapping search: the mapping with the lowest simulated makespan a
// budget finds (sim/search/mapping_search.hpp), written as a mapping file
// and handed to launchers.
#include <fmt/format.h>

#include <iostream>

#include "models/registry.hpp"
#include "sim/cli/mapping_commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/workload_input.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/units.hpp"
#include "sim/search/mapping_search.hpp"

namespace contend::cli {
namespace {

struct SearchCommandOptions {
  std::string platform, model, progress, hosts, output, rankfile, program = "./app";
  WorkloadInput workload;
  std::vector<std::string> launchers;
  double budget = 60;
  int jobs = default_jobs();
  std::uint64_t seed = 1;
  int max_evaluations = 0;
  bool quiet = false;
  bool verbose = false;
};

std::string percent_gain(double best, double other) {
  return other > 0 ? fmt::format("{:.1f}%", 100 * (other - best) / other) : "-";
}

void print_why(const SearchResult& r, const NodeArchitecture& nodes) {
  const auto best = contention_figures(r.graph, r.best.mapping, nodes);
  const auto block = contention_figures(r.graph, r.block.mapping, nodes);
  std::optional<ContentionFigures> ompi;
  if (r.ompi_default) ompi = contention_figures(r.graph, r.ompi_default->mapping, nodes);
  auto others = [&](auto value) {
    std::string text = "block " + value(block);
    if (ompi) text += ", ompi:default " + value(*ompi);
    return text;
  };
  auto bytes = [](const ContentionFigures& f) { return units::human_size(f.level_bytes[2]); };
  fmt::print("  {:<15} bytes over the network {} ({})\n", "why", bytes(best), others(bytes));
  auto nic = [](const ContentionFigures& f) { return std::to_string(f.nic_sharers_max); };
  fmt::print("  {:<15} ranks sharing a node's NIC: at most {} ({}); {} nodes used\n", "", nic(best), others(nic),
             best.nodes_used);
  auto bus = [](const ContentionFigures& f) { return std::to_string(f.socket_sharers_max); };
  fmt::print("  {:<15} ranks sharing a socket's memory bus: at most {} ({})\n", "", bus(best), others(bus));
}

void print_summary(const SearchCommandOptions& o, const SearchResult& r, const std::string& workload,
                   const Platform& platform, int ranks, const ModelChoice& model) {
  fmt::print("contend mapping search: {} on {} ({} ranks), model {}, seed {}\n", workload, platform.name, ranks,
             model.described(platform), o.seed);
  fmt::print("  {:<15} {} messages, {} between {} rank pairs (recorded under block)\n", "graph",
             r.graph.total_messages(), units::human_size(r.graph.total_bytes()), r.graph.edges().size());
  fmt::print("  {:<15}\n", "starting points");
  std::vector<const ScoredMapping*> starts;
  for (const auto& s : r.starts) starts.push_back(&s);
  std::stable_sort(starts.begin(), starts.end(),
                   [](const auto* a, const auto* b) { return a->evaluation.better_than(b->evaluation); });
  for (const auto* s : starts)
    fmt::print("    {:<40} {:>12}\n", s->name, units::human_duration(s->evaluation.makespan));
  if (r.unsimulated_starts > 0) fmt::print("    ({} more not simulated within the budget)\n", r.unsimulated_starts);
  fmt::print("  {:<15} {} rounds, {} simulations; stopped by {}\n", "refinement", r.rounds, r.simulations, r.stopped);
  fmt::print("  {:<15} {}: {}\n", "best", r.best.name, units::human_duration(r.best.evaluation.makespan));
  std::string gain =
      fmt::format("{} over block ({})", percent_gain(r.best.evaluation.makespan, r.block.evaluation.makespan),
                  units::human_duration(r.block.evaluation.makespan));
  if (r.ompi_default) {
    gain += fmt::format(", {} over Open MPI's default ({})",
                        percent_gain(r.best.evaluation.makespan, r.ompi_default->evaluation.makespan),
                        units::human_duration(r.ompi_default->evaluation.makespan));
  }
  fmt::print("  {:<15} {}\n", "gain", gain);
  print_why(r, platform.nodes);
}

int run_search(const SearchCommandOptions& o) {
  const Platform platform = read_platform(o.platform);
  all_models().validate_platform(platform);
  const ModelChoice model = choose_model(o.model, platform);
  all_models().get(model.name);
  const Machine machine = machine_of(platform, o.hosts);
  std::vector<Launcher> launchers;
  for (const auto& name : o.launchers) launchers.push_back(launcher_by_name(name));
  const WorkloadSource source(o.workload);

  EvaluationSetup setup;
  setup.platform = &platform;
  setup.models = &all_models();
  setup.model = model.name;
  if (!o.progress.empty()) setup.progress = progress_by_name(o.progress);
  setup.rank_count = source.rank_count();
  setup.make_workload = [&source] { return source.make(); };
  SearchOptions options;
  options.budget_seconds = o.budget;
  options.jobs = o.jobs;
  options.seed = o.seed;
  options.max_evaluations = o.max_evaluations;
  if (o.verbose) options.log = [](const std::string& line) { std::cerr << "contend: " << line << std::endl; };
  const SearchResult result = search_mapping(setup, machine, options);

  const std::vector<std::string> comments = {
      fmt::format("contend mapping search: {} on {}, model {}, seed {}", source.description(), platform.name,
                  model.described(platform), o.seed),
      fmt::format("predicted makespan {} ({}), block {}", units::human_duration(result.best.evaluation.makespan),
                  result.best.name, units::human_duration(result.block.evaluation.makespan))};
  write_file_atomically(o.output, [&](std::ostream& out) { write_mapping_file(out, result.best.mapping, comments); });
  if (!o.quiet) {
    print_summary(o, result, source.description(), platform, source.rank_count(), model);
    fmt::print("  {:<15} {} (rank node socket core: --mapping {})\n", "mapping", o.output, o.output);
  }
  // Launcher files are written even with --quiet; their command lines are printed unless --quiet.
  auto hand_over = [&](const std::string& label, Launcher launcher, const std::string& path) {
    const LaunchPlan plan = launch_plan(launcher, result.best.mapping, machine, path, o.program);
    write_launch_files(plan);
    if (!o.quiet) print_launch_plan(label, plan);
  };
  if (!o.rankfile.empty()) hand_over("ompi4", Launcher::Ompi4, o.rankfile);
  for (std::size_t i = 0; i < launchers.size(); ++i) {
    if (launchers[i] == Launcher::Ompi4 && !o.rankfile.empty()) continue;
    hand_over(o.launchers[i], launchers[i], launcher_path(o.output, launchers[i]));
  }
  return 0;
}

}  // namespace

Action add_mapping_search_command(CLI::App& mapping) {
  auto o = std::make_shared<SearchCommandOptions>();
  auto* cmd = mapping.add_subcommand(
      "search", "The mapping with the lowest simulated makespan a budget finds, for the file and the launcher");
  add_platform_option(*cmd, o->platform);
  add_workload_options(*cmd, o->workload);
  add_model_option(*cmd, o->model);
  cmd->add_option("-o,--output", o->output, "Write the best mapping here (rank node socket core: --mapping FILE)")
      ->required();
  cmd->add_option("--budget", o->budget, "Seconds of wall-clock time for the whole search")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  add_jobs_option(*cmd, o->jobs);
  cmd->add_option("--seed", o->seed, "Seed of the search's choices: the same seed, the same search")
      ->capture_default_str();
  cmd->add_option("--max-evaluations", o->max_evaluations,
                  "Stop after this many simulations (with the seed, fixes the result whatever the machine's speed)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--rankfile", o->rankfile, "Write the best mapping as an Open MPI 4.x rankfile here");
  cmd->add_option("--launcher", o->launchers,
                  "ompi4 | ompi5 | slurm | mpich: write that launcher's files beside --output and print the command "
                  "line that uses them; repeatable");
  add_program_option(*cmd, o->program);
  add_hosts_option(*cmd, o->hosts);
  add_progress_option(*cmd, o->progress);
  add_collective_options(*cmd, o->workload);
  add_quiet_flag(*cmd, o->quiet);
  cmd->add_flag("--verbose", o->verbose, "Print the search's progress on standard error");
  set_example(*cmd, {"contend mapping search --platform platforms/epyc-rome-2node.yaml "
                     "--pattern traces/samples/halo-256.pattern --model staircase -o best.map --rankfile best.rankfile "
                     "--max-evaluations 8"});
  return [o] { return run_search(*o); };
}

}  // namespace contend::cli
