#include "models/dedicated_core/progress_profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <ostream>
#include <map>
#include <set>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace {

const std::vector<std::string> kOptional = {"t_mpi"};

struct Cell {
  std::string_view text;
  int column;  // 1-based
};

std::vector<Cell> split_csv(std::string_view line) {
  std::vector<Cell> cells;
  std::size_t begin = 0;
  while (true) {
    const auto comma = line.find(',', begin);
    const auto raw = line.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
    const auto value = trim(raw);
    const auto offset = value.empty() ? begin : static_cast<std::size_t>(value.data() - line.data());
    cells.push_back({value, static_cast<int>(offset) + 1});
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  return cells;
}

class RowReader {
 public:
  RowReader(const std::string& file, int line, const std::vector<Cell>& cells, const std::map<std::string, std::size_t>& index)
      : file_(file), line_(line), cells_(cells), index_(index) {}

  bool has(const std::string& column) const {
    const auto it = index_.find(column);
    return it != index_.end() && !cells_[it->second].text.empty();
  }
  double seconds(const std::string& column) const {
    const Cell& c = cell(column);
    double v = 0;
    auto [ptr, ec] = std::from_chars(c.text.data(), c.text.data() + c.text.size(), v);
    if (ec != std::errc{} || ptr != c.text.data() + c.text.size() || !std::isfinite(v) || v < 0) {
      fail(c, fmt::format("{}: expected a time in seconds (a number >= 0), got '{}'", column, c.text));
    }
    return v;
  }
  long long count(const std::string& column) const {
    const Cell& c = cell(column);
    long long v = 0;
    auto [ptr, ec] = std::from_chars(c.text.data(), c.text.data() + c.text.size(), v);
    if (ec != std::errc{} || ptr != c.text.data() + c.text.size() || v < 0) {
      fail(c, fmt::format("{}: expected a count (an integer >= 0), got '{}'", column, c.text));
    }
    return v;
  }
  [[noreturn]] void fail(const Cell& c, const std::string& message) const {
    throw Error(SourceLocation{file_, line_, c.column}, message);
  }
  const Cell& cell(const std::string& column) const { return cells_[index_.at(column)]; }

 private:
  const std::string& file_;
  int line_;
  const std::vector<Cell>& cells_;
  const std::map<std::string, std::size_t>& index_;
};

ProgressProfile read_row(const RowReader& row) {
  ProgressProfile p;
  p.rank = static_cast<int>(std::min<long long>(row.count("rank"), 1 << 30));
  p.t_noprogress = row.seconds("t_noprogress");
  p.t_comp = row.seconds("t_comp");
  p.n_nonblocking = row.count("n_nonblocking");
  p.t_min_nonblocking = row.seconds("t_min_nonblocking");
  p.n_test = row.count("n_test");
  p.t_min_test = row.seconds("t_min_test");
  p.n_wait = row.count("n_wait");
  p.t_min_wait = row.seconds("t_min_wait");
  p.n_blocking = row.count("n_blocking");
  p.t_blocking = row.seconds("t_blocking");
  p.t_other = row.seconds("t_other");
  if (row.has("t_mpi")) p.t_mpi = row.seconds("t_mpi");
  if (p.t_blocking > 0 && p.n_blocking == 0) {
    row.fail(row.cell("n_blocking"), fmt::format("n_blocking: t_blocking is {} s but no blocking call is counted",
                                                 p.t_blocking));
  }
  if (p.t_comp > p.t_noprogress) {
    row.fail(row.cell("t_comp"), fmt::format("t_comp ({}) exceeds t_noprogress ({}): the time outside MPI cannot "
                                             "exceed the run time",
                                             p.t_comp, p.t_noprogress));
  }
  return p;
}

}  // namespace

const std::vector<std::string>& progress_profile_columns() {
  static const std::vector<std::string> columns = {
      "rank",   "t_noprogress", "t_comp",     "n_nonblocking", "t_min_nonblocking", "n_test",
      "t_min_test", "n_wait",   "t_min_wait", "n_blocking",    "t_blocking",        "t_other"};
  return columns;
}

