// contend sweep: many simulations from one sweep file (docs/sweeps.md). Each
// case runs in a worker process of its own (one SimGrid engine per process);
// rows go to results.csv in case order whatever the number of workers.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/sweep_case.hpp"
#include "sim/cli/sweep_slurm.hpp"
#include "sim/core/sweep_output.hpp"
#include "sim/core/sweep_progress.hpp"
#include "sim/core/sweep_rows.hpp"
#include "sim/engine/worker_pool.hpp"

namespace contend::cli {
namespace {

struct SweepOptions {
  std::string sweep, output, shard, merge;
  int jobs = 0;
  std::size_t slurm_array = 0;
  long long run_case = -1;
  bool quiet = false;
  bool check = false;
};

int default_jobs() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

// `--run-case K`: the case's outcome line on standard output, and nothing
// else there (SimGrid may log on it): what contend-sweep-mpi runs per case.
int run_one_case(const SweepSpec& spec, long long index) {
  if (index < 0 || static_cast<std::size_t>(index) >= spec.cases.size())
    throw Error(
        fmt::format("--run-case: expected a case of {} (0 to {}), got {}", spec.file, spec.cases.size() - 1, index));
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  FILE* null = std::freopen("/dev/null", "w", stdout);
  const std::string line = run_sweep_case(spec.cases[static_cast<std::size_t>(index)]) + "\n";
  std::fflush(stdout);
  if (null == nullptr || saved < 0) throw Error("--run-case: cannot set standard output aside");
  const auto written = write(saved, line.data(), line.size());
  return written == static_cast<ssize_t>(line.size()) ? 0 : 4;
}

int run_sweep(const SweepOptions& o) {
  if (!o.merge.empty()) {
    merge_shards(o.merge, o.output.empty() ? "results.csv" : o.output, o.quiet);
    return 0;
  }
  if (o.sweep.empty()) throw CLI::RequiredError("SWEEP (the sweep file), or --merge DIR");
  const SweepSpec spec = read_sweep(o.sweep);
  check_sweep_models(spec);
  if (o.run_case >= 0) return run_one_case(spec, o.run_case);
  if (o.check) {
    // Every case's platform and overrides too (contend-sweep-mpi asks before it starts).
    plan_sweep(spec, shard_cases(spec.cases.size(), Shard{1, 1}), "-", contend_version());
    return 0;
  }
  // An array task's cores are its --cpus-per-task, not this (login) machine's: 1 unless --jobs says.
  const int jobs = o.jobs > 0 ? o.jobs : (o.slurm_array > 0 ? 1 : default_jobs());
  if (o.slurm_array > 0) {
    if (o.output.empty()) throw Error("--slurm-array: give the folder for the script and the shards (--output DIR)");
    // Every case's platform and overrides are checked now, not in the array.
    plan_sweep(spec, shard_cases(spec.cases.size(), Shard{1, 1}), "-", contend_version());
    write_slurm_array(o.sweep, spec, o.slurm_array, jobs, o.output);
    if (!o.quiet)
      fmt::print(
          "wrote {0}/sweep.sbatch: {1} array tasks over {2} cases; submit it with sbatch, then\n"
          "  contend sweep --merge {0} --output results.csv\n",
          o.output, o.slurm_array, spec.cases.size());
    return 0;
  }
  const Shard shard = o.shard.empty() ? Shard{} : parse_shard(o.shard);
  const std::string output = o.output.empty() ? "results.csv" : o.output;
  const auto cases = shard_cases(spec.cases.size(), shard);
  SweepPlan plan = plan_sweep(spec, cases, output, contend_version());
  const std::size_t kept = plan.rows.size();
  SweepOutput results(output, spec, std::move(plan.rows));
  SweepProgress progress(plan.pending.size(), !o.quiet && isatty(STDERR_FILENO) != 0);
  const auto begin = std::chrono::steady_clock::now();
  const WorkerPool pool(jobs);
  pool.run(
      plan.pending.size(), [&](std::size_t i) { return run_sweep_case(spec.cases[plan.pending[i]]); },
      [&](std::size_t i, const JobResult& result) {
        const auto index = plan.pending[i];
        // A child that died (killed, crashed) never answered: its case failed.
        const std::string outcome = result.ok ? result.answer : failed_outcome(result.answer, result.wall_seconds);
        SweepRow row = sweep_row(spec.cases[index], plan.hashes[index], outcome);
        progress.case_done(row.ok);
        results.add(std::move(row));
      });
  progress.finish();
  results.finish();
  SweepSummary summary{"contend",
                       o.shard.empty() ? "sweep" : "sweep (shard " + o.shard + ")",
                       fmt::format("{} worker{}", jobs, jobs == 1 ? "" : "s"),
                       cases.size(),
                       plan.pending.size(),
                       kept,
                       output,
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count()};
  print_sweep_end(results, summary, o.quiet);
  return 0;
}

}  // namespace

Action add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand("sweep", "Run many simulations from a sweep file, one row per case in a CSV");
  cmd->add_option("SWEEP", o->sweep, "Sweep file (SWEEP.yaml: values per axis, or a list of cases; docs/sweeps.md)");
  cmd->add_option("-j,--jobs", o->jobs, "Cases run at once, each in a process of its own (default: the cores)")
      ->check(CLI::PositiveNumber);
  add_output_option(*cmd, o->output,
                    "Results CSV, resumed if it exists (default: results.csv); with --slurm-array, the folder for "
                    "the batch script and the shards");
  cmd->add_option("--shard", o->shard, "K/N: run only the K-th of N shares of the cases (every N-th case)");
  cmd->add_option("--slurm-array", o->slurm_array,
                  "Write an sbatch script for a Slurm job array of N tasks, one shard each, into --output DIR")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--merge", o->merge, "Join the shards a --slurm-array folder holds into --output")
      ->excludes(cmd->get_option("SWEEP"));
  cmd->add_option("--run-case", o->run_case,
                  "Run case K in this process and print its outcome line (contend-sweep-mpi's worker)")
      ->group("");
  cmd->add_flag("--check", o->check, "Check the sweep file and exit (contend-sweep-mpi's first step)")->group("");
  add_quiet_flag(*cmd, o->quiet);
  cmd->get_option("--shard")->excludes("--slurm-array");
  set_example(*cmd, {"contend sweep tests/data/sweep/small.yaml --jobs 2 --output results.csv"});
  return [o] { return run_sweep(*o); };
}

}  // namespace contend::cli
