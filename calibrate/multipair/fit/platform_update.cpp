#include "calibrate/multipair/fit/platform_update.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend::calibrate {
namespace {

constexpr std::string_view kMarker = "# latency, bandwidth: ";

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t indentation(const std::string& line) { return line.find_first_not_of(' '); }
bool is_blank_or_comment(const std::string& line) {
  const auto t = trim(line);
  return t.empty() || t[0] == '#';
}

// Lines [first, last] of the entry `levels.<level>`: its key line and every
// following line indented deeper (blank lines and comments before the next
// key excluded).
struct Span {
  std::size_t first, last, key_indent, child_indent;
};

Span find_level_span(const std::vector<std::string>& lines, const YamlField& key, const YamlField& value) {
  const auto where = key.where();
  const std::size_t first = static_cast<std::size_t>(where.line - 1);
  const std::size_t indent = static_cast<std::size_t>(where.column - 1);
  if (first >= lines.size() || indentation(lines[first]) != indent) {
    key.fail_with("cannot rewrite this level in place: write 'levels' in block style (one level per line)");
  }
  std::size_t last = first;
  for (std::size_t i = first + 1; i < lines.size(); ++i) {
    if (is_blank_or_comment(lines[i])) continue;
    if (indentation(lines[i]) <= indent) break;
    last = i;
  }
  std::size_t child = indent + 2;
  if (value.is_map() && value.where().line - 1 > static_cast<int>(first)) {  // block map: keep its indentation
    child = static_cast<std::size_t>(value.where().column - 1);
  }
  return Span{first, last, indent, child};
}

std::string describe_ns(const LevelFit& fit) {
  std::vector<std::string> ns;
  for (const auto& f : fit.by_n) ns.push_back(std::to_string(f.n));
  return join(ns);
}

// The eager_threshold line as written (with its comment) when it stands on
// a line of its own; otherwise one made from its value.
std::string eager_line(const std::vector<std::string>& lines, const Span& span, const YamlField& value) {
  for (std::size_t i = span.first + 1; i <= span.last; ++i) {
    const auto t = trim(lines[i]);
    if (t.rfind("eager_threshold:", 0) == 0) return std::string(t);
  }
  return "eager_threshold: " + value.require("eager_threshold", "a size").node().Scalar();
}

std::vector<std::string> level_lines(const std::vector<std::string>& lines, const Span& span, std::string_view level,
                                     const YamlField& value, const std::vector<std::string>& kept_comments,
                                     const LevelFit& fit, const std::string& source) {
  const std::string pad(span.child_indent, ' ');
  std::string table;
  const BandwidthTable fitted = fit.table();
  for (const auto& [n, bw] : fitted.points()) table += fmt::format("{}{}: {}", table.empty() ? "" : ", ", n, format_bandwidth(bw));
  std::vector<std::string> out;
  out.push_back(std::string(span.key_indent, ' ') + std::string(level) + ":");
  for (const auto& c : kept_comments) out.push_back(pad + std::string(trim(c)));
  out.push_back(pad + std::string(kMarker) + "Thune Algorithm 1, fitted by contend fit-multipair from " + source +
                " (N = " + describe_ns(fit) + (fit.tau_clamped ? "; negative intercept, tau set to 0" : "") + ")");
  out.push_back(pad + "latency: " + format_duration(fit.tau));
  out.push_back(pad + eager_line(lines, span, value));
  out.push_back(pad + "bandwidth: {" + table + "}");
  return out;
}

bool same_level(const LevelParams& a, const LevelParams& b) {
  return a.latency == b.latency && a.eager_threshold == b.eager_threshold && a.bandwidth.points() == b.bandwidth.points();
}

}  // namespace

namespace {
// To four significant digits first, so that 999.99996 us becomes 1 ms, not 1000 us.
double four_digits(double x) { return std::stod(fmt::format("{:.4g}", x)); }
}  // namespace

std::string format_bandwidth(double raw) {
  const double bps = four_digits(raw);
  if (bps >= 1e9) return fmt::format("{:.4g}GB/s", bps / 1e9);
  if (bps >= 1e6) return fmt::format("{:.4g}MB/s", bps / 1e6);
  if (bps >= 1e3) return fmt::format("{:.4g}kB/s", bps / 1e3);
  return fmt::format("{:.4g}", bps);
}

std::string format_duration(double raw) {
  const double s = four_digits(raw);
  if (s == 0) return "0us";
  if (s >= 1) return fmt::format("{:.4g}s", s);
  if (s >= 1e-3) return fmt::format("{:.4g}ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:.4g}us", s * 1e6);
  return fmt::format("{:.4g}ns", s * 1e9);
}

std::string update_platform_levels(const std::string& text, const std::string& name, const std::map<Level, LevelFit>& fits,
                                   const std::map<Level, std::string>& sources) {
  const Platform before = parse_platform(YamlField::load_string(text, name));
  const auto root = YamlField::load_string(text, name);
  const auto levels = root.require("levels", "the levels section");
  auto lines = split_lines(text);

  // Rewrite from the bottom of the file up, so earlier spans keep their line numbers.
  std::vector<std::pair<Span, std::vector<std::string>>> edits;
  for (const auto& [level, fit] : fits) {
    for (const auto& [key, value] : levels.entries()) {
      if (key.as_string() != level_name(level)) continue;
      const Span span = find_level_span(lines, key, value);
      std::vector<std::string> comments;
      for (std::size_t i = span.first + 1; i <= span.last; ++i) {
        const auto t = trim(lines[i]);
        if (!t.empty() && t[0] == '#' && t.rfind(kMarker, 0) != 0) comments.emplace_back(t);
      }
      const auto source = sources.find(level);
      edits.emplace_back(span, level_lines(lines, span, level_name(level), value, comments, fit,
                                           source == sources.end() ? std::string("the benchmark") : source->second));
    }
  }
  std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) { return a.first.first > b.first.first; });
  for (const auto& [span, replacement] : edits) {
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(span.first), lines.begin() + static_cast<std::ptrdiff_t>(span.last) + 1);
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(span.first), replacement.begin(), replacement.end());
  }
  std::string out;
  for (const auto& line : lines) out += line + "\n";

  // The new file must parse, carry the fitted values, and leave other levels alone.
  const Platform after = parse_platform(YamlField::load_string(out, name));
  for (Level l : kAllLevels) {
    const auto fit = fits.find(l);
    if (fit == fits.end()) {
      if (!same_level(before.level(l), after.level(l))) throw Error(name + ": internal error: level " + std::string(level_name(l)) + " changed");
      continue;
    }
    if (after.level(l).bandwidth.points().size() != fit->second.by_n.size()) {
      throw Error(name + ": levels." + std::string(level_name(l)) + " was not found or not rewritten");
    }
  }
  return out;
}

}  // namespace contend::calibrate
