// contend compare: measured against predicted per-rank times, with the
// total relative error of Thune et al.'s eq. (11).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/cli/commands.hpp"
#include "sim/core/csv.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend::cli {
namespace {

// rank -> time from a CSV with the columns `rank` and the first of `columns` it has.
std::map<int, double> read_times(const std::string& path, const std::vector<std::string>& columns) {
  const CsvFile csv = CsvFile::read(path, CsvColumns{.required = {"rank"}});
  const auto time = std::find_if(columns.begin(), columns.end(), [&](const auto& c) { return csv.has_column(c); });
  if (time == columns.end()) throw Error(csv.header_where(), "missing column '" + join(columns, "' or '") + "'");
  std::map<int, double> out;
  for (const auto& row : csv.rows()) {
    const int rank = row.at_least<int>("rank", 0);
    if (!out.emplace(rank, row.seconds(*time)).second)
      row.fail("rank", "rank " + std::to_string(rank) + " appears twice");
  }
  if (out.empty()) throw Error(path + ": no rank in the file");
  return out;
}

int run_compare(const std::string& measured_path, const std::string& predicted_path) {
  const auto measured = read_times(measured_path, {"time"});
  const auto predicted = read_times(predicted_path, {"total_time", "time"});
  for (const auto& [rank, t] : measured) {
    if (!predicted.count(rank)) throw Error(predicted_path + ": no prediction for rank " + std::to_string(rank));
  }
  for (const auto& [rank, t] : predicted) {
    if (!measured.count(rank)) throw Error(measured_path + ": no measurement for rank " + std::to_string(rank));
  }
  double abs_error = 0, total = 0, max_measured = 0, max_predicted = 0;
  fmt::print("{:>7} {:>16} {:>16} {:>10}\n", "rank", "measured[s]", "predicted[s]", "error");
  for (const auto& [rank, m] : measured) {
    const double p = predicted.at(rank);
    abs_error += std::fabs(m - p);
    total += m;
    max_measured = std::max(max_measured, m);
    max_predicted = std::max(max_predicted, p);
    fmt::print("{:>7} {:>16.9g} {:>16.9g} {:>9.1f}%\n", rank, m, p, m > 0 ? 100 * (p - m) / m : 0.0);
  }
  // Thune eq. (11): sum |T_actual - T| / sum T_actual.
  fmt::print("total relative error (eq. 11): {:.4f}\n", total > 0 ? abs_error / total : 0.0);
  fmt::print("makespan: measured {:.9g} s, predicted {:.9g} s, error {:+.1f}%\n", max_measured, max_predicted,
             max_measured > 0 ? 100 * (max_predicted - max_measured) / max_measured : 0.0);
  return 0;
}

}  // namespace

Action add_compare_command(CLI::App& app) {
  auto measured = std::make_shared<std::string>();
  auto predicted = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("compare", "Measured against predicted per-rank times, with Thune's eq. (11) error");
  cmd->add_option("--measured", *measured, "CSV with columns rank,time (seconds)")->required();
  cmd->add_option("--predicted", *predicted, "CSV with rank and total_time (contend simulate/analyze --per-rank)")
      ->required();
  return [measured, predicted] { return run_compare(*measured, *predicted); };
}

}  // namespace contend::cli
