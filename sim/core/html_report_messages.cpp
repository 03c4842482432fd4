// The report's most delayed messages: the 20 with the largest slowdown
// (their time over their contention-free time, attribution.hpp), each with
// the story `contend explain --message` tells (explain_story.hpp).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/core/explain_story.hpp"
#include "sim/core/html_report_parts.hpp"
#include "sim/core/units.hpp"

namespace contend::html {
namespace {

constexpr std::size_t kShown = 20;

std::string slowdown_text(double s) { return std::isfinite(s) ? fmt::format("{:.4g}", s) : "infinite"; }

}  // namespace

void delayed_section(std::string& page, const Results& results) {
  page += "<section id=\"delayed\"><h2>Most delayed messages</h2>\n";
  if (!results.attributed) {
    page += "<p class=\"empty\">the run recorded no attribution</p></section>\n";
    return;
  }
  if (results.attribution.empty()) {
    page += "<p class=\"empty\" id=\"no-messages\">the run delivered no messages</p></section>\n";
    return;
  }
  std::vector<const MessageAttribution*> order;
  order.reserve(results.attribution.size());
  for (const auto& m : results.attribution) order.push_back(&m);
  const std::size_t shown = std::min(kShown, order.size());
  // Largest slowdown first; ties by id, so the list does not depend on event order.
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                    [](const MessageAttribution* a, const MessageAttribution* b) {
                      const double sa = a->slowdown(), sb = b->slowdown();
                      return sa != sb ? sa > sb : a->id < b->id;
                    });
  print(page,
        "<p class=\"legend\">The {} of the run's {} messages with the largest slowdown (time from the hand-over to "
        "the model to the last byte, over the same alone on the platform); open a row for every interval of its "
        "life and what bounded it (docs/explain.md).</p>\n",
        shown, results.attribution.size());
  page +=
      "<table id=\"delayed-table\"><thead><tr><th>#</th><th>message</th><th>size</th><th>level</th><th>posted</th>"
      "<th>last byte</th><th>slowdown</th><th>limited by</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const MessageAttribution& m = *order[i];
    std::ostringstream story;
    write_message_story(story, m);
    print(page,
          "<tr class=\"delayed\" data-id=\"{}\"><td>{}</td><td>{} &#8594; {} #{}</td><td>{}</td><td>{}</td><td>{}</td>"
          "<td>{}</td><td>{}</td><td>{}</td></tr>\n<tr class=\"story\"><td colspan=\"8\"><details><summary>explanation"
          "</summary><pre>{}</pre></details></td></tr>\n",
          m.id, i + 1, m.src, m.dst, m.seq, escape(units::human_size(static_cast<double>(m.bytes))),
          level_name(m.level), escape(units::human_duration(m.post)), escape(units::human_duration(m.end)),
          slowdown_text(m.slowdown()), escape(m.limited_by()), escape(story.str()));
  }
  page += "</tbody></table></section>\n";
}

}  // namespace contend::html
