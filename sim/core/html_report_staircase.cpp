// The report's staircase curves: BW_MP(N) of each level of the platform
// (its bandwidth table, Thune et al. Table I: linear between the points,
// constant after the last), with the operating points of the run: the N of
// the staircase groups its messages met (attribution intervals named
// `staircase:GROUP(N=n)`) or that a staircase resource's load reached.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>

#include "sim/core/html_report_parts.hpp"
#include "sim/core/units.hpp"

namespace contend::html {
namespace {

constexpr int kWidth = 350, kHeight = 230, kLeft = 64, kRight = 12, kTop = 12, kBottom = 36;

struct Use {
  std::uint64_t times = 0;  // intervals or load samples
  double seconds = 0;
};
using OperatingPoints = std::array<std::map<int, Use>, 3>;  // per level: N -> use

// "staircase:node0/socket1(N=32)" -> 32 and whether the group is a socket
// (intra-node: BW_mix of the intra- and inter-socket curves, Thune eqs.
// (12)-(17)) or a node (inter-node, eqs. (5)-(9)).
struct Group {
  int n;
  bool socket;
};
std::optional<Group> staircase_group(std::string_view resource) {
  constexpr std::string_view kPrefix = "staircase:";
  if (resource.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const bool socket = resource.find("/socket") != std::string_view::npos;
  const auto open = resource.find("(N=");
  if (open == std::string_view::npos) return std::nullopt;
  int n = 0;
  const char* from = resource.data() + open + 3;
  const auto [end, error] = std::from_chars(from, resource.data() + resource.size(), n);
  if (error != std::errc{} || n < 1 || end == resource.data() + resource.size() || *end != ')') return std::nullopt;
  return Group{n, socket};
}

void note_use(OperatingPoints& points, const Group& g, double seconds) {
  const auto add = [&](Level l) {
    Use& u = points[static_cast<std::size_t>(l)][g.n];
    ++u.times;
    u.seconds += seconds;
  };
  if (g.socket) {
    add(Level::IntraSocket);
    add(Level::InterSocket);
  } else {
    add(Level::InterNode);
  }
}

OperatingPoints operating_points(const Results& results) {
  OperatingPoints points;
  for (const auto& m : results.attribution) {
    for (const auto& i : m.intervals) {
      if (auto g = staircase_group(i.resource)) note_use(points, *g, i.end - i.begin);
    }
  }
  // A staircase group's load counted in flows or processes (a resource
  // named "staircase:GROUP") is its N: whole loads are operating points.
  const Timeline& t = results.timeline;
  const auto& loads = t.loads();
  for (std::size_t i = 0; i < loads.size(); ++i) {
    const auto& [name, unit] = t.resources()[loads[i].resource];
    if (unit.find("flow") == std::string::npos && unit.find("process") == std::string::npos) continue;
    const double load = loads[i].load;
    if (load < 1 || load != std::floor(load) || load > 1e9) continue;
    const auto n = static_cast<int>(load);
    if (!staircase_group(fmt::format("{}(N={})", name, n))) continue;
    const bool last = i + 1 == loads.size() || loads[i + 1].resource != loads[i].resource;
    const double seconds = last ? 0.0 : loads[i + 1].time - loads[i].time;
    note_use(points, Group{n, name.find("/socket") != std::string::npos}, seconds);
  }
  return points;
}

// The N met, in words: each with its count and time, or for many values
// their range and the one held longest.
std::string uses(const std::map<int, Use>& points) {
  constexpr std::size_t kListed = 8;
  std::string text;
  if (points.size() > kListed) {
    auto longest = points.begin();
    for (auto it = points.begin(); it != points.end(); ++it) {
      if (it->second.seconds > longest->second.seconds) longest = it;
    }
    return fmt::format("N = {} to {} ({} values; the longest at N = {}: {} times, {})", points.begin()->first,
                       points.rbegin()->first, points.size(), longest->first, longest->second.times,
                       units::human_duration(longest->second.seconds));
  }
  for (const auto& [n, use] : points) {
    text += fmt::format("{}N = {} ({} times, {})", text.empty() ? "" : "; ", n, use.times,
                        units::human_duration(use.seconds));
  }
  return text;
}

void curve(std::string& page, Level level, const BandwidthTable& table, const std::map<int, Use>& points) {
  int n_max = std::max(2, table.points().back().first);
  if (!points.empty()) n_max = std::max(n_max, points.rbegin()->first);
  const double bw_max = table.max() * 1.1;
  const int plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  const auto x = [&](double n) { return kLeft + (n - 1) / (n_max - 1) * plot_w; };
  const auto y = [&](double bw) { return kTop + plot_h - bw / bw_max * plot_h; };
  print(page,
        "<svg class=\"chart staircase\" data-level=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">"
        "<text class=\"title\" x=\"{}\" y=\"10\">{}</text>",
        level_name(level), kWidth, kHeight, kWidth, kHeight, kLeft, level_name(level));
  page += "<g class=\"axis\">";
  print(page, "<path d=\"M{} {}V{}H{}\"/>", kLeft, kTop, kTop + plot_h, kLeft + plot_w);
  for (double bw : axis_ticks(table.max() * 1.05, 4)) {
    print(page, "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>", kLeft - 4, y(bw) + 4,
          escape(units::format_bandwidth(bw)));
  }
  // Whole N only; the axis starts at N = 1 (the 0 tick).
  for (double tick : axis_ticks(n_max, 5)) {
    const int n = tick == 0 ? 1 : static_cast<int>(tick);
    if (tick != std::floor(tick) || tick == 1) continue;
    print(page, "<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>", x(n), kTop + plot_h + 14, n);
  }
  print(page, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">N (competing processes)</text></g>", kLeft + plot_w / 2,
        kHeight - 4);
  page += "<path class=\"curve\" d=\"";
  char command = 'M';
  for (const auto& [n, bw] : table.points()) {
    if (n > n_max) break;
    print(page, "{}{:.1f} {:.1f}", command, x(n), y(bw));
    command = 'L';
  }
  print(page, "L{:.1f} {:.1f}\"/>", x(n_max), y(table.aggregate(n_max)));
  for (const auto& [n, bw] : table.points()) {
    if (n > n_max) break;
    print(page,
          "<circle class=\"table-point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\"><title>BW_MP({}) = {}</title></circle>",
          x(n), y(bw), n, escape(units::format_bandwidth(bw)));
  }
  for (const auto& [n, use] : points) {
    const double bw = table.aggregate(n);
    print(page,
          "<circle class=\"op\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\"><title>the run at N = {}: BW_MP({}) = {}, {} "
          "per process; {} times, {}</title></circle>",
          x(n), y(bw), points.size() > 20 ? "2.5" : "4.5", n, n, escape(units::format_bandwidth(bw)),
          escape(units::format_bandwidth(bw / n)), use.times, escape(units::human_duration(use.seconds)));
  }
  page += "</svg>\n";
}

}  // namespace

void staircase_section(std::string& page, const Results& results, const Platform& platform) {
  page += "<section id=\"staircase\"><h2>Staircase curves BW_MP(N)</h2>\n";
  page +=
      "<p class=\"legend\">The aggregate bandwidth of N competing processes at each level, from the platform's "
      "bandwidth tables (<span class=\"key curve\"></span>; linear between the points, constant after the last), "
      "and the N the run's messages met (<span class=\"key op\"></span>: staircase groups in the attribution or a "
      "staircase resource's load; a socket group's N is marked on both intra-node curves, which BW_mix mixes, "
      "Thune et al. eqs. (12)-(17)).</p>\n";
  const OperatingPoints points = operating_points(results);
  bool any = false;
  std::string constants;
  page += "<div class=\"curves\">\n";
  for (Level l : kAllLevels) {
    const auto& table = platform.level(l).bandwidth;
    const auto& at = points[static_cast<std::size_t>(l)];
    any = any || !at.empty();
    if (table.points().empty()) continue;
    if (table.is_constant()) {
      print(constants,
            "<p class=\"constant\" data-level=\"{}\">{}: a constant bandwidth, BW_MP(N) = {} for every N{}</p>\n",
            level_name(l), level_name(l), escape(units::format_bandwidth(table.single())),
            at.empty() ? "" : "; the run met " + escape(uses(at)));
      continue;
    }
    curve(page, l, table, at);
  }
  page += "</div>\n" + constants;
  if (!any) {
    print(page,
          "<p class=\"note\" id=\"no-operating-points\">no operating points: the run's model ({}) met no "
          "staircase group</p>\n",
          escape(results.model));
  }
  page += "</section>\n";
}

}  // namespace contend::html
