#include "sim/core/csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <type_traits>

#include "sim/core/file_io.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"

namespace contend {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// The line up to a '#' that is not inside a quoted field.
std::string_view without_unquoted_comment(std::string_view line) {
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"') quoted = !quoted;
    if (line[i] == '#' && !quoted) return line.substr(0, i);
  }
  return line;
}

std::vector<CsvRow::Field> split_fields(std::string_view line, const SourceLocation& where) {
  std::vector<CsvRow::Field> fields;
  std::size_t i = 0;
  while (true) {
    const std::size_t begin = i;
    while (i < line.size() && is_blank(line[i])) ++i;
    CsvRow::Field field;
    if (i < line.size() && line[i] == '"') {
      field.column = static_cast<int>(i) + 1;
      for (++i;; ++i) {
        if (i >= line.size())
          throw Error(SourceLocation{where.file, where.line, field.column}, "a quoted field has no closing '\"'");
        if (line[i] != '"') {
          field.text += line[i];
        } else if (i + 1 < line.size() && line[i + 1] == '"') {
          field.text += '"';
          ++i;
        } else {
          break;
        }
      }
      for (++i; i < line.size() && is_blank(line[i]);) ++i;
      if (i < line.size() && line[i] != ',') {
        throw Error(SourceLocation{where.file, where.line, static_cast<int>(i) + 1},
                    "expected ',' after a quoted field");
      }
    } else {
      const std::size_t comma = std::min(line.find(',', begin), line.size());
      const std::string_view value = trim(line.substr(begin, comma - begin));
      field.text = std::string(value);
      field.column = static_cast<int>(value.empty() ? begin : static_cast<std::size_t>(value.data() - line.data())) + 1;
      i = comma;
    }
    fields.push_back(std::move(field));
    if (i >= line.size()) return fields;
    ++i;  // the comma
  }
}

template <typename T>
bool parse_whole(std::string_view text, T& value) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size()) return false;
  if constexpr (std::is_floating_point_v<T>) return std::isfinite(value);
  return true;
}

constexpr std::string_view kSeconds = "a time in seconds (a number >= 0)";
constexpr std::string_view kCount = "a count (an integer >= 0)";

}  // namespace

CsvRow::CsvRow(std::shared_ptr<const Header> header, int line, std::vector<Field> fields)
    : header_(std::move(header)), line_(line), fields_(std::move(fields)) {}

const CsvRow::Field& CsvRow::field(std::string_view column) const {
  const auto it = header_->index.find(column);
  if (it == header_->index.end())
    throw std::logic_error("CsvRow: the header has no column '" + std::string(column) + "'");
  return fields_[it->second];
}

bool CsvRow::has(std::string_view column) const {
  const auto it = header_->index.find(column);
  return it != header_->index.end() && !fields_[it->second].text.empty();
}

const std::string& CsvRow::text(std::string_view column) const { return field(column).text; }

SourceLocation CsvRow::where(std::string_view column) const {
  return SourceLocation{header_->file, line_, field(column).column};
}

void CsvRow::expected(std::string_view column, std::string_view what) const {
  fail(column, std::string(column) + ": expected " + std::string(what) + ", got '" + text(column) + "'");
}

void CsvRow::fail(std::string_view column, const std::string& message) const { throw Error(where(column), message); }

void CsvRow::fail(const std::string& message) const { throw Error(SourceLocation{header_->file, line_, 1}, message); }

void CsvRow::refuse(std::string_view column, const std::string& limit_message) const {
  throw LimitError(where(column), limit_message);
}

double CsvRow::number(std::string_view column, std::string_view what) const {
  double value = 0;
  if (!parse_whole(text(column), value)) expected(column, what);
  return value;
}

double CsvRow::seconds(std::string_view column) const {
  const double value = number(column, kSeconds);
  if (value < 0) expected(column, kSeconds);
  return value;
}

long long CsvRow::count(std::string_view column) const {
  long long value = 0;
  if (!parse_whole(text(column), value) || value < 0) expected(column, kCount);
  return value;
}

std::uint64_t CsvRow::size(std::string_view column) const {
  const auto value = units::parse_size(text(column));
  if (!value) {
    if (auto breach = units::limit_breach(units::QuantityKind::size, text(column)); !breach.empty()) {
      refuse(column, std::string(column) + ": " + breach);
    }
    expected(column, units::kSizeHelp);
  }
  return *value;
}

template <typename T>
T CsvRow::at_least(std::string_view column, T min) const {
  T value{};
  if (!parse_whole(text(column), value) || !(value >= min)) expected(column, "a number >= " + std::to_string(min));
  return value;
}

template int CsvRow::at_least<int>(std::string_view, int) const;
template std::uint64_t CsvRow::at_least<std::uint64_t>(std::string_view, std::uint64_t) const;
template double CsvRow::at_least<double>(std::string_view, double) const;

CsvFile CsvFile::read(std::istream& in, const std::string& name, const CsvColumns& columns) {
  CsvFile csv;
  auto header = std::make_shared<CsvRow::Header>();
  header->file = name;
  std::size_t header_fields = 0;
  int number = 0;
  for (std::string text; read_line(in, text, name, number + 1);) {
    const SourceLocation where{name, ++number, 1};
    const std::string_view content = without_unquoted_comment(text);
    if (trim(content).empty()) continue;
    auto fields = split_fields(content, where);
    if (csv.header_line_ > 0) {
      if (fields.size() != header_fields) {
        throw Error(where, "expected " + std::to_string(header_fields) + " fields as in the header, got " +
                               std::to_string(fields.size()));
      }
      csv.rows_.emplace_back(csv.header_, number, std::move(fields));
      continue;
    }
    std::vector<std::string> known = columns.required;
    known.insert(known.end(), columns.optional.begin(), columns.optional.end());
    for (const auto& [column, former] : columns.former_names) known.push_back(former);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const std::string& column = fields[i].text;
      const SourceLocation at{name, number, fields[i].column};
      if (columns.only_known && std::find(known.begin(), known.end(), column) == known.end()) {
        throw Error(at, "unknown column '" + column + "'" + did_you_mean(column, known) + "; expected " + join(known));
      }
      if (!header->index.emplace(column, i).second) throw Error(at, "column '" + column + "' given twice");
    }
    for (const auto& [column, former] : columns.former_names) {
      const auto old = header->index.find(former);
      if (old != header->index.end() && !header->index.count(column)) header->index.emplace(column, old->second);
    }
    for (const auto& column : columns.required) {
      if (header->index.count(column)) continue;
      if (columns.header_error) throw Error(where, columns.header_error(trim(content)));
      throw Error(where, "missing column '" + column + "'; the header needs " + join(columns.required));
    }
    header_fields = fields.size();
    csv.header_ = header;
    csv.header_line_ = number;
  }
  if (in.bad()) throw Error("error while reading '" + name + "'");
  if (csv.header_line_ == 0) {
    throw Error(SourceLocation{name, 0, 0},
                "no header line: expected one naming the columns " + join(columns.required));
  }
  csv.last_line_ = number;
  return csv;
}

CsvFile CsvFile::read(const std::string& path, const CsvColumns& columns) {
  std::ifstream in = open_input(path);
  return read(in, path, columns);
}

bool CsvFile::has_column(std::string_view column) const { return header_->index.count(column) > 0; }

SourceLocation CsvFile::header_where() const { return SourceLocation{header_->file, header_line_, 1}; }

SourceLocation CsvFile::end() const { return SourceLocation{header_->file, last_line_, 0}; }

}  // namespace contend