std::vector<ProgressProfile> read_progress_profile(std::istream& in, const std::string& name) {
  std::map<std::string, std::size_t> index;
  std::vector<ProgressProfile> rows;
  std::set<int> ranks;
  std::string text;
  int line = 0;
  std::size_t header_cells = 0;
  while (std::getline(in, text)) {
    ++line;
    std::string_view content = text;
    if (auto hash = content.find('#'); hash != std::string_view::npos) content = content.substr(0, hash);
    if (trim(content).empty()) continue;
    const auto cells = split_csv(content);
    if (index.empty()) {
      std::vector<std::string> known = progress_profile_columns();
      known.insert(known.end(), kOptional.begin(), kOptional.end());
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::string column(cells[i].text);
        if (std::find(known.begin(), known.end(), column) == known.end()) {
          throw Error(SourceLocation{name, line, cells[i].column},
                      "unknown column '" + column + "'" + did_you_mean(column, known) + "; expected " + join(known));
        }
        if (!index.emplace(column, i).second) {
          throw Error(SourceLocation{name, line, cells[i].column}, "column '" + column + "' given twice");
        }
      }
      for (const auto& column : progress_profile_columns()) {
        if (!index.count(column)) {
          throw Error(SourceLocation{name, line, 1}, "missing column '" + column + "'; the header needs " +
                                                         join(progress_profile_columns()));
        }
      }
      header_cells = cells.size();
      continue;
    }
    if (cells.size() != header_cells) {
      throw Error(SourceLocation{name, line, 1},
                  fmt::format("expected {} fields as in the header, got {}", header_cells, cells.size()));
    }
    const RowReader row(name, line, cells, index);
    ProgressProfile p = read_row(row);
    if (!ranks.insert(p.rank).second) row.fail(row.cell("rank"), fmt::format("rank {} given twice", p.rank));
    rows.push_back(p);
  }
  if (index.empty()) throw Error(SourceLocation{name, 0, 0}, "empty profile: expected a header line");
  if (rows.empty()) throw Error(SourceLocation{name, line, 0}, "the profile has a header but no rank");
  return rows;
}

void write_progress_profile(std::ostream& out, const std::vector<ProgressProfile>& rows) {
  out << join(progress_profile_columns(), ",") << ",t_mpi\n";
  for (const auto& p : rows) {
    out << fmt::format("{},{:.12g},{:.12g},{},{:.12g},{},{:.12g},{},{:.12g},{},{:.12g},{:.12g},{:.12g}\n", p.rank,
                       p.t_noprogress, p.t_comp, p.n_nonblocking, p.t_min_nonblocking, p.n_test, p.t_min_test,
                       p.n_wait, p.t_min_wait, p.n_blocking, p.t_blocking, p.t_other, p.mpi_time());
  }
}

std::vector<ProgressProfile> profile_of(const Results& results) {
  std::vector<ProgressProfile> rows;
  for (std::size_t i = 0; i < results.ranks.size() && i < results.calls.size(); ++i) {
    const auto& c = results.calls[i];
    ProgressProfile p;
    p.rank = results.ranks[i].rank;
    p.t_noprogress = results.ranks[i].total_time;
    p.t_comp = c.outside;
    p.n_nonblocking = static_cast<long long>(c.nonblocking.count);
    p.t_min_nonblocking = c.nonblocking.min;
    p.n_test = static_cast<long long>(c.test.count);
    p.t_min_test = c.test.min;
    p.n_wait = static_cast<long long>(c.wait.count);
    p.t_min_wait = c.wait.min;
    p.n_blocking = static_cast<long long>(c.blocking.count);
    p.t_blocking = c.blocking.total;
    p.t_other = 0;  // the simulator has no other MPI calls
    p.t_mpi = c.nonblocking.total + c.test.total + c.wait.total + c.blocking.total;
    rows.push_back(p);
  }
  return rows;
}

std::vector<ProgressProfile> read_progress_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open profile '" + path + "'");
  return read_progress_profile(in, path);
}

}  // namespace contend
