// contend fit-taulop: estimates the parameters of Nuriyev et al.'s broadcast
// models (JPDC 2022, Sec. 5) from taulop_bench CSVs (calibrate/taulop) and
// writes them into a platform file's models.taulop section.
#include <fmt/format.h>

#include <iostream>

#include "calibrate/taulop/fit/taulop_fit.hpp"
#include "calibrate/taulop/fit/taulop_section.hpp"
#include "models/registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/platform_rewrite.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/units.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend::cli {
namespace {

struct FitOptions : RawFitOptions {
  std::optional<double> q;
  bool literal_eq18 = false;
  bool relative = false;
};

void print_calibration(const calibrate::TaulopCalibration& c) {
  using units::in_microseconds;
  const auto& nbft = c.nbft;
  fmt::print("segment m_s = {} B\n", c.segment);
  for (int channel = 0; channel < 2; ++channel) {
    const auto& times = channel == 0 ? nbft.time_shared : nbft.time_network;
    const auto& gamma = channel == 0 ? nbft.parameters.gamma_shared : nbft.parameters.gamma_network;
    if (times.empty()) continue;
    fmt::print("NBFT {} (eq. 14):", channel == 0 ? "shared memory, gamma^0" : "network, gamma^1");
    for (const auto& [p, t] : times) fmt::print("  P={}: {} us -> {:.4g}", p, in_microseconds(t), gamma.at(p));
    fmt::print("\n");
  }
  fmt::print("Q(m_s) = {:.4g} (eq. 15)\n", nbft.parameters.q);
  for (const auto& note : nbft.notes) fmt::print("note: {}\n", note);
  fmt::print("{:<13} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>4} {:>5} {:>8} {:>8}\n", "algorithm", "o0 us",
             "o1 us", "L0 us", "L1 us", "T0p2p us", "T1p2p us", "eqs", "T1 by", "med err", "max err");
  for (const auto& f : c.algorithms) {
    const auto errors = calibrate::fit_errors(f);
    fmt::print("{:<13} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>4} {:>5} {:>7.1f}% {:>7.1f}%\n",
               calibrate::bcast_algorithm_info(f.algorithm).name, in_microseconds(f.o0), in_microseconds(f.o1),
               in_microseconds(f.l0), in_microseconds(f.l1), in_microseconds(f.t0), in_microseconds(f.t1),
               f.equations.size(), f.t1_from_q ? "Q" : "fit", 100 * errors.median, 100 * errors.largest);
  }
}

int run_fit(const FitOptions& o) {
  calibrate::TaulopFitOptions options;
  options.q = o.q;
  options.literal_eq18 = o.literal_eq18;
  options.relative = o.relative;
  const auto c = calibrate::fit_taulop(calibrate::read_taulop_csvs(o.raw), options);
  print_calibration(c);
  const std::string& platform = o.rewrite.platform;
  const auto update = [&] {
    const std::string source = "contend fit-taulop from " + file_names(o.raw) +
                               (o.literal_eq18 ? ", eq. 18 as printed" : "") +
                               (o.relative ? ", relative residuals" : "");
    return calibrate::update_platform_taulop(read_text(platform), platform, c, source);
  };
  if (write_fit_results(o, calibrate::fits_csv(c), update)) {
    fmt::print("wrote models.taulop into {}\n", o.rewrite.target());
  }
  return 0;
}

}  // namespace

Action add_fit_taulop_command(CLI::App& app) {
  auto o = std::make_shared<FitOptions>();
  auto* cmd = app.add_subcommand(
      "fit-taulop",
      "Fit gamma, Q and per-algorithm tau-Lop parameters (Nuriyev Sec. 5) from taulop_bench CSVs into a platform file");
  add_raw_fit_options(
      *cmd, *o,
      {.raw = "Raw CSVs written by taulop_bench (NBFT and bcast_gather experiments)",
       .rewritten = "models.taulop section is",
       .fits = "Write every equation (lambda, measured, predicted, Huber weight) as CSV ('-': standard output)"});
  cmd->add_option("--q", o->q, "Q(m_s) when no network NBFT was measured (eq. 15 otherwise)")
      ->check(finite_number())
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--literal-eq18", o->literal_eq18,
                "Shared-memory NBFTs as gamma^0/Q * T^1_p2p, as eq. (18) prints (see calibrate/taulop/README.md)");
  cmd->add_flag("--relative", o->relative,
                "Huber on residuals relative to each measured time (noisy large messages), not seconds");
  set_example(*cmd, {"contend fit-taulop tests/data/taulop/one-node.csv --platform tests/data/taulop/small.yaml "
                     "--dry-run"});
  return [o] { return run_fit(*o); };
}

}  // namespace contend::cli
