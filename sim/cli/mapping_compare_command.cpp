// contend mapping compare: one workload simulated under several mappings,
// each in a child process, in one table sorted by makespan.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <iostream>
#include <numeric>

#include "models/registry.hpp"
#include "sim/cli/mapping_commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/workload_input.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/units.hpp"
#include "sim/search/evaluation.hpp"

namespace contend::cli {
namespace {

struct CompareOptions {
  std::string platform, model, progress, hosts, csv;
  WorkloadInput workload;
  std::vector<std::string> mappings;
  int jobs = default_jobs();
  bool oversubscribe = false;
  bool quiet = false;
};

struct Row {
  std::string name;
  Evaluation evaluation;
  std::size_t given = 0;  // position in --mappings: ties keep it
};

void write_csv(std::ostream& out, const std::vector<Row>& rows) {
  out << "mapping,makespan_s,mean_rank_s,slowest_rank,intra_socket_bytes,inter_socket_bytes,inter_node_bytes,"
         "ratio_to_best\n";
  const double best = rows.front().evaluation.makespan;
  for (const auto& r : rows) {
    const auto& e = r.evaluation;
    fmt::print(out, "{},{:.12g},{:.12g},{},{},{},{},{:.6f}\n", r.name, e.makespan, e.mean_rank_time, e.slowest_rank,
               e.levels[0].bytes, e.levels[1].bytes, e.levels[2].bytes, best > 0 ? e.makespan / best : 1.0);
  }
}

void print_table(const std::vector<Row>& rows) {
  std::size_t width = 7;
  for (const auto& r : rows) width = std::max(width, r.name.size());
  fmt::print("  {:<{}} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8}\n", "mapping", width, "makespan", "mean rank",
             "slowest rank", "intra_socket", "inter_socket", "network", "vs best");
  const double best = rows.front().evaluation.makespan;
  for (const auto& r : rows) {
    const auto& e = r.evaluation;
    fmt::print("  {:<{}} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8.3f}\n", r.name, width,
               units::human_duration(e.makespan), units::human_duration(e.mean_rank_time), e.slowest_rank,
               units::human_size(static_cast<double>(e.levels[0].bytes)),
               units::human_size(static_cast<double>(e.levels[1].bytes)),
               units::human_size(static_cast<double>(e.levels[2].bytes)), best > 0 ? e.makespan / best : 1.0);
  }
}

int run_compare(const CompareOptions& o) {
  const Platform platform = read_platform(o.platform);
  all_models().validate_platform(platform);
  const ModelChoice model = choose_model(o.model, platform);
  all_models().get(model.name);  // an unknown name fails now, with "did you mean"
  const Machine machine = machine_of(platform, o.hosts);
  const WorkloadSource source(o.workload);
  // Every mapping is built before anything runs: a bad one fails at once.
  std::vector<Mapping> mappings;
  for (const auto& spec : o.mappings)
    mappings.push_back(make_mapping(spec, source.rank_count(), machine, o.oversubscribe));

  EvaluationSetup setup;
  setup.platform = &platform;
  setup.models = &all_models();
  setup.model = model.name;
  if (!o.progress.empty()) setup.progress = progress_by_name(o.progress);
  setup.rank_count = source.rank_count();
  setup.make_workload = [&source] { return source.make(); };
  Evaluator evaluator(setup, std::min<int>(o.jobs, static_cast<int>(mappings.size())));
  const auto evaluations = evaluator.evaluate(mappings, o.mappings);

  std::vector<Row> rows;
  for (std::size_t i = 0; i < evaluations.size(); ++i) rows.push_back({o.mappings[i], evaluations[i].value(), i});
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.evaluation.better_than(b.evaluation); });
  if (!o.csv.empty()) write_file_atomically(o.csv, [&](std::ostream& out) { write_csv(out, rows); });
  if (!o.quiet) {
    fmt::print("contend mapping compare: {} on {} ({} ranks), model {}\n", source.description(), platform.name,
               source.rank_count(), model.described(platform));
    print_table(rows);
  }
  return 0;
}

}  // namespace

Action add_mapping_compare_command(CLI::App& mapping) {
  auto o = std::make_shared<CompareOptions>();
  auto* cmd = mapping.add_subcommand("compare", "One workload under several mappings: a table sorted by makespan");
  add_platform_option(*cmd, o->platform);
  add_workload_options(*cmd, o->workload);
  cmd->add_option("--mappings", o->mappings,
                  "Comma-separated mappings, each as --mapping takes it (block, cyclic, socket, ompi:POLICY, "
                  "slurm:DIST, rankfile:FILE, FILE)")
      ->required()
      ->delimiter(',');
  add_model_option(*cmd, o->model);
  add_jobs_option(*cmd, o->jobs);
  cmd->add_option("-o,--output,--csv", o->csv,
                  "Write mapping,makespan_s,mean_rank_s,slowest_rank,intra_socket_bytes,inter_socket_bytes,"
                  "inter_node_bytes,ratio_to_best CSV");
  add_hosts_option(*cmd, o->hosts);
  add_oversubscribe_flag(*cmd, o->oversubscribe);
  add_progress_option(*cmd, o->progress);
  add_collective_options(*cmd, o->workload);
  add_quiet_flag(*cmd, o->quiet);
  set_example(*cmd,
              {"contend mapping compare --platform platforms/epyc-rome-2node.yaml "
               "--pattern traces/samples/halo-256.pattern --model staircase --mappings block,cyclic,ompi:default"});
  return [o] { return run_compare(*o); };
}

}  // namespace contend::cli
