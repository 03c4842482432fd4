#include "models/dedicated_core/progress_profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <ostream>
#include <set>

#include "sim/core/csv.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace {

ProgressProfile read_row(const CsvRow& row) {
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
    row.fail("n_blocking", fmt::format("n_blocking: t_blocking is {} s but no blocking call is counted", p.t_blocking));
  }
  if (p.t_comp > p.t_noprogress) {
    row.fail("t_comp",
             fmt::format("t_comp ({}) exceeds t_noprogress ({}): the time outside MPI cannot exceed the run time",
                         p.t_comp, p.t_noprogress));
  }
  return p;
}

}  // namespace

const std::vector<std::string>& progress_profile_columns() {
  static const std::vector<std::string> columns = {
      "rank",       "t_noprogress", "t_comp",     "n_nonblocking", "t_min_nonblocking", "n_test",
      "t_min_test", "n_wait",       "t_min_wait", "n_blocking",    "t_blocking",        "t_other"};
  return columns;
}

namespace {

const CsvColumns& profile_columns() {
  static const CsvColumns columns{.required = progress_profile_columns(), .optional = {"t_mpi"}, .only_known = true};
  return columns;
}

std::vector<ProgressProfile> profiles_of(const CsvFile& csv) {
  std::vector<ProgressProfile> rows;
  std::set<int> ranks;
  for (const auto& row : csv.rows()) {
    ProgressProfile p = read_row(row);
    if (!ranks.insert(p.rank).second) row.fail("rank", fmt::format("rank {} given twice", p.rank));
    rows.push_back(p);
  }
  if (rows.empty()) throw Error(csv.end(), "the profile has a header but no rank");
  return rows;
}

}  // namespace

std::vector<ProgressProfile> read_progress_profile(std::istream& in, const std::string& name) {
  return profiles_of(CsvFile::read(in, name, profile_columns()));
}

void write_progress_profile(std::ostream& out, const std::vector<ProgressProfile>& rows) {
  out << join(progress_profile_columns(), ",") << ",t_mpi\n";
  for (const auto& p : rows) {
    out << fmt::format("{},{:.12g},{:.12g},{},{:.12g},{},{:.12g},{},{:.12g},{},{:.12g},{:.12g},{:.12g}\n", p.rank,
                       p.t_noprogress, p.t_comp, p.n_nonblocking, p.t_min_nonblocking, p.n_test, p.t_min_test, p.n_wait,
                       p.t_min_wait, p.n_blocking, p.t_blocking, p.t_other, p.mpi_time());
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
  return profiles_of(CsvFile::read(path, profile_columns()));
}

}  // namespace contend
