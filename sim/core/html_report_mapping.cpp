// The report's mapping view: each node that holds ranks, its sockets and
// their cores, a core coloured by the finish time of the rank on it (the
// latest, when ranks share it), on the viridis scale with its legend.
#include <algorithm>
#include <map>
#include <tuple>

#include "sim/core/html_report_parts.hpp"
#include "sim/core/units.hpp"

namespace contend::html {
namespace {

constexpr std::size_t kMaxNodes = 256;
constexpr int kCell = 10, kPitch = 11, kCoresPerLine = 32;
constexpr int kViewWidth = kLabelWidth + kPlotWidth;

struct Core {
  std::vector<int> ranks;
  double finish = 0;
};

struct NodeBox {
  int width, height, socket_height, lines;
};

NodeBox node_box(const NodeArchitecture& a) {
  NodeBox b{};
  const int per_line = std::min(a.cores_per_socket, kCoresPerLine);
  b.lines = (a.cores_per_socket + kCoresPerLine - 1) / kCoresPerLine;
  b.socket_height = b.lines * kPitch + 6;
  b.width = std::max(per_line * kPitch + 14, 64);  // room for "node 123"
  b.height = 20 + a.sockets * b.socket_height + 4;
  return b;
}

void legend(std::string& page, double first, double last) {
  page += "<svg id=\"mapping-legend\" class=\"chart\" width=\"420\" height=\"40\" viewBox=\"0 0 420 40\">";
  page += "<defs><linearGradient id=\"finish-scale\">";
  for (int i = 0; i <= 8; ++i) {
    print(page, "<stop offset=\"{}%\" stop-color=\"{}\"/>", i * 100 / 8, scale_colour(i / 8.0));
  }
  page += "</linearGradient></defs><rect x=\"10\" y=\"4\" width=\"300\" height=\"14\" fill=\"url(#finish-scale)\"/>";
  print(
      page,
      "<text x=\"10\" y=\"34\">{}</text><text x=\"310\" y=\"34\" text-anchor=\"end\">{}</text>"
      "<rect class=\"core free\" x=\"330\" y=\"6\" width=\"{}\" height=\"{}\"/><text x=\"345\" y=\"15\">no rank</text>"
      "</svg>\n",
      escape(units::human_duration(first)), escape(units::human_duration(last)), kCell, kCell);
}

}  // namespace

void mapping_section(std::string& page, const Results& results, const Platform& platform) {
  page += "<section id=\"mapping\"><h2>Mapping and finish times</h2>\n";
  if (results.ranks.empty()) {
    page += "<p class=\"empty\">the run has no ranks</p></section>\n";
    return;
  }
  // (node, socket, core) -> the ranks there, in rank order.
  std::map<std::tuple<int, int, int>, Core> cores;
  std::map<int, int> nodes;  // node -> ranks on it
  double first = results.ranks.front().total_time, last = first;
  for (const auto& r : results.ranks) {
    Core& core = cores[{r.place.node, r.place.socket, r.place.core}];
    core.finish = core.ranks.empty() ? r.total_time : std::max(core.finish, r.total_time);
    core.ranks.push_back(r.rank);
    ++nodes[r.place.node];
    first = std::min(first, r.total_time);
    last = std::max(last, r.total_time);
  }
  const std::size_t shown = std::min(nodes.size(), kMaxNodes);
  print(page,
        "<p class=\"legend\">Each core coloured by the time its rank finished{}; hover for the rank. {} of the "
        "platform's {} nodes hold ranks{}.</p>\n",
        first == last ? fmt::format(" (every rank finished at {})", escape(units::human_duration(last))) : "",
        nodes.size(), platform.nodes.count, shown < nodes.size() ? fmt::format(", the first {} are shown", shown) : "");
  legend(page, first, last);

  const NodeArchitecture& a = platform.nodes;
  const NodeBox box = node_box(a);
  const int per_row = std::max(1, kViewWidth / (box.width + 10));
  const int rows =
      static_cast<int>((shown + static_cast<std::size_t>(per_row) - 1) / static_cast<std::size_t>(per_row));
  const int height = rows * (box.height + 10) + 4;
  print(page, "<svg id=\"mapping-chart\" class=\"chart\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n",
        kViewWidth, height, kViewWidth, height);
  int index = 0;
  for (const auto& [node, count] : nodes) {
    if (static_cast<std::size_t>(index) == shown) break;
    const int x0 = 2 + index % per_row * (box.width + 10), y0 = 2 + index / per_row * (box.height + 10);
    ++index;
    const std::string host =
        static_cast<std::size_t>(node) < platform.hosts.size() ? platform.hosts[static_cast<std::size_t>(node)] : "";
    print(page,
          "<g class=\"node\" data-node=\"{}\"><title>node {}{}{}: {} ranks</title><rect class=\"node-box\" x=\"{}\" "
          "y=\"{}\" width=\"{}\" height=\"{}\"/><text x=\"{}\" y=\"{}\">node {}</text>\n",
          node, node, host.empty() ? "" : " ", escape(host), count, x0, y0, box.width, box.height, x0 + 6, y0 + 14,
          node);
    for (int s = 0; s < a.sockets; ++s) {
      const int sy = y0 + 20 + s * box.socket_height;
      print(page, "<rect class=\"socket-box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", x0 + 4, sy,
            box.width - 8, box.socket_height - 3);
      for (int c = 0; c < a.cores_per_socket; ++c) {
        const int cx = x0 + 7 + c % kCoresPerLine * kPitch, cy = sy + 2 + c / kCoresPerLine * kPitch;
        const auto found = cores.find({node, s, c});
        if (found == cores.end()) {
          print(page, "<rect class=\"core free\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", cx, cy, kCell, kCell);
          continue;
        }
        const Core& core = found->second;
        std::string ranks = fmt::format("rank {}", core.ranks.front());
        for (std::size_t i = 1; i < core.ranks.size(); ++i) ranks += fmt::format(", {}", core.ranks[i]);
        print(page,
              "<rect class=\"core used\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>node {} "
              "socket {} core {}: {} finished at {}</title></rect>",
              cx, cy, kCell, kCell, scale_colour(last > first ? (core.finish - first) / (last - first) : 0.5), node, s,
              c, ranks, escape(units::human_duration(core.finish)));
      }
      page += "\n";
    }
    page += "</g>\n";
  }
  page += "</svg></section>\n";
}

}  // namespace contend::html
