#include "sim/search/comm_graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "sim/core/error.hpp"

namespace contend {

CommGraph::CommGraph(int ranks, const std::vector<MessageRecord>& records) : ranks_(ranks) {
  std::map<std::pair<int, int>, CommEdge> pairs;
  for (const auto& m : records) {
    auto& e = pairs[{m.src, m.dst}];
    e.src = m.src;
    e.dst = m.dst;
    e.bytes += static_cast<double>(m.bytes);
    ++e.messages;
  }
  edges_.reserve(pairs.size());
  for (auto& [key, edge] : pairs) edges_.push_back(edge);
  index();
}

CommGraph::CommGraph(int ranks, std::vector<CommEdge> edges) : ranks_(ranks), edges_(std::move(edges)) {
  std::sort(edges_.begin(), edges_.end(),
            [](const CommEdge& a, const CommEdge& b) { return std::tie(a.src, a.dst) < std::tie(b.src, b.dst); });
  index();
}

void CommGraph::index() {
  adjacency_.assign(static_cast<std::size_t>(ranks_), {});
  volume_.assign(static_cast<std::size_t>(ranks_), 0.0);
  std::map<std::pair<int, int>, double> undirected;
  total_bytes_ = 0;
  total_messages_ = 0;
  for (const auto& e : edges_) {
    if (e.src < 0 || e.src >= ranks_ || e.dst < 0 || e.dst >= ranks_) {
      throw Error(fmt::format("communication graph: edge {} -> {} outside ranks 0-{}", e.src, e.dst, ranks_ - 1));
    }
    total_bytes_ += e.bytes;
    total_messages_ += e.messages;
    volume_[static_cast<std::size_t>(e.src)] += e.bytes;
    volume_[static_cast<std::size_t>(e.dst)] += e.bytes;
    if (e.src != e.dst) undirected[{std::min(e.src, e.dst), std::max(e.src, e.dst)}] += e.bytes;
  }
  for (const auto& [pair, bytes] : undirected) {
    adjacency_[static_cast<std::size_t>(pair.first)].push_back({pair.second, bytes});
    adjacency_[static_cast<std::size_t>(pair.second)].push_back({pair.first, bytes});
  }
}

std::array<double, 3> CommGraph::bytes_per_level(const Mapping& mapping) const {
  std::array<double, 3> out{};
  for (const auto& e : edges_) out[static_cast<std::size_t>(mapping.level(e.src, e.dst))] += e.bytes;
  return out;
}

std::string CommGraph::serialize() const {
  std::string out = fmt::format("ranks {}\n", ranks_);
  for (const auto& e : edges_) out += fmt::format("{} {} {:.17g} {}\n", e.src, e.dst, e.bytes, e.messages);
  return out;
}

CommGraph CommGraph::parse(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string word;
  int ranks = 0;
  if (!(in >> word >> ranks) || word != "ranks") throw Error("communication graph: expected 'ranks N' first");
  std::vector<CommEdge> edges;
  CommEdge e;
  while (in >> e.src >> e.dst >> e.bytes >> e.messages) edges.push_back(e);
  if (!in.eof()) throw Error("communication graph: malformed edge line");
  return CommGraph(ranks, std::move(edges));
}

}  // namespace contend
