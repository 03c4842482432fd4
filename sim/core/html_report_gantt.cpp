// The report's Gantt chart: one row per rank, its time split into pixel
// columns, each column coloured by the activity that took most of it
// (computing, inside an MPI call, waiting inside one). A column holds many
// spans of a long run: the page's size grows with ranks x columns, not
// with the number of spans.
#include <algorithm>
#include <array>
#include <cmath>

#include "sim/core/html_report_parts.hpp"
#include "sim/core/units.hpp"

namespace contend::html {
namespace {

// Columns of the time axis: at most kMaxCells rank x column cells, so a
// P = 2048 run draws 120 columns per rank (8 units each) and a small one 960.
constexpr std::size_t kMaxCells = 250000;
constexpr std::array<int, 7> kColumnChoices = {960, 480, 320, 240, 192, 160, 120};
// Message arrows are drawn for small runs only.
constexpr std::size_t kMaxArrowMessages = 400;
constexpr std::size_t kMaxArrowRanks = 64;

int columns_for(std::size_t ranks) {
  for (int c : kColumnChoices) {
    if (ranks * static_cast<std::size_t>(c) <= kMaxCells) return c;
  }
  return kColumnChoices.back();
}

// What a column shows, in drawing order; Idle is not drawn.
enum Shown : std::uint8_t { Compute, Mpi, Waiting, Idle };
constexpr std::array<const char*, 3> kShownClass = {"c", "m", "w"};

// Seconds of each activity in each column of one rank.
struct RankColumns {
  std::vector<double> compute, mpi, waiting;
  double width;  // seconds per column

  RankColumns(int columns, double end)
      : compute(static_cast<std::size_t>(columns)),
        mpi(static_cast<std::size_t>(columns)),
        waiting(static_cast<std::size_t>(columns)),
        width(end / columns) {}

  void clear() {
    std::fill(compute.begin(), compute.end(), 0.0);
    std::fill(mpi.begin(), mpi.end(), 0.0);
    std::fill(waiting.begin(), waiting.end(), 0.0);
  }

  void add(const TimelineSpan& s) {
    auto& seconds = s.activity == RankActivity::Compute ? compute : s.activity == RankActivity::Mpi ? mpi : waiting;
    if (!(s.end > s.begin)) return;
    const std::size_t last_column = seconds.size() - 1;
    const auto first = std::min(last_column, static_cast<std::size_t>(std::max(0.0, s.begin / width)));
    const auto last = std::min(last_column, static_cast<std::size_t>(std::max(0.0, s.end / width)));
    for (std::size_t c = first; c <= last; ++c) {
      const double overlap =
          std::min(s.end, static_cast<double>(c + 1) * width) - std::max(s.begin, static_cast<double>(c) * width);
      if (overlap > 0) seconds[c] += overlap;
    }
  }

