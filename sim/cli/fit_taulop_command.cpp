// contend fit-taulop: estimates the parameters of Nuriyev et al.'s broadcast
// models (JPDC 2022, Sec. 5) from taulop_bench CSVs (calibrate/taulop) and
// writes them into a platform file's models.taulop section.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/cli/commands.hpp"
#include "sim/core/platform.hpp"
#include "models/registry.hpp"
#include "calibrate/taulop/fit/taulop_fit.hpp"
#include "calibrate/taulop/fit/taulop_section.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend::cli {
namespace {

struct FitOptions {
  std::vector<std::string> raw;
  std::string platform;
  std::string output;
  std::string fits;
  std::optional<double> q;
  bool literal_eq18 = false;
  bool relative = false;
  bool dry_run = false;
};

std::string us(double seconds) { return fmt::format("{:.4g}", seconds * 1e6); }

void print_calibration(const calibrate::TaulopCalibration& c) {
  const auto& nbft = c.nbft;
  fmt::print("segment m_s = {} B\n", c.segment);
  for (int channel = 0; channel < 2; ++channel) {
    const auto& times = channel == 0 ? nbft.time_shared : nbft.time_network;
    const auto& gamma = channel == 0 ? nbft.parameters.gamma_shared : nbft.parameters.gamma_network;
    if (times.empty()) continue;
    fmt::print("NBFT {} (eq. 14):", channel == 0 ? "shared memory, gamma^0" : "network, gamma^1");
    for (const auto& [p, t] : times) fmt::print("  P={}: {} us -> {:.4g}", p, us(t), gamma.at(p));
    fmt::print("\n");
  }
  fmt::print("Q(m_s) = {:.4g} (eq. 15)\n", nbft.parameters.q);
  for (const auto& note : nbft.notes) fmt::print("note: {}\n", note);
  fmt::print("{:<13} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>4} {:>5} {:>8} {:>8}\n", "algorithm", "o0 us", "o1 us", "L0 us", "L1 us",
             "T0p2p us", "T1p2p us", "eqs", "T1 by", "med err", "max err");
  for (const auto& f : c.algorithms) {
    std::vector<double> errors;
    for (const auto& eq : f.equations) errors.push_back(std::abs(eq.predicted - eq.measured) / eq.measured);
    std::sort(errors.begin(), errors.end());
    const double worst = errors.back(), middle = errors[errors.size() / 2];
    fmt::print("{:<13} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>4} {:>5} {:>7.1f}% {:>7.1f}%\n", calibrate::bcast_algorithm_info(f.algorithm).name,
               us(f.o0), us(f.o1), us(f.l0), us(f.l1), us(f.t0), us(f.t1), f.equations.size(), f.t1_from_q ? "Q" : "fit", 100 * middle, 100 * worst);
  }
}

void write_fits_csv(std::ostream& out, const calibrate::TaulopCalibration& c) {
  out << "algorithm,P,size,samples,lambda_o0,lambda_o1,lambda_L0,lambda_L1,measured,predicted,weight,o0,o1,L0,L1\n";
  for (const auto& f : c.algorithms) {
    for (const auto& eq : f.equations) {
      out << fmt::format("{},{},{},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.6f},{:.9g},{:.9g},{:.9g},{:.9g}\n",
                         calibrate::bcast_algorithm_info(f.algorithm).name, eq.procs, eq.size, eq.samples, eq.lambda[0], eq.lambda[1],
                         eq.lambda[2], eq.lambda[3], eq.measured, eq.predicted, eq.weight, f.o0, f.o1, f.l0, f.l1);
    }
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open '" + path + "' for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int run_fit(const FitOptions& o) {
  std::vector<calibrate::TaulopSample> samples;
  std::vector<std::string> names;
  for (const auto& path : o.raw) {
    auto more = calibrate::read_taulop_csv(path);
    samples.insert(samples.end(), more.begin(), more.end());
    names.push_back(std::filesystem::path(path).filename().string());
  }
  calibrate::TaulopFitOptions options;
  options.q = o.q;
  options.literal_eq18 = o.literal_eq18;
  options.relative = o.relative;
  const auto c = calibrate::fit_taulop(samples, options);
  print_calibration(c);
  if (!o.fits.empty()) write_file_atomically(o.fits, [&](std::ostream& out) { write_fits_csv(out, c); });
  if (o.platform.empty()) return 0;

  const std::string before = read_text(o.platform);
  const Platform old = parse_platform(YamlField::load_string(before, o.platform));
  const std::string source = "contend fit-taulop from " + join(names) + (o.literal_eq18 ? ", eq. 18 as printed" : "") +
                             (o.relative ? ", relative residuals" : "");
  const std::string updated =
      calibrate::replace_model_section(before, "taulop", calibrate::taulop_section(c, old.model_section("taulop"), source));
  // The new file must be a valid platform whose model sections all validate before it replaces anything.
  all_models().validate_platform(parse_platform(YamlField::load_string(updated, o.platform)));
  if (o.dry_run) {
    std::cout << updated;
    return 0;
  }
  const std::string target = o.output.empty() ? o.platform : o.output;
  write_file_atomically(target, [&](std::ostream& out) { out << updated; });
  fmt::print("wrote models.taulop into {}\n", target);
  return 0;
}

}  // namespace

Action add_fit_taulop_command(CLI::App& app) {
  auto o = std::make_shared<FitOptions>();
  auto* cmd = app.add_subcommand("fit-taulop",
                                 "Fit gamma, Q and per-algorithm tau-Lop parameters (Nuriyev Sec. 5) from taulop_bench CSVs into a platform file");
  cmd->add_option("raw", o->raw, "Raw CSVs written by taulop_bench (NBFT and bcast_gather experiments)")->required();
  cmd->add_option("--platform", o->platform, "Platform YAML whose models.taulop section is rewritten (nothing else changes)");
  cmd->add_option("-o,--output", o->output, "Write the updated platform here instead of over --platform");
  cmd->add_option("--fits", o->fits, "Write every equation (lambda, measured, predicted, Huber weight) as CSV");
  cmd->add_option("--q", o->q, "Q(m_s) when no network NBFT was measured (eq. 15 otherwise)")->check(CLI::PositiveNumber);
  cmd->add_flag("--literal-eq18", o->literal_eq18, "Shared-memory NBFTs as gamma^0/Q * T^1_p2p, as eq. (18) prints (see README)");
  cmd->add_flag("--relative", o->relative, "Huber on residuals relative to each measured time (noisy large messages), not seconds");
  cmd->add_flag("--dry-run", o->dry_run, "Print the updated platform file instead of writing it");
  return [o] { return run_fit(*o); };
}

}  // namespace contend::cli
