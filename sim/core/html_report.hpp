#pragma once
// `contend simulate --html FILE` (docs/html-report.md): one self-contained
// page (styles, script and inline SVG charts, nothing fetched from the
// network) showing a run: its summary, a Gantt chart of every rank, the load
// of contended resources over time, the mapping coloured by finish time, the
// platform's staircase curves BW_MP(N) with the N the run met, and its most
// delayed messages with their story. Plain data in, deterministic bytes out.
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/platform.hpp"
#include "sim/core/results.hpp"

namespace contend {

struct HtmlReportInput {
  const Results& results;  // with its sorted timeline and its attribution
  const Platform& platform;
  // The options the run used, in the order to show them ("model", "staircase").
  std::vector<std::pair<std::string, std::string>> options;
};

void write_html_report(std::ostream& out, const HtmlReportInput& input);

}  // namespace contend
