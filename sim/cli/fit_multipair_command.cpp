// contend fit-multipair: fits Thune's bi-directional multi-pair benchmark
// (calibrate/multipair) and writes tau and BW_MP(N) into a platform file.
#include <fmt/format.h>

#include <iostream>

#include "calibrate/multipair/fit/multipair_fit.hpp"
#include "calibrate/multipair/fit/platform_update.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/platform_rewrite.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"

namespace contend::cli {
namespace {

void print_fits(const std::map<Level, calibrate::LevelFit>& fits) {
  for (const auto& [level, fit] : fits) {
    fmt::print("{}: tau {} (intercept at N = {}{})\n", level_name(level), units::format_duration(fit.tau), fit.tau_n,
               fit.tau_clamped ? ", negative: set to 0" : "");
    fmt::print("  {:>4} {:>4} {:>4} {:>6} {:>14} {:>12} {:>9}\n", "N", "P", "dir", "sizes", "BW_MP(N)", "intercept",
               "R^2");
    for (const auto& f : fit.by_n) {
      fmt::print("  {:>4} {:>4} {:>4} {:>6} {:>14} {:>12} {:>9.6f}\n", f.n, f.ranks, f.direction, f.points.size(),
                 units::format_bandwidth(f.bandwidth), units::format_duration(f.intercept), f.r_squared);
    }
  }
}

int run_fit(const RawFitOptions& o) {
  const auto data = calibrate::read_multipair_csvs(o.raw);
  const auto fits = calibrate::fit_multipair(data.samples);
  print_fits(fits);
  const std::string& platform = o.rewrite.platform;
  const auto update = [&] {
    return calibrate::update_platform_levels(read_text(platform), platform, fits, data.sources);
  };
  if (!write_fit_results(o, calibrate::fits_csv(fits), update)) return 0;
  std::vector<std::string> levels;
  for (const auto& [level, fit] : fits) levels.emplace_back(level_name(level));
  fmt::print("updated levels {} of {}\n", join(levels), o.rewrite.target());
  return 0;
}

}  // namespace

Action add_fit_multipair_command(CLI::App& app) {
  auto o = std::make_shared<RawFitOptions>();
  auto* cmd = app.add_subcommand(
      "fit-multipair", "Fit tau and BW_MP(N) from multipair_bench CSVs (Thune Algorithm 1) into a platform file");
  add_raw_fit_options(
      *cmd, *o,
      {.raw = "Raw CSVs written by multipair_bench (one or more levels)",
       .rewritten = "fitted levels are",
       .fits =
           "Write the fitted lines as CSV (level,N,P,direction,...,bandwidth,r_squared,tau; '-': standard output)"});
  set_example(*cmd,
              {"contend fit-multipair tests/data/multipair/two-levels.csv --platform tests/data/multipair/small.yaml "
               "--dry-run"});
  return [o] { return run_fit(*o); };
}

}  // namespace contend::cli
