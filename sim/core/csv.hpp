#pragma once
// Comma-separated files whose first line names the columns: the raw output of
// the calibration benchmarks, measured times, progression profiles.
//   - '#' starts a comment (outside quotes); blank lines are skipped;
//   - the first other line is the header; every data line has as many fields;
//   - fields are trimmed; a field in double quotes may hold commas
//     ("vector:4,1,4:float"), and "" in it stands for one quote;
//   - fields are found by column name, whatever the order of the columns.
// Errors name file:line:col and what was expected:
//   raw.csv:4:19: size: expected a number >= 1, got '64k'
#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"

namespace contend {

struct CsvColumns {
  std::vector<std::string> required{};
  std::vector<std::string> optional{};  // with only_known: the other columns a header may have
  bool only_known = false;              // a column neither required nor optional is an error
  // {column, the name files written before it carried its unit give it}
  // ({"time_s", "time"}): a header with the old name and not the new one
  // is read as if it said the new one.
  std::vector<std::pair<std::string, std::string>> former_names{};
  // The message when the header lacks a required column, given the header
  // line as written; unset: "missing column 'c'; the header needs a, b, c".
  std::function<std::string(std::string_view header)> header_error{};
};

class CsvRow {
 public:
  struct Field {
    std::string text;
    int column = 1;  // where the field begins on its line, 1-based
  };
  struct Header {
    std::string file;
    std::map<std::string, std::size_t, std::less<>> index;  // column name -> field
  };
  CsvRow(std::shared_ptr<const Header> header, int line, std::vector<Field> fields);

  int line() const { return line_; }
  // The column is in the header and its field on this line is not empty.
  bool has(std::string_view column) const;
  const std::string& text(std::string_view column) const;
  SourceLocation where(std::string_view column) const;

  // Typed fields; each throws "file:line:col: column: expected <what>, got '<text>'".
  double number(std::string_view column, std::string_view what = "a number") const;  // finite
  double seconds(std::string_view column) const;                                     // a number >= 0
  long long count(std::string_view column) const;                                    // an integer >= 0
  std::uint64_t size(std::string_view column) const;                                 // 4096, 8KiB (units::parse_size)
  // An integer (int, std::uint64_t) or a number (double) of at least `min`:
  // "expected a number >= <min>".
  template <typename T>
  T at_least(std::string_view column, T min) const;

  // "file:line:col: column: expected <what>, got '<text>'" at the field.
  [[noreturn]] void expected(std::string_view column, std::string_view what) const;
  // "file:line:col: <message>" at the field, or at the start of the line.
  [[noreturn]] void fail(std::string_view column, const std::string& message) const;
  [[noreturn]] void fail(const std::string& message) const;
  // Throws LimitError at the field (a limit of sim/core/limits.hpp).
  [[noreturn]] void refuse(std::string_view column, const std::string& limit_message) const;

 private:
  const Field& field(std::string_view column) const;

  std::shared_ptr<const Header> header_;
  int line_;
  std::vector<Field> fields_;
};

class CsvFile {
 public:
  // `name` is the file's name in errors.
  static CsvFile read(std::istream& in, const std::string& name, const CsvColumns& columns);
  // Throws "cannot open 'path' for reading".
  static CsvFile read(const std::string& path, const CsvColumns& columns);

  const std::vector<CsvRow>& rows() const { return rows_; }
  bool has_column(std::string_view column) const;
  SourceLocation header_where() const;  // the header line
  SourceLocation end() const;           // the last line of the file

 private:
  std::shared_ptr<const CsvRow::Header> header_;
  int header_line_ = 0;
  int last_line_ = 0;
  std::vector<CsvRow> rows_;
};

}  // namespace contend