  // The activity that took most of column c. A wait nests in its MPI call,
  // so the call's own share is its time less the waits.
  Shown shown(std::size_t c) const {
    const double inside_call = std::max(0.0, mpi[c] - waiting[c]);
    const double idle = std::max(0.0, width - compute[c] - std::max(mpi[c], waiting[c]));
    const std::array<double, 4> share = {compute[c], inside_call, waiting[c], idle};
    return static_cast<Shown>(std::max_element(share.begin(), share.end()) - share.begin());
  }
};

struct RowGeometry {
  int columns, column_width, row_height, bar_height, top;
  int y(int rank) const { return top + rank * row_height; }
};

RowGeometry geometry(std::size_t ranks) {
  RowGeometry g{};
  g.columns = columns_for(ranks);
  g.column_width = kPlotWidth / g.columns;
  g.row_height = std::clamp(static_cast<int>(1024 / std::max<std::size_t>(ranks, 1)), 1, 14);
  g.bar_height = g.row_height >= 6 ? g.row_height - 1 : g.row_height;
  g.top = 8;
  return g;
}

// One rank's row: a path per activity, runs of equal columns merged.
void rank_row(std::string& page, const RankResult& rank, const RankColumns& cols, const RowGeometry& g) {
  print(page, "<g class=\"row\" data-rank=\"{}\"><title>rank {} (node {}, socket {}, core {}): finished at {}</title>",
        rank.rank, rank.rank, rank.place.node, rank.place.socket, rank.place.core,
        escape(units::human_duration(rank.total_time)));
  std::array<std::string, 3> paths;
  const auto columns = static_cast<std::size_t>(g.columns);
  for (std::size_t c = 0; c < columns;) {
    const Shown s = cols.shown(c);
    std::size_t run = c + 1;
    while (run < columns && cols.shown(run) == s) ++run;
    if (s != Idle) {
      const auto x = kLabelWidth + static_cast<int>(c) * g.column_width;
      const auto w = static_cast<int>(run - c) * g.column_width;
      print(paths[s], "M{} {}h{}v{}h-{}z", x, g.y(rank.rank), w, g.bar_height, w);
    }
    c = run;
  }
  for (std::size_t s = 0; s < paths.size(); ++s) {
    if (!paths[s].empty()) print(page, "<path class=\"{}\" d=\"{}\"/>", kShownClass[s], paths[s]);
  }
  page += "</g>\n";
}

void row_labels(std::string& page, std::size_t ranks, const RowGeometry& g) {
  const int every = std::max(1, static_cast<int>(std::ceil(12.0 / g.row_height)));
  page += "<g class=\"labels\">";
  for (int r = 0; r < static_cast<int>(ranks); r += every) {
    print(page, "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">rank {}</text>", kLabelWidth - 6,
          g.y(r) + g.row_height / 2.0 + 4, r);
  }
  page += "</g>\n";
}

// Each message as an arrow from its send's post (sender's row) to its
// receive's completion (receiver's row); hidden until asked for.
void arrows(std::string& page, const Timeline& t, double end, const RowGeometry& g) {
  page += "<g id=\"gantt-arrows\" class=\"arrows\" display=\"none\">";
  for (const auto& m : t.messages()) {
    const auto x = [&](double time) { return kLabelWidth + time / end * kPlotWidth; };
    print(page,
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" marker-end=\"url(#arrow-head)\"><title>{} to "
          "{}, {}, posted at {}, received at {}</title></line>",
          x(m.post), g.y(m.src) + g.bar_height / 2.0, x(m.received), g.y(m.dst) + g.bar_height / 2.0, m.src, m.dst,
          escape(units::human_size(static_cast<double>(m.bytes))), escape(units::human_duration(m.post)),
          escape(units::human_duration(m.received)));
  }
  page += "</g>\n";
}

}  // namespace

void gantt_section(std::string& page, const Results& results) {
  page += "<section id=\"gantt\"><h2>Ranks over time</h2>\n";
  const std::size_t ranks = results.ranks.size();
  if (ranks == 0) {
    page += "<p class=\"empty\">the run has no ranks</p></section>\n";
    return;
  }
  const Timeline& t = results.timeline;
  const double end = time_axis_end(results);
  const RowGeometry g = geometry(ranks);
  print(page,
        "<p class=\"legend\"><span class=\"key c\"></span>computing <span class=\"key m\"></span>inside an MPI call "
        "<span class=\"key w\"></span>waiting inside an MPI call. Each of the {} columns of {} shows what took most "
        "of it; hover for a rank and a time.</p>\n",
        g.columns, escape(units::human_duration(end / g.columns)));
  const bool with_arrows = !t.messages().empty() && t.messages().size() <= kMaxArrowMessages && ranks <= kMaxArrowRanks;
  if (with_arrows) {
    print(page, "<p><label><input type=\"checkbox\" id=\"show-arrows\"> show the {} messages as arrows</label></p>\n",
          t.messages().size());
  } else if (!t.messages().empty()) {
    print(page, "<p class=\"note\">Message arrows are drawn for runs of at most {} messages and {} ranks.</p>\n",
          kMaxArrowMessages, kMaxArrowRanks);
  }
  const int height = g.y(static_cast<int>(ranks)) + 24;
  print(page,
        "<svg id=\"gantt-chart\" class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" data-end=\"{:.12g}\" "
        "data-x0=\"{}\" data-plot-width=\"{}\" data-top=\"{}\" data-row-height=\"{}\" data-ranks=\"{}\">\n",
        kLabelWidth + kPlotWidth + 10, height, kLabelWidth + kPlotWidth + 10, height, end, kLabelWidth, kPlotWidth,
        g.top, g.row_height, ranks);
  page +=
      "<defs><marker id=\"arrow-head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" "
      "markerHeight=\"6\" orient=\"auto\"><path d=\"M0 0L10 5L0 10z\"/></marker></defs>\n";
  row_labels(page, ranks, g);
  RankColumns cols(g.columns, end);
  std::size_t next = 0;
  const auto& spans = t.spans();
  for (const auto& rank : results.ranks) {
    cols.clear();
    while (next < spans.size() && spans[next].rank < rank.rank) ++next;
    for (; next < spans.size() && spans[next].rank == rank.rank; ++next) cols.add(spans[next]);
    rank_row(page, rank, cols, g);
  }
  if (with_arrows) arrows(page, t, end, g);
  time_axis(page, end, kLabelWidth, g.y(static_cast<int>(ranks)) + 2);
  page += "</svg></section>\n";
}

}  // namespace contend::html
