#pragma once
// Platform files written inline by the tests (unit and simulation tests).
#include <string>
#include <utility>

#include "sim/core/platform.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend::test {

// One setting of the three levels: the same for all, or one each.
struct PerLevel {
  PerLevel(const char* all) : intra_socket(all), inter_socket(all), inter_node(all) {}
  PerLevel(std::string all) : intra_socket(all), inter_socket(all), inter_node(std::move(all)) {}
  PerLevel(std::string intra, std::string inter, std::string node)
      : intra_socket(std::move(intra)), inter_socket(std::move(inter)), inter_node(std::move(node)) {}
  std::string intra_socket, inter_socket, inter_node;
};

// The entries under `levels:`; a bandwidth is a value or a table such as
// "{1: 10GB/s, 2: 16GB/s}".
inline std::string levels_yaml(const PerLevel& latency, const PerLevel& eager_threshold, const PerLevel& bandwidth) {
  auto level = [](const std::string& name, const std::string& l, const std::string& e, const std::string& b) {
    return "  " + name + ": {latency: " + l + ", eager_threshold: " + e + ", bandwidth: " + b + "}\n";
  };
  return level("intra_socket", latency.intra_socket, eager_threshold.intra_socket, bandwidth.intra_socket) +
         level("inter_socket", latency.inter_socket, eager_threshold.inter_socket, bandwidth.inter_socket) +
         level("inter_node", latency.inter_node, eager_threshold.inter_node, bandwidth.inter_node);
}

// 1 GB/s everywhere, eager below 1 KiB; latencies 1/2/10 us by level.
inline const std::string kGigabyteLevels = levels_yaml({"1us", "2us", "10us"}, "1KiB", "1GB/s");

// `nodes` nodes of `sockets` x `cores` cores at 1 Gflop/s, with `levels`
// (levels_yaml), the network and the NICs.
inline std::string platform_yaml(int nodes, int sockets, int cores, const std::string& levels,
                                 const std::string& network = "{topology: star, link_bandwidth: 1e12}",
                                 const std::string& nic = "{bandwidth: 1e12}") {
  return "name: test\nnodes: {count: " + std::to_string(nodes) + ", sockets: " + std::to_string(sockets) +
         ", cores_per_socket: " + std::to_string(cores) + ", core_speed: 1Gf}\nlevels:\n" + levels + "nic: " + nic +
         "\nnetwork: " + network + "\n";
}

// `nodes` nodes of one socket of `cores` cores on a star whose links and
// NICs carry 1 GB/s.
inline std::string star_cluster_yaml(int nodes, int cores, const std::string& levels) {
  return platform_yaml(nodes, 1, cores, levels, "{topology: star, link_bandwidth: 1GB/s}", "{bandwidth: 1GB/s}");
}

// `nodes` nodes of one core behind NICs of 1 GB/s, on a star much faster
// than them: the NICs are the only constraints between nodes.
inline std::string nic_bound_star(int nodes) {
  return platform_yaml(nodes, 1, 1, kGigabyteLevels, "{topology: star, link_bandwidth: 1e12}", "{bandwidth: 1GB/s}");
}

// The platform `text` describes; errors name `file`.
inline Platform parse_platform_text(const std::string& text, const std::string& file = "test.yaml") {
  return parse_platform(YamlField::load_string(text, file));
}

}  // namespace contend::test
