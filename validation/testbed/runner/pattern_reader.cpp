#include "pattern_reader.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>

#include "util/error.hpp"
#include "util/text.hpp"
#include "util/units.hpp"

namespace contend::testbed {
namespace {

constexpr long long kMaxRanks = 1 << 24;
constexpr std::uint64_t kMaxBytes = std::numeric_limits<int>::max();

class Line {
 public:
  Line(std::string_view text, const std::string& file, int number)
      : text_(text), fields_(split_blanks(text)), file_(file), number_(number) {}
  std::size_t size() const { return fields_.size(); }
  std::string_view operator[](std::size_t i) const { return fields_[i]; }
  [[noreturn]] void fail(std::size_t field, const std::string& message) const {
    const int column = field < fields_.size() ? static_cast<int>(fields_[field].data() - text_.data()) + 1 : 1;
    throw Error(SourceLocation{file_, number_, column}, message);
  }
  int rank(std::size_t field, const char* what, int declared) const {
    long long v = -1;
    const auto t = fields_[field];
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc{} || ptr != t.data() + t.size() || v < 0 || v >= kMaxRanks) {
      fail(field, std::string(what) + ": expected a rank (an integer >= 0), got '" + std::string(t) + "'");
    }
    if (declared >= 0 && v >= declared) {
      fail(field, "rank " + std::to_string(v) + " is out of range: the pattern declares " + std::to_string(declared) + " ranks");
    }
    return static_cast<int>(v);
  }

 private:
  std::string_view text_;
  std::vector<std::string_view> fields_;
  const std::string& file_;
  int number_;
};

std::uint64_t parse_bytes(const Line& line, std::size_t field) {
  const auto bytes = units::parse_size(line[field]);
  if (!bytes) line.fail(field, "bytes: expected " + std::string(units::kSizeHelp) + ", got '" + std::string(line[field]) + "'");
  if (*bytes > kMaxBytes) line.fail(field, "bytes: at most 2 GiB - 1 in one MPI call, got " + std::to_string(*bytes));
  return *bytes;
}

// The step keywords the real runner executes, as contend writes them.
Step parse_keyword(const Line& line, int declared) {
  if (line[0] == "bcast") {
    if (line.size() != 3) line.fail(0, "expected 'bcast ROOT BYTES'");
    return Bcast{line.rank(1, "root", declared), parse_bytes(line, 2)};
  }
  if (line[0] == "barrier") {
    if (line.size() != 1) line.fail(1, "expected nothing after 'barrier'");
    return Barrier{};
  }
  line.fail(0, "step '" + std::string(line[0]) + "' is not supported by the real pattern runner (it runs exchanges " +
                   "'src dst bytes [@start]' separated by '---', 'bcast ROOT BYTES' and 'barrier')");
}

Message parse_message(const Line& line, int declared) {
  if (line.size() != 3 && line.size() != 4) {
    line.fail(0, "expected 'src dst bytes [@start]' (or 'ranks N'), got " + std::to_string(line.size()) + " fields");
  }
  Message m;
  m.src = line.rank(0, "src", declared);
  m.dst = line.rank(1, "dst", declared);
  m.bytes = parse_bytes(line, 2);
  if (line.size() == 4) {
    const auto field = line[3];
    const auto start = field.size() > 1 && field[0] == '@' ? units::parse_duration(field.substr(1)) : std::nullopt;
    if (!start) line.fail(3, "start: expected @ and " + std::string(units::kDurationHelp) + ", got '" + std::string(field) + "'");
    m.start = *start;
  }
  return m;
}

}  // namespace

RealPattern read_real_pattern(std::istream& in, const std::string& name) {
  RealPattern pattern;
  Exchange pending;
  int declared = -1, highest = -1, number = 0;
  for (std::string text; std::getline(in, text);) {
    ++number;
    std::string_view content = text;
    if (const auto hash = content.find('#'); hash != std::string_view::npos) content = content.substr(0, hash);
    const Line line(content, name, number);
    if (line.size() == 0) continue;
    if (line[0] == "ranks") {
      if (line.size() != 2) line.fail(0, "expected 'ranks N'");
      if (declared >= 0) line.fail(0, "'ranks' given twice");
      if (!pattern.steps.empty() || !pending.empty()) line.fail(0, "'ranks' must come before the steps");
      declared = line.rank(1, "ranks", -1);
      if (declared == 0) line.fail(1, "ranks: must be at least 1");
      continue;
    }
    if (line[0] == "---") {
      if (line.size() != 1) line.fail(1, "expected nothing after '---'");
      if (!pending.empty()) pattern.steps.emplace_back(std::move(pending));
      pending.clear();
      continue;
    }
    if ((line[0][0] < '0' || line[0][0] > '9') && line[0][0] != '-') {
      if (!pending.empty()) pattern.steps.emplace_back(std::move(pending));
      pending.clear();
      const Step step = parse_keyword(line, declared);
      if (const auto* b = std::get_if<Bcast>(&step)) highest = std::max(highest, b->root);
      pattern.steps.push_back(step);
      continue;
    }
    const Message m = parse_message(line, declared);
    highest = std::max({highest, m.src, m.dst});
    pending.push_back(m);
  }
  if (in.bad()) throw Error("error while reading '" + name + "'");
  if (!pending.empty()) pattern.steps.emplace_back(std::move(pending));
  if (declared < 0 && highest < 0) throw Error(SourceLocation{name, 0, 0}, "the pattern names no rank and has no 'ranks N' line");
  pattern.ranks = declared >= 0 ? declared : highest + 1;
  return pattern;
}

RealPattern read_real_pattern(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open pattern file '" + path + "'");
  return read_real_pattern(in, path);
}

}  // namespace contend::testbed
