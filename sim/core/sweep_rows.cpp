#include "sim/core/sweep_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "sim/core/csv.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace {

const std::vector<std::string>& outcome_columns() {
  static const std::vector<std::string> columns = {
      "status",   "makespan_s",         "mean_rank_time_s",   "min_rank_time_s",  "max_rank_time_s",
      "messages", "intra_socket_bytes", "inter_socket_bytes", "inter_node_bytes", "wall_s",
      "error"};
  return columns;
}

std::string joined_fields(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
  return line;
}

// Times as every CSV writer of contend writes them: 12 significant digits.
std::string seconds(double s) { return fmt::format("{:.12g}", s); }

}  // namespace

std::string csv_field(std::string_view text) {
  std::string one_line;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') continue;
    if (text[i] == '\n') {
      if (i + 1 < text.size()) one_line += " | ";
      continue;
    }
    one_line += text[i];
  }
  const bool plain = one_line.find_first_of(",\"#") == std::string::npos && trim(one_line) == one_line;
  if (plain) return one_line;
  std::string quoted = "\"";
  for (char ch : one_line) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

std::string encode_outcome(const CaseOutcome& o) {
  if (!o.ok) return joined_fields({"error", "", "", "", "", "", "", "", "", seconds(o.wall_seconds), o.error});
  return joined_fields({"ok", seconds(o.makespan), seconds(o.mean_rank_time), seconds(o.min_rank_time),
                        seconds(o.max_rank_time), std::to_string(o.messages), std::to_string(o.level_bytes[0]),
                        std::to_string(o.level_bytes[1]), std::to_string(o.level_bytes[2]), seconds(o.wall_seconds),
                        ""});
}

std::string failed_outcome(const std::string& error, double wall_seconds) {
  CaseOutcome o;
  o.error = error;
  o.wall_seconds = wall_seconds;
  return encode_outcome(o);
}

void check_outcome(const std::string& line, const std::string& from) {
  std::istringstream in(joined_fields(outcome_columns()) + "\n" + line + "\n");
  const auto csv = CsvFile::read(in, from, CsvColumns{outcome_columns(), {}, true});
  if (csv.rows().size() != 1) throw Error(from + ": expected one line of a case's outcome, got '" + line + "'");
  const auto& row = csv.rows().front();
  const std::string& status = row.text("status");
  if (status != "ok" && status != "error") row.expected("status", "ok or error");
  row.seconds("wall_s");
  if (status == "ok") {
    for (const auto* column : {"makespan_s", "mean_rank_time_s", "min_rank_time_s", "max_rank_time_s"})
      row.seconds(column);
    for (const auto* column : {"messages", "intra_socket_bytes", "inter_socket_bytes", "inter_node_bytes"})
      row.count(column);
  }
}

std::vector<std::string> sweep_header(const SweepSpec& spec) {
  std::vector<std::string> header = {"case", "hash"};
  header.insert(header.end(), spec.columns.begin(), spec.columns.end());
  header.insert(header.end(), outcome_columns().begin(), outcome_columns().end());
  return header;
}

std::string sweep_header_line(const SweepSpec& spec) { return joined_fields(sweep_header(spec)); }

SweepRow sweep_row(const SweepCase& c, const std::string& hash, const std::string& outcome_line) {
  std::vector<std::string> fields = {std::to_string(c.index), hash};
  fields.insert(fields.end(), c.values.begin(), c.values.end());
  return SweepRow{c.index, hash, outcome_line.starts_with("ok,"), joined_fields(fields) + "," + outcome_line};
}

std::map<std::size_t, SweepRow> read_sweep_rows(const std::string& path, const SweepSpec& spec) {
  const auto header = sweep_header(spec);
  {
    std::ifstream in = open_input(path);
    std::string first;
    read_line(in, first, path, 1);
    if (first != joined_fields(header))
      throw Error(SourceLocation{path, 1, 1}, "not the results of this sweep: expected the columns " +
                                                  join(header, ",") +
                                                  "; give another --output, or remove the file to start again");
  }
  const auto csv = CsvFile::read(path, CsvColumns{header, {}, true});
  std::map<std::size_t, SweepRow> rows;
  for (const auto& row : csv.rows()) {
    const auto index = static_cast<std::size_t>(row.count("case"));
    if (index >= spec.cases.size())
      row.expected("case", fmt::format("a case of this sweep (0 to {})", spec.cases.size() - 1));
    std::vector<std::string> fields;
    for (const auto& column : header) fields.push_back(row.text(column));
    const std::string& status = row.text("status");
    if (status != "ok" && status != "error") row.expected("status", "ok or error");
    if (!rows.emplace(index, SweepRow{index, row.text("hash"), status == "ok", joined_fields(fields)}).second)
      row.fail("case", fmt::format("case {} given twice", index));
  }
  return rows;
}

void write_sweep_csv(std::ostream& out, const SweepSpec& spec, const std::map<std::size_t, SweepRow>& rows) {
  out << sweep_header_line(spec) << "\n";
  for (const auto& [index, row] : rows) out << row.line << "\n";
}

}  // namespace contend
