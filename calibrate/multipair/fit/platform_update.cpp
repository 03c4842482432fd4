#include "calibrate/multipair/fit/platform_update.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"
#include "sim/core/yaml_edit.hpp"

namespace contend::calibrate {
namespace {

constexpr std::string_view kMarker = "# latency, bandwidth: ";

std::string describe_ns(const LevelFit& fit) {
  std::vector<std::string> ns;
  for (const auto& f : fit.by_n) ns.push_back(std::to_string(f.n));
  return join(ns);
}

// The eager_threshold line as written (with its comment) when it stands on
// a line of its own; otherwise one made from its value.
std::string eager_line(const YamlText::Entry& entry) {
  for (std::size_t i = 1; i < entry.lines.size(); ++i) {
    const auto t = trim(entry.lines[i]);
    if (t.rfind("eager_threshold:", 0) == 0) return std::string(t);
  }
  return "eager_threshold: " + entry.value.require("eager_threshold", "a size").node().Scalar();
}

// The new entry, its key at column 0: full-line comments kept (but the
// previous fit's), then the fitted latency and bandwidth.
std::vector<std::string> level_lines(const YamlText::Entry& entry, std::string_view level, const LevelFit& fit,
                                     const std::string& source) {
  const std::string pad(entry.child_indent - entry.indent, ' ');
  std::string table;
  const BandwidthTable fitted = fit.table();
  for (const auto& [n, bw] : fitted.points())
    table += fmt::format("{}{}: {}", table.empty() ? "" : ", ", n, units::format_bandwidth(bw));
  std::vector<std::string> out{std::string(level) + ":"};
  for (std::size_t i = 1; i < entry.lines.size(); ++i) {
    const auto t = trim(entry.lines[i]);
    if (!t.empty() && t[0] == '#' && t.rfind(kMarker, 0) != 0) out.push_back(pad + std::string(t));
  }
  out.push_back(pad + std::string(kMarker) + "Thune Algorithm 1, fitted by contend fit-multipair from " + source +
                " (N = " + describe_ns(fit) + (fit.tau_clamped ? "; negative intercept, tau set to 0" : "") + ")");
  out.push_back(pad + "latency: " + units::format_duration(fit.tau));
  out.push_back(pad + eager_line(entry));
  out.push_back(pad + "bandwidth: {" + table + "}");
  return out;
}

bool same_level(const LevelParams& a, const LevelParams& b) {
  return a.latency == b.latency && a.eager_threshold == b.eager_threshold &&
         a.bandwidth.points() == b.bandwidth.points();
}

}  // namespace

std::string update_platform_levels(const std::string& text, const std::string& name,
                                   const std::map<Level, LevelFit>& fits, const std::map<Level, std::string>& sources) {
  const Platform before = parse_platform(YamlField::load_string(text, name));
  YamlText yaml(text, name);
  for (const auto& [level, fit] : fits) {
    const std::string path = "levels." + std::string(level_name(level));
    const auto entry = yaml.entry(path, "level");
    if (!entry) continue;
    const auto source = sources.find(level);
    yaml.set_entry(path,
                   level_lines(*entry, level_name(level), fit,
                               source == sources.end() ? std::string("the benchmark") : source->second),
                   "level");
  }
  const std::string& out = yaml.text();

  // The new file must parse, carry the fitted values, and leave other levels alone.
  const Platform after = parse_platform(yaml.root());
  for (Level l : kAllLevels) {
    const auto fit = fits.find(l);
    if (fit == fits.end()) {
      if (!same_level(before.level(l), after.level(l)))
        throw Error(name + ": internal error: level " + std::string(level_name(l)) + " changed");
      continue;
    }
    if (after.level(l).bandwidth.points().size() != fit->second.by_n.size()) {
      throw Error(name + ": levels." + std::string(level_name(l)) + " was not found or not rewritten");
    }
  }
  return out;
}

}  // namespace contend::calibrate
