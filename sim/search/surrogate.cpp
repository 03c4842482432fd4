#include "sim/search/surrogate.hpp"

#include <algorithm>
#include <cmath>

#include "models/staircase/closed_form.hpp"

namespace contend {

Surrogate::Surrogate(const Platform& platform, const CommGraph& graph) : platform_(platform) {
  messages_.reserve(graph.edges().size());
  for (const auto& e : graph.edges()) {
    if (e.src == e.dst) continue;
    messages_.push_back(PatternMessage{e.src, e.dst, static_cast<std::uint64_t>(std::llround(e.bytes)), 0, 0});
  }
}

std::vector<double> Surrogate::rank_times(const Mapping& mapping) const {
  const auto analyzed = analyze(platform_, mapping, messages_, ClosedForm::Staircase);
  std::vector<double> out;
  out.reserve(analyzed.size());
  for (const auto& r : analyzed) out.push_back(r.total_time);
  return out;
}

double Surrogate::score(const Mapping& mapping) const {
  const auto times = rank_times(mapping);
  if (times.empty()) return 0;
  double sum = 0, max = 0;
  for (double t : times) {
    sum += t;
    max = std::max(max, t);
  }
  return max + 0.05 * sum / static_cast<double>(times.size());
}

ContentionFigures contention_figures(const CommGraph& graph, const Mapping& mapping, const NodeArchitecture& nodes) {
  ContentionFigures f;
  f.level_bytes = graph.bytes_per_level(mapping);
  const auto ranks = static_cast<std::size_t>(graph.ranks());
  std::vector<bool> uses_nic(ranks, false), uses_bus(ranks, false), present(static_cast<std::size_t>(nodes.count));
  for (const auto& e : graph.edges()) {
    if (e.src == e.dst) continue;
    if (mapping.level(e.src, e.dst) == Level::InterNode) {
      uses_nic[static_cast<std::size_t>(e.src)] = uses_nic[static_cast<std::size_t>(e.dst)] = true;
    } else {
      uses_bus[static_cast<std::size_t>(e.dst)] = true;
    }
  }
  std::vector<int> nic(static_cast<std::size_t>(nodes.count), 0);
  std::vector<int> bus(static_cast<std::size_t>(nodes.count) * static_cast<std::size_t>(nodes.sockets), 0);
  for (std::size_t r = 0; r < ranks; ++r) {
    const auto& p = mapping[static_cast<int>(r)];
    present[static_cast<std::size_t>(p.node)] = true;
    if (uses_nic[r]) ++nic[static_cast<std::size_t>(p.node)];
    if (uses_bus[r]) ++bus[static_cast<std::size_t>(p.node * nodes.sockets + p.socket)];
  }
  f.nic_sharers_max = nic.empty() ? 0 : *std::max_element(nic.begin(), nic.end());
  f.socket_sharers_max = bus.empty() ? 0 : *std::max_element(bus.begin(), bus.end());
  f.nodes_used = static_cast<int>(std::count(present.begin(), present.end(), true));
  return f;
}

}  // namespace contend
