// Helpers the HTML report's sections share: escaping, the colour scale, axes.
#include <algorithm>
#include <array>
#include <cmath>

#include "sim/core/html_report_parts.hpp"
#include "sim/core/units.hpp"

namespace contend::html {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string shortened(std::string_view text, std::size_t max, Keep keep) {
  if (text.size() <= max) return std::string(text);
  if (keep == Keep::Beginning) return std::string(text.substr(0, max)) + "...";
  return "..." + std::string(text.substr(text.size() - max));
}

std::string scale_colour(double fraction) {
  // Viridis (matplotlib's perceptually uniform scale) at nine stops,
  // interpolated linearly in between.
  static constexpr std::array<std::array<int, 3>, 9> kStops = {{{0x44, 0x01, 0x54},
                                                                {0x47, 0x2d, 0x7b},
                                                                {0x3b, 0x52, 0x8b},
                                                                {0x2c, 0x72, 0x8e},
                                                                {0x21, 0x91, 0x8c},
                                                                {0x28, 0xae, 0x80},
                                                                {0x5e, 0xc9, 0x62},
                                                                {0xad, 0xdc, 0x30},
                                                                {0xfd, 0xe7, 0x25}}};
  const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
  const double at = f * (kStops.size() - 1);
  const auto low = std::min(static_cast<std::size_t>(at), kStops.size() - 2);
  const double t = at - static_cast<double>(low);
  std::array<int, 3> rgb{};
  for (std::size_t c = 0; c < 3; ++c) {
    rgb[c] = static_cast<int>(std::lround(kStops[low][c] + t * (kStops[low + 1][c] - kStops[low][c])));
  }
  return fmt::format("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]);
}

std::vector<double> axis_ticks(double end, int count) {
  std::vector<double> ticks{0.0};
  if (!(end > 0) || !std::isfinite(end) || count < 1) return ticks;
  const double rough = end / count;
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * power;
    if (step >= rough) break;
  }
  for (int i = 1; i * step <= end * (1 + 1e-12); ++i) ticks.push_back(i * step);
  return ticks;
}

double time_axis_end(const Results& results) {
  double end = results.makespan();
  for (const auto& s : results.timeline.spans()) end = std::max(end, s.end);
  for (const auto& m : results.timeline.messages()) end = std::max(end, m.received);
  for (const auto& l : results.timeline.loads()) end = std::max(end, l.time);
  return end > 0 ? end : 1.0;
}

void time_axis(std::string& page, double end, int x0, int y) {
  print(page, "<g class=\"axis\"><path d=\"M{} {}h{}\"/>", x0, y, kPlotWidth);
  for (double t : axis_ticks(end, 8)) {
    const double x = x0 + t / end * kPlotWidth;
    print(page, "<path d=\"M{:.1f} {}v4\"/><text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>", x, y, x,
          y + 15, escape(units::human_duration(t)));
  }
  page += "</g>";
}

}  // namespace contend::html
