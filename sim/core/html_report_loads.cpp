// The report's resource utilisation: for each resource whose load the model
// recorded (Timeline::add_load), the load over time as a filled step chart,
// the mean of each column of the time axis. The most loaded resources first.
#include <algorithm>
#include <numeric>

#include "sim/core/html_report_parts.hpp"
#include "sim/core/units.hpp"

namespace contend::html {
namespace {

constexpr std::size_t kMaxResources = 40;
constexpr int kColumns = 480;
constexpr int kRowHeight = 26;
constexpr int kBarHeight = 22;
constexpr std::size_t kLabelCharacters = 22;  // of a resource's name or peak beside its row

struct ResourceLoad {
  std::uint32_t resource;
  double integral = 0;  // load x seconds over the run
  double peak = 0;
  double mean = 0;              // over the whole axis
  std::vector<double> columns;  // mean load in each column
};

// `samples`: one resource's loads in time order. A load holds from its
// sample to the next one, the last to the end of the axis.
ResourceLoad load_of(std::uint32_t resource, const ResourceLoadSample* samples, std::size_t count, double end) {
  ResourceLoad r{resource, 0, 0, 0, std::vector<double>(kColumns)};
  const double width = end / kColumns;
  for (std::size_t i = 0; i < count; ++i) {
    const double from = std::max(0.0, samples[i].time);
    const double to = std::min(end, i + 1 < count ? samples[i + 1].time : end);
    const double load = samples[i].load;
    r.peak = std::max(r.peak, load);
    if (!(to > from)) continue;
    r.integral += load * (to - from);
    const auto first = std::min<std::size_t>(kColumns - 1, static_cast<std::size_t>(from / width));
    const auto last = std::min<std::size_t>(kColumns - 1, static_cast<std::size_t>(to / width));
    for (std::size_t c = first; c <= last; ++c) {
      const double overlap =
          std::min(to, static_cast<double>(c + 1) * width) - std::max(from, static_cast<double>(c) * width);
      if (overlap > 0) r.columns[c] += load * overlap / width;
    }
  }
  r.mean = r.integral / end;
  return r;
}

void load_row(std::string& page, const TimelineResource& resource, const ResourceLoad& r, int y) {
  const std::string unit = resource.unit.empty() ? "load" : resource.unit;
  print(page, "<g class=\"load\" data-resource=\"{}\"><title>{}: peak {:.6g} {}, mean {:.6g} {}</title>",
        escape(resource.name), escape(resource.name), r.peak, escape(unit), r.mean, escape(unit));
  print(page, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", kLabelWidth - 6, y + kBarHeight / 2 + 4,
        escape(shortened(resource.name, kLabelCharacters)));
  print(page, "<rect class=\"track\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", kLabelWidth, y, kPlotWidth,
        kBarHeight);
  const int base = y + kBarHeight;
  if (r.peak > 0) {
    print(page, "<path class=\"area\" d=\"M{} {}", kLabelWidth, base);
    const int column_width = kPlotWidth / kColumns;
    // Equal neighbouring columns are one step.
    for (std::size_t c = 0; c < r.columns.size();) {
      const std::string y = fmt::format("{:.1f}", base - r.columns[c] / r.peak * kBarHeight);
      std::size_t next = c + 1;
      while (next < r.columns.size() && fmt::format("{:.1f}", base - r.columns[next] / r.peak * kBarHeight) == y) {
        ++next;
      }
      print(page, "V{}h{}", y, static_cast<int>(next - c) * column_width);
      c = next;
    }
    print(page, "V{}z\"/>", base);
  }
  print(page, "<text class=\"peak\" x=\"{}\" y=\"{}\">{}</text></g>\n", kLabelWidth + kPlotWidth + 6, y + 12,
        escape(shortened(fmt::format("{:.4g} {}", r.peak, unit), kLabelCharacters, Keep::Beginning)));
}

}  // namespace

void loads_section(std::string& page, const Results& results) {
  page += "<section id=\"loads\"><h2>Resource utilisation</h2>\n";
  const Timeline& t = results.timeline;
  if (t.loads().empty()) {
    page += "<p class=\"empty\" id=\"no-loads\">no resource loads recorded by this model</p></section>\n";
    return;
  }
  const double end = time_axis_end(results);
  std::vector<ResourceLoad> loads;
  const auto& samples = t.loads();  // sorted by resource, then time
  for (std::size_t i = 0; i < samples.size();) {
    std::size_t j = i;
    while (j < samples.size() && samples[j].resource == samples[i].resource) ++j;
    loads.push_back(load_of(samples[i].resource, &samples[i], j - i, end));
    i = j;
  }
  std::stable_sort(loads.begin(), loads.end(),
                   [](const ResourceLoad& a, const ResourceLoad& b) { return a.integral > b.integral; });
  const std::size_t shown = std::min(loads.size(), kMaxResources);
  print(page,
        "<p class=\"legend\">Each row is a resource's load (in its unit) over time, scaled to its own peak (on the "
        "right); the mean of each of {} columns of {}. {} of {} resources shown, the most loaded (load x time) "
        "first.</p>\n",
        kColumns, escape(units::human_duration(end / kColumns)), shown, loads.size());
  const int height = static_cast<int>(shown) * kRowHeight + 30;
  print(page, "<svg id=\"loads-chart\" class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n",
        kLabelWidth + kPlotWidth + 150, height, kLabelWidth + kPlotWidth + 150, height);
  for (std::size_t i = 0; i < shown; ++i) {
    load_row(page, t.resources()[loads[i].resource], loads[i], 4 + static_cast<int>(i) * kRowHeight);
  }
  time_axis(page, end, kLabelWidth, static_cast<int>(shown) * kRowHeight + 6);
  page += "</svg></section>\n";
}

}  // namespace contend::html
