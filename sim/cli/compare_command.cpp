// contend compare: measured against predicted per-rank times, with the
// total relative error of Thune et al.'s eq. (11).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
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

// (predicted - measured) / measured in percent; undefined when nothing was measured.
std::string relative_error(double predicted, double measured, const char* format) {
  if (measured > 0) return fmt::format(fmt::runtime(format), 100 * (predicted - measured) / measured);
  return "undefined";
}

int run_compare(const std::string& measured_path, const std::string& predicted_path) {
  // The columns with their unit (contend's outputs) first, then the older names.
  const auto measured = read_times(measured_path, {"time_s", "time"});
  const auto predicted = read_times(predicted_path, {"total_time_s", "total_time", "time_s", "time"});
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
    fmt::print("{:>7} {:>16.9g} {:>16.9g} {:>10}\n", rank, m, p, relative_error(p, m, "{:.1f}%"));
  }
  // Thune eq. (11): sum |T_actual - T| / sum T_actual, undefined when every T_actual is 0.
  fmt::print("total relative error (eq. 11): {}\n",
             total > 0 ? fmt::format("{:.4f}", abs_error / total) : "undefined (every measured time is 0)");
  fmt::print("makespan: measured {:.9g} s, predicted {:.9g} s, error {}\n", max_measured, max_predicted,
             relative_error(max_predicted, max_measured, "{:+.1f}%"));
  return 0;
}

}  // namespace

Action add_compare_command(CLI::App& app) {
  auto measured = std::make_shared<std::string>();
  auto predicted = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("compare", "Measured against predicted per-rank times, with Thune's eq. (11) error");
  cmd->add_option("--measured", *measured, "CSV with columns rank,time_s (or rank,time), in seconds")->required();
  cmd->add_option("--predicted", *predicted, "CSV with rank and total_time_s (contend simulate/analyze --per-rank)")
      ->required();
  set_example(*cmd, {"contend simulate --platform platforms/testbed.yaml --trace traces/examples/traces/cg-2/trace.txt "
                     "--per-rank cg.csv --quiet",
                     "contend compare --measured traces/examples/traces/cg-2/measured.csv --predicted cg.csv"});
  return [measured, predicted] { return run_compare(*measured, *predicted); };
}

}  // namespace contend::cli
