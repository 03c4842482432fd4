// contend progress: Denis et al.'s model of a core dedicated to MPI
// progression (CCGRID 2022, Sec. III-D) on a per-rank profile of a run
// without progression; prints every term, as the paper's Tables I and II.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "models/dedicated_core/denis_model.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"

namespace contend::cli {
namespace {

struct ProgressOptions {
  std::string profile, per_rank;
  int cores = 0;
  double alpha = 0;
  bool alpha_sweep = false;
};

constexpr std::size_t kShownRanks = 8;

std::string number(double v) { return fmt::format("{:.6g}", v); }

struct Row {
  std::string label;
  std::function<std::string(const ProgressProfile&, const DedicatedCoreTerms&)> value;
};

std::vector<Row> rows(int cores, double alpha) {
  return {
      {"t_noprogress", [](auto& p, auto&) { return number(p.t_noprogress); }},
      {"t_MPI", [](auto& p, auto&) { return number(p.mpi_time()) + (p.t_mpi ? "" : " *"); }},
      {"t_comp", [](auto& p, auto&) { return number(p.t_comp); }},
      {"N_core", [cores](auto&, auto&) { return std::to_string(cores); }},
      {"t_newcomp = t_comp N/(N-1)", [](auto&, auto& t) { return number(t.t_newcomp); }},
      {"  t_overhead = t_comp/(N-1)", [](auto&, auto& t) { return number(t.t_overhead); }},
      {"N_nonblocking", [](auto& p, auto&) { return std::to_string(p.n_nonblocking); }},
      {"t_minMPInonblock", [](auto& p, auto&) { return number(p.t_min_nonblocking); }},
      {"  N_nonblocking t_minMPInonblock", [](auto&, auto& t) { return number(t.nonblocking); }},
      {"N_test", [](auto& p, auto&) { return std::to_string(p.n_test); }},
      {"t_minMPItest", [](auto& p, auto&) { return number(p.t_min_test); }},
      {"  N_test t_minMPItest", [](auto&, auto& t) { return number(t.tests); }},
      {"N_wait", [](auto& p, auto&) { return std::to_string(p.n_wait); }},
      {"t_minMPIwait", [](auto& p, auto&) { return number(p.t_min_wait); }},
      {"  N_wait t_minMPIwait", [](auto&, auto& t) { return number(t.waits); }},
      {"N_blocking", [](auto& p, auto&) { return std::to_string(p.n_blocking); }},
      {"t_MPIblocking", [](auto& p, auto&) { return number(p.t_blocking); }},
      {"  t_MPIblockingcom = t_MPIblocking/N_blocking", [](auto&, auto& t) { return number(t.blocking_com); }},
      {"alpha", [alpha](auto&, auto&) { return number(alpha); }},
      {"  alpha N_blocking (t_minMPInonblock + t_minMPIwait)", [](auto&, auto& t) { return number(t.transformed); }},
      {"  (1 - alpha) N_blocking t_MPIblockingcom", [](auto&, auto& t) { return number(t.kept_blocking); }},
      {"t_MPIother", [](auto& p, auto&) { return number(p.t_other); }},
      {"t_MPIdedicated", [](auto&, auto& t) { return number(t.t_mpi_dedicated); }},
      {"t_model = t_newcomp + t_MPIdedicated", [](auto&, auto& t) { return number(t.t_dedicated); }},
      {"MPI gain = t_MPI - t_MPIdedicated", [](auto&, auto& t) { return number(t.mpi_gain); }},
      {"speedup = t_noprogress / t_model", [](auto&, auto& t) { return fmt::format("{:.4f}", t.speedup); }},
  };
}

void print_terms(const std::vector<ProgressProfile>& shown, int cores, double alpha) {
  std::vector<DedicatedCoreTerms> terms;
  for (const auto& p : shown) terms.push_back(denis_dedicated(p, cores, alpha));
  const auto table = rows(cores, alpha);
  std::size_t width = 0;
  for (const auto& r : table) width = std::max(width, r.label.size());
  fmt::print("{:<{}}", "", width);
  for (const auto& p : shown) fmt::print("  {:>14}", fmt::format("rank {}", p.rank));
  fmt::print("\n");
  for (const auto& r : table) {
    fmt::print("{:<{}}", r.label, width);
    for (std::size_t i = 0; i < shown.size(); ++i) fmt::print("  {:>14}", r.value(shown[i], terms[i]));
    fmt::print("\n");
  }
}

void write_per_rank(const std::string& path, const std::vector<ProgressProfile>& ranks, int cores, double alpha) {
  write_file_atomically(path, [&](std::ostream& out) {
    out << "rank,t_noprogress_s,t_mpi_s,t_newcomp_s,t_overhead_s,nonblocking_s,tests_s,waits_s,transformed_s,"
           "kept_blocking_s,other_s,t_mpi_dedicated_s,t_dedicated_s,mpi_gain_s,speedup\n";
    for (const auto& p : ranks) {
      const auto t = denis_dedicated(p, cores, alpha);
      out << fmt::format(
          "{},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},"
          "{:.12g},{:.12g},{:.12g}\n",
          p.rank, p.t_noprogress, t.t_mpi, t.t_newcomp, t.t_overhead, t.nonblocking, t.tests, t.waits, t.transformed,
          t.kept_blocking, t.other, t.t_mpi_dedicated, t.t_dedicated, t.mpi_gain, t.speedup);
    }
  });
}

int run_progress(const ProgressOptions& o) {
  const auto ranks = read_progress_profile(o.profile);
  const auto verdict = denis_verdict(ranks, o.cores, o.alpha);  // validates cores and alpha
  fmt::print("# contend progress: Denis et al. (CCGRID 2022) Sec. III-D, profile {}, {} rank{}, N_core {}\n", o.profile,
             ranks.size(), ranks.size() == 1 ? "" : "s", o.cores);
  std::vector<ProgressProfile> shown;
  if (ranks.size() <= kShownRanks) {
    shown = ranks;
  } else {
    for (const auto& p : ranks) {
      if (p.rank == verdict.slowest_rank) shown.push_back(p);
    }
    fmt::print("# {} ranks: showing the slowest with a dedicated core (--per-rank writes every rank)\n", ranks.size());
  }
  print_terms(shown, o.cores, o.alpha);
  if (std::any_of(shown.begin(), shown.end(), [](const ProgressProfile& p) { return !p.t_mpi; })) {
    fmt::print("  * t_MPI not in the profile: t_noprogress - t_comp\n");
  }
  fmt::print("verdict (alpha {}): t_noprogress {} s, t_model {} s (rank {}), speedup {:.4f}: {}\n", number(o.alpha),
             number(verdict.t_noprogress), number(verdict.t_dedicated), verdict.slowest_rank, verdict.speedup,
             verdict.pays_off() ? "a dedicated core pays off" : "a dedicated core does not pay off");
  if (o.alpha_sweep) {
    fmt::print("alpha,t_model_s,speedup\n");
    for (int i = 0; i <= 10; ++i) {
      const double alpha = i / 10.0;
      const auto v = denis_verdict(ranks, o.cores, alpha);
      fmt::print("{:.1f},{},{:.4f}\n", alpha, number(v.t_dedicated), v.speedup);
    }
  }
  if (!o.per_rank.empty()) write_per_rank(o.per_rank, ranks, o.cores, o.alpha);
  return 0;
}

}  // namespace

Action add_progress_command(CLI::App& app) {
  auto o = std::make_shared<ProgressOptions>();
  auto* cmd = app.add_subcommand(
      "progress", "Predict the run time with a core dedicated to MPI progression (Denis et al., CCGRID 2022)");
  cmd->add_option("--profile", o->profile, "Per-rank profile CSV of a run without progression (docs/workloads.md)")
      ->required();
  cmd->add_option("--cores", o->cores, "N_core: cores per rank (one of them would progress MPI)")->required();
  auto* alpha = cmd->add_option("--alpha", o->alpha, "Ratio of blocking calls made nonblocking, in [0, 1]")
                    ->capture_default_str()
                    ->check(finite_number());
  cmd->add_flag("--alpha-sweep", o->alpha_sweep, "Also print t_model and the speedup for alpha = 0, 0.1, ..., 1")
      ->excludes(alpha);
  cmd->add_option("--per-rank", o->per_rank, "Write every rank's terms as CSV, in seconds ('-': standard output)");
  set_example(*cmd, {"contend progress --profile traces/examples/traces/cg-2/profile.csv --cores 16 --alpha-sweep"});
  return [o] { return run_progress(*o); };
}

}  // namespace contend::cli
