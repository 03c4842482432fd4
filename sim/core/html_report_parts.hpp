#pragma once
// The pieces of the HTML report (html_report.hpp): helpers shared by its
// sections, and one function per section, each appending its markup to the
// page. Every chart is inline SVG in whole or tenth-of-a-unit coordinates,
// printed with fixed formats: the same run gives the same bytes.
#include <fmt/format.h>

#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/html_report.hpp"

namespace contend::html {

// Appends formatted text to the page.
template <typename... Args>
void print(std::string& page, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(page), format, std::forward<Args>(args)...);
}

// Text with & < > " ' escaped, for element content and attribute values.
std::string escape(std::string_view text);

// `text` cut to `max` characters and "...", for a label whose whole text is
// in its tooltip: its end kept (a resource's name: "...node12/socket1") or
// its beginning ("2.5 fraction of...").
enum class Keep { End, Beginning };
std::string shortened(std::string_view text, std::size_t max, Keep keep = Keep::End);

// A colour of the viridis scale (dark blue 0 to yellow 1), "#rrggbb";
// `fraction` is clamped to [0, 1].
std::string scale_colour(double fraction);

// The ticks of an axis from 0 to `end`: about `count` round values (1, 2 or
// 5 times a power of ten), 0 first.
std::vector<double> axis_ticks(double end, int count);

// The run's time axis: from 0 to the latest instant it recorded (the
// makespan, or a later span or load), never 0.
double time_axis_end(const Results& results);

// Width in SVG units of the time axis of the Gantt and load charts.
inline constexpr int kPlotWidth = 960;
// Left margin of those charts, for the row labels.
inline constexpr int kLabelWidth = 150;

// Draws the time axis (ticks and labels) under a chart at `y`.
void time_axis(std::string& page, double end, int x0, int y);

void summary_section(std::string& page, const HtmlReportInput& input);
void gantt_section(std::string& page, const Results& results);
void loads_section(std::string& page, const Results& results);
void mapping_section(std::string& page, const Results& results, const Platform& platform);
void staircase_section(std::string& page, const Results& results, const Platform& platform);
void delayed_section(std::string& page, const Results& results);

}  // namespace contend::html
