// The HTML report's page: head (styles and a content security policy that
// lets nothing be fetched), the summary, the sections in order, and a small
// script for the interactive parts (a tooltip on the Gantt chart, message
// arrows on demand). docs/html-report.md describes each section.
#include "sim/core/html_report.hpp"

#include <algorithm>

#include "sim/core/html_report_parts.hpp"
#include "sim/core/units.hpp"

namespace contend {
namespace html {
namespace {

constexpr std::string_view kStyle = R"(
body{font-family:sans-serif;font-size:14px;margin:16px 24px;color:#222;background:#fff}
h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ccc}
nav a{margin-right:14px}
table{border-collapse:collapse}td,th{padding:2px 10px;text-align:left;vertical-align:top}
#summary-table th,#options-table th{font-weight:normal;color:#555}
#delayed-table tr.delayed td{border-top:1px solid #ddd}
pre{font-size:12px;background:#f6f6f6;padding:6px;margin:2px 0;white-space:pre-wrap}
.chart{display:block;margin:6px 0}.chart text{font-size:11px;fill:#333}
.axis path{stroke:#444;fill:none}
.c{fill:#4e79a7}.m{fill:#f2a02b}.w{fill:#e15759}
.key{display:inline-block;width:12px;height:12px;margin:0 4px 0 10px;vertical-align:middle}
.key.c{background:#4e79a7}.key.m{background:#f2a02b}.key.w{background:#e15759}
.key.curve{background:#333;height:3px}.key.op{background:#e15759;border-radius:6px}
.arrows line{stroke:#222;stroke-width:0.8;opacity:0.7}
.load .track{fill:#f3f3f3}.load .area{fill:#76b7b2;stroke:#3b7d78;stroke-width:0.5}
.node-box{fill:#fafafa;stroke:#999}.socket-box{fill:#eee;stroke:#ccc}
.core.free{fill:#ddd}.core.used{stroke:#fff;stroke-width:0.5}
.curves{display:flex;flex-wrap:wrap;gap:12px}
.staircase .curve{stroke:#333;stroke-width:2;fill:none}.staircase .title{font-weight:bold}
.table-point{fill:#333}.op{fill:#e15759;stroke:#fff;stroke-width:1}
.empty,.note{color:#666;font-style:italic}
#tooltip{position:absolute;background:#222;color:#fff;padding:3px 6px;font-size:12px;border-radius:3px;pointer-events:none}
)";

constexpr std::string_view kScript = R"(
(function () {
  'use strict';
  function duration(s) {
    var a = Math.abs(s);
    if (a >= 1) return s.toFixed(3) + ' s';
    if (a >= 1e-3) return (s * 1e3).toFixed(3) + ' ms';
    if (a >= 1e-6) return (s * 1e6).toFixed(3) + ' us';
    return (s * 1e9).toFixed(3) + ' ns';
  }
  var tip = document.getElementById('tooltip');
  var gantt = document.getElementById('gantt-chart');
  if (gantt) {
    var d = gantt.dataset;
    var end = +d.end, x0 = +d.x0, width = +d.plotWidth, top = +d.top, row = +d.rowHeight, ranks = +d.ranks;
    gantt.addEventListener('mousemove', function (e) {
      var p = gantt.createSVGPoint();
      p.x = e.clientX;
      p.y = e.clientY;
      var q = p.matrixTransform(gantt.getScreenCTM().inverse());
      var rank = Math.floor((q.y - top) / row), t = (q.x - x0) / width * end;
      if (rank < 0 || rank >= ranks || t < 0 || t > end) { tip.hidden = true; return; }
      tip.textContent = 'rank ' + rank + ' at ' + duration(t);
      tip.style.left = (e.pageX + 12) + 'px';
      tip.style.top = (e.pageY + 12) + 'px';
      tip.hidden = false;
    });
    gantt.addEventListener('mouseleave', function () { tip.hidden = true; });
  }
  var box = document.getElementById('show-arrows'), arrows = document.getElementById('gantt-arrows');
  if (box && arrows) {
    box.addEventListener('change', function () { arrows.setAttribute('display', box.checked ? 'inline' : 'none'); });
  }
  // For the tests (tests/html): the script ran to its end, and the size the
  // browser gave each chart.
  var sizes = [];
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var b = svg.getBBox();
    sizes.push(Math.round(b.width) + 'x' + Math.round(b.height));
  });
  document.body.setAttribute('data-chart-sizes', sizes.join(' '));
  document.body.setAttribute('data-rendered', 'yes');
})();
)";

std::string slowest_rank(const Results& r) {
  // The latest finish; the lowest rank among equals (as print_summary says).
  const RankResult* slowest = &r.ranks.front();
  for (const auto& x : r.ranks) {
    if (x.total_time > slowest->total_time) slowest = &x;
  }
  return fmt::format("rank {} (node {}, socket {}, core {}) at {}", slowest->rank, slowest->place.node,
                     slowest->place.socket, slowest->place.core, units::human_duration(slowest->total_time));
}

void row(std::string& page, std::string_view key, std::string_view value) {
  print(page, "<tr><th>{}</th><td>{}</td></tr>\n", escape(key), escape(value));
}

}  // namespace

void summary_section(std::string& page, const HtmlReportInput& input) {
  const Results& r = input.results;
  page += "<section id=\"summary\"><h2>Summary</h2><table id=\"summary-table\">\n";
  row(page, "platform",
      input.platform.file.empty() ? r.platform : fmt::format("{} ({})", r.platform, input.platform.file));
  row(page, "model", r.model);
  row(page, "workload", r.workload);
  row(page, "mapping", r.mapping);
  row(page, "ranks", std::to_string(r.ranks.size()));
  row(page, "messages",
      fmt::format("{} ({})", r.total_messages(), units::human_size(static_cast<double>(r.total_bytes()))));
  row(page, "makespan", units::human_duration(r.makespan()));
  if (!r.ranks.empty()) row(page, "slowest rank", slowest_rank(r));
  page += "</table>\n";
  if (!input.options.empty()) {
    page += "<h3>Options used</h3><table id=\"options-table\">\n";
    for (const auto& [key, value] : input.options) row(page, key, value);
    page += "</table>\n";
  }
  page += "</section>\n";
}

}  // namespace html

void write_html_report(std::ostream& out, const HtmlReportInput& input) {
  using html::escape;
  using html::print;
  const Results& r = input.results;
  std::string page;
  page.reserve(1 << 16);
  const std::string title = fmt::format("contend: {} ranks on {}, model {}", r.ranks.size(), r.platform, r.model);
  print(page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(title), html::kStyle, escape(title));
  page +=
      "<nav><a href=\"#summary\">summary</a><a href=\"#gantt\">ranks over time</a><a href=\"#loads\">resource "
      "utilisation</a><a href=\"#mapping\">mapping</a><a href=\"#staircase\">staircase curves</a><a "
      "href=\"#delayed\">most delayed messages</a></nav>\n";
  html::summary_section(page, input);
  html::gantt_section(page, r);
  html::loads_section(page, r);
  html::mapping_section(page, r, input.platform);
  html::staircase_section(page, r, input.platform);
  html::delayed_section(page, r);
  print(page, "<div id=\"tooltip\" hidden></div>\n<script>{}</script>\n</body>\n</html>\n", html::kScript);
  out << page;
}

}  // namespace contend
