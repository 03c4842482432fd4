#pragma once
// The rows of a sweep's results.csv (docs/sweeps.md, "results.csv"): one per
// case, in case order,
//   case,hash,<the sweep's columns>,status,makespan_s,mean_rank_time_s,
//   min_rank_time_s,max_rank_time_s,messages,intra_socket_bytes,
//   inter_socket_bytes,inter_node_bytes,wall_s,error
// Every way of running a sweep (`contend sweep` on local workers, its shards,
// contend-sweep-mpi) writes them with these functions, so the same case gives
// the same row whichever ran it (wall_s aside: it is measured).
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/sweep_spec.hpp"

namespace contend {

// What one case gave: its figures, or the error that stopped it.
struct CaseOutcome {
  bool ok = false;
  std::string error;                                                              // when not ok (one line)
  double makespan = 0, mean_rank_time = 0, min_rank_time = 0, max_rank_time = 0;  // seconds
  std::uint64_t messages = 0;
  std::array<std::uint64_t, 3> level_bytes{};  // intra_socket, inter_socket, inter_node
  double wall_seconds = 0;                     // the case's own run, in its process
};

// The outcome's columns as one CSV line, "ok,1.5e-05,...": what a case's
// process hands back to the one writing the file, and the tail of the row.
std::string encode_outcome(const CaseOutcome& outcome);
// The outcome of a failed case that never said why itself (its process died).
std::string failed_outcome(const std::string& error, double wall_seconds);
// Checks a line from a case's process; throws naming `from` when it is not one.
void check_outcome(const std::string& line, const std::string& from);

// A CSV field: as is, or in double quotes when it holds a comma, a quote or
// blanks at its ends; line breaks become " | " (a row is one line).
std::string csv_field(std::string_view text);

std::vector<std::string> sweep_header(const SweepSpec& spec);
std::string sweep_header_line(const SweepSpec& spec);

struct SweepRow {
  std::size_t index = 0;
  std::string hash;
  bool ok = false;
  std::string line;  // the whole row, without its line break
};
SweepRow sweep_row(const SweepCase& c, const std::string& hash, const std::string& outcome_line);

// The rows of a sweep CSV written for `spec` (by any of the ways), by case
// index. Throws file:line:col when the file is not one: another sweep's
// columns, a row that is not a case of this sweep.
std::map<std::size_t, SweepRow> read_sweep_rows(const std::string& path, const SweepSpec& spec);

// The header, then the rows in case order.
void write_sweep_csv(std::ostream& out, const SweepSpec& spec, const std::map<std::size_t, SweepRow>& rows);

}  // namespace contend
