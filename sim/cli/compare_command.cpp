// contend compare: measured against predicted per-rank times, with the
// total relative error of Thune et al.'s eq. (11).
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <map>

#include "sim/cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend::cli {
namespace {

// rank -> time from a CSV with a header naming `rank` and one of `columns`.
std::map<int, double> read_times(const std::string& path, const std::vector<std::string>& columns) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open '" + path + "'");
  std::string line;
  int line_no = 0;
  std::vector<std::string> header;
  std::size_t rank_col = 0, time_col = 0;
  std::map<int, double> out;
  auto split = [](const std::string& s) {
    std::vector<std::string> f;
    std::size_t start = 0;
    while (true) {
      const auto comma = s.find(',', start);
      f.emplace_back(trim(std::string_view(s).substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return f;
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (trim(line).empty()) continue;
    const auto fields = split(line);
    if (header.empty()) {
      header = fields;
      auto find = [&](const std::string& name) { return std::find(header.begin(), header.end(), name); };
      if (find("rank") == header.end()) throw Error(SourceLocation{path, line_no, 1}, "expected a header with a 'rank' column");
      rank_col = static_cast<std::size_t>(find("rank") - header.begin());
      auto t = header.end();
      for (const auto& c : columns) {
        if (t == header.end()) t = find(c);
      }
      if (t == header.end()) {
        throw Error(SourceLocation{path, line_no, 1}, "expected a header with a '" + join(columns, "' or '") + "' column");
      }
      time_col = static_cast<std::size_t>(t - header.begin());
      continue;
    }
    if (fields.size() != header.size()) {
      throw Error(SourceLocation{path, line_no, 1}, "expected " + std::to_string(header.size()) + " fields, got " +
                                                        std::to_string(fields.size()));
    }
    int rank = -1;
    double time = -1;
    const auto& r = fields[rank_col];
    const auto& t = fields[time_col];
    const auto rank_end = std::from_chars(r.data(), r.data() + r.size(), rank);
    const auto time_end = std::from_chars(t.data(), t.data() + t.size(), time);
    if (rank_end.ec != std::errc{} || rank_end.ptr != r.data() + r.size() || rank < 0 || time_end.ec != std::errc{} ||
        time_end.ptr != t.data() + t.size() || !std::isfinite(time) || time < 0) {
      throw Error(SourceLocation{path, line_no, 1}, "expected a rank (integer >= 0) and a time (seconds >= 0)");
    }
    if (!out.emplace(rank, time).second) {
      throw Error(SourceLocation{path, line_no, 1}, "rank " + std::to_string(rank) + " appears twice");
    }
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
