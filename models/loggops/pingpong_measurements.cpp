#include "models/loggops/pingpong_measurements.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <vector>

#include "sim/core/datatype.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace {

struct Field {
  std::string_view text;
  int column;
};

// Fields separated by commas; a field in double quotes may hold commas
// (datatype names do: "vector:4,1,4:float").
std::vector<Field> split(std::string_view line) {
  std::vector<Field> out;
  std::size_t begin = 0;
  while (true) {
    std::size_t start = begin;
    while (start < line.size() && (line[start] == ' ' || line[start] == '\t')) ++start;
    std::size_t comma;
    std::string_view value;
    if (start < line.size() && line[start] == '"') {
      const auto close = line.find('"', start + 1);
      const auto end = close == std::string_view::npos ? line.size() : close;
      value = line.substr(start + 1, end - start - 1);
      comma = close == std::string_view::npos ? std::string_view::npos : line.find(',', close);
      out.push_back({value, static_cast<int>(start) + 2});
    } else {
      comma = line.find(',', begin);
      const auto raw = line.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
      value = trim(raw);
      out.push_back({value, static_cast<int>(value.empty() ? begin : value.data() - line.data()) + 1});
    }
    if (comma == std::string_view::npos) return out;
    begin = comma + 1;
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::map<std::uint64_t, double> read_pingpong_medians(const std::string& path, const std::string& datatype) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open measured ping-pong file '" + path + "'");
  std::optional<std::size_t> bytes_at, seconds_at, type_at;
  std::size_t fields = 0;
  std::map<std::uint64_t, std::vector<double>> samples;
  std::string text;
  int line = 0;
  bool header = true;
  while (std::getline(in, text)) {
    ++line;
    std::string_view content = text;
    if (auto hash = content.find('#'); hash != std::string_view::npos) content = content.substr(0, hash);
    if (trim(content).empty()) continue;
    const auto cells = split(content);
    if (header) {
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].text == "bytes") bytes_at = i;
        if (cells[i].text == "seconds") seconds_at = i;
        if (cells[i].text == "datatype") type_at = i;
      }
      if (!bytes_at || !seconds_at) {
        throw Error(SourceLocation{path, line, 1}, "expected a header with columns 'bytes' and 'seconds' "
                                                   "(and optionally 'datatype')");
      }
      fields = cells.size();
      header = false;
      continue;
    }
    if (cells.size() != fields) {
      throw Error(SourceLocation{path, line, 1},
                  fmt::format("expected {} fields as in the header, got {}", fields, cells.size()));
    }
    if (type_at) {
      std::string error;
      const auto type = parse_datatype(cells[*type_at].text, error);
      if (!type) throw Error(SourceLocation{path, line, cells[*type_at].column}, "datatype: expected " + error);
      if (type->name() != datatype) continue;
    }
    const Field& b = cells[*bytes_at];
    std::uint64_t k = 0;
    if (auto [p, ec] = std::from_chars(b.text.data(), b.text.data() + b.text.size(), k);
        ec != std::errc{} || p != b.text.data() + b.text.size()) {
      throw Error(SourceLocation{path, line, b.column}, "bytes: expected a whole number of bytes, got '" +
                                                            std::string(b.text) + "'");
    }
    const Field& s = cells[*seconds_at];
    double t = 0;
    if (auto [p, ec] = std::from_chars(s.text.data(), s.text.data() + s.text.size(), t);
        ec != std::errc{} || p != s.text.data() + s.text.size() || !std::isfinite(t) || t <= 0) {
      throw Error(SourceLocation{path, line, s.column}, "seconds: expected a round-trip time > 0, got '" +
                                                            std::string(s.text) + "'");
    }
    samples[k].push_back(t);
  }
  if (header) throw Error(SourceLocation{path, 0, 0}, "empty file: expected a header with 'bytes' and 'seconds'");
  std::map<std::uint64_t, double> medians;
  for (auto& [k, v] : samples) medians[k] = median(std::move(v));
  return medians;
}

}  // namespace contend
