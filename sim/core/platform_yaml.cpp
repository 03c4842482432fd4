// Platform YAML parsing and validation. The schema is documented in
// docs/platform-files.md; keep the two in step.
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

#include "sim/core/error.hpp"
#include "sim/core/hosts.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"

namespace contend {

std::string_view level_name(Level level) {
  switch (level) {
    case Level::IntraSocket:
      return "intra_socket";
    case Level::InterSocket:
      return "inter_socket";
    case Level::InterNode:
      return "inter_node";
  }
  return "?";
}

std::string_view network_kind(const Network& network) {
  struct Visitor {
    std::string_view operator()(const StarNetwork&) const { return "star"; }
    std::string_view operator()(const FatTreeNetwork&) const { return "fat-tree"; }
    std::string_view operator()(const DragonflyPlusNetwork&) const { return "dragonfly+"; }
  };
  return std::visit(Visitor{}, network);
}

std::string_view progress_name(Progress p) {
  switch (p) {
    case Progress::None:
      return "none";
    case Progress::Thread:
      return "thread";
    case Progress::DedicatedCore:
      return "dedicated-core";
  }
  return "?";
}

const std::vector<std::string>& progress_names() {
  static const std::vector<std::string> names = {"none", "thread", "dedicated-core"};
  return names;
}

Progress progress_by_name(std::string_view name) {
  if (name == "none") return Progress::None;
  if (name == "thread") return Progress::Thread;
  if (name == "dedicated-core") return Progress::DedicatedCore;
  throw Error("unknown progression '" + std::string(name) + "'" + did_you_mean(name, progress_names()) +
              "; expected one of: " + join(progress_names()));
}

unsigned FatTreeNetwork::leaves() const {
  unsigned n = 1;
  for (unsigned d : down) n *= d;  // bounded by the parser (fat_tree_size)
  return n;
}

namespace {

int as_count(const YamlField& f, int max = 1 << 20) { return static_cast<int>(f.as_int(1, max)); }

// A count bounded by one of contend's limits (docs/limits.md): a whole
// number above it is a limit refusal (exit status 3), anything else outside
// [1, max] bad input. `unit` names what is counted ("nodes").
int limited_count(const YamlField& f, int max, std::string_view unit, std::string_view limit_text) {
  const std::string text = f.as_string();
  const bool whole =
      !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (whole && (text.size() > 9 || std::stoll(text) > max)) {
    f.refuse(limits::exceeds(text + " " + std::string(unit), limit_text));
  }
  return as_count(f, max);
}

NodeArchitecture parse_nodes(const YamlField& f) {
  f.allow_only({"count", "sockets", "cores_per_socket", "core_speed", "hosts"});
  NodeArchitecture n;
  const auto count = f.require("count", "number of nodes");
  n.count = limited_count(count, limits::kMaxNodes, "nodes", limits::kMaxNodesText);
  n.sockets = limited_count(f.require("sockets", "sockets per node"), limits::kMaxSocketsPerNode, "sockets per node",
                            limits::kMaxSocketsPerNodeText);
  n.cores_per_socket = limited_count(f.require("cores_per_socket", "cores per socket"), limits::kMaxCoresPerSocket,
                                     "cores per socket", limits::kMaxCoresPerSocketText);
  n.core_speed = f.require("core_speed", units::kSpeedHelp).as_speed();
  if (n.total_cores() > limits::kMaxCores) {
    count.refuse(limits::exceeds(std::to_string(n.count) + " nodes x " + std::to_string(n.cores_per_node()) +
                                     " cores = " + std::to_string(n.total_cores()) + " cores",
                                 limits::kMaxCoresText));
  }
  return n;
}

// nodes.hosts: a list of one name per node, or a naming rule ("cn{:03}");
// launcher files name the nodes so (docs/mappings.md).
std::vector<std::string> parse_hosts(const YamlField& f, int count) {
  std::vector<std::string> names;
  if (!f.present()) return host_names_from_rule(kDefaultHostRule, count);
  if (f.is_sequence()) {
    const auto items = f.items();
    if (items.size() != static_cast<std::size_t>(count)) {
      f.fail_with("expected one host name per node (" + std::to_string(count) + "), got " +
                  std::to_string(items.size()));
    }
    for (const auto& item : items) names.push_back(item.as_string());
  } else if (f.is_scalar()) {
    try {
      names = host_names_from_rule(f.as_string(), count);
    } catch (const Error& e) {
      f.fail_with(e.what());
    }
  } else {
    f.fail("a list of host names (one per node) or a naming rule such as 'node{}' or 'cn{:03}'");
  }
  std::unordered_map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!is_valid_host_name(names[i])) {
      f.fail_with("node " + std::to_string(i) + "'s name '" + names[i] +
                  "' is not a host name (letters, digits, '-', '_', '.')");
    }
    if (auto [it, inserted] = first.emplace(names[i], i); !inserted) {
      f.fail_with("nodes " + std::to_string(it->second) + " and " + std::to_string(i) + " are both named '" + names[i] +
                  "'");
    }
  }
  return names;
}

BandwidthTable parse_bandwidth(const YamlField& f) {
  if (f.is_scalar()) return BandwidthTable::constant(f.as_bandwidth());
  if (!f.is_map()) f.fail("a bandwidth, or a table {N: bandwidth} of aggregate bandwidth by competing processes");
  std::vector<std::pair<int, double>> points;
  for (const auto& [key, value] : f.entries()) {
    points.emplace_back(static_cast<int>(key.as_int(1, 1 << 20)), value.as_bandwidth());
  }
  try {
    return BandwidthTable::from_points(std::move(points));
  } catch (const std::invalid_argument& e) {
    f.fail_with(std::string("invalid bandwidth table: ") + e.what());
  }
}

LevelParams parse_level(const YamlField& f) {
  f.allow_only({"latency", "eager_threshold", "bandwidth", "transport_buffer"});
  LevelParams level;
  level.latency = f.require("latency", units::kDurationHelp).as_duration();
  level.eager_threshold = f.require("eager_threshold", units::kSizeHelp).as_size();
  if (auto b = f.child("transport_buffer"); b.present()) level.transport_buffer = b.as_size();
  level.bandwidth = parse_bandwidth(f.require("bandwidth", "a bandwidth or a table {N: bandwidth}"));
  return level;
}

NicParams parse_nic(const YamlField& f) {
  f.allow_only({"count", "bandwidth", "latency"});
  NicParams nic;
  if (auto c = f.child("count"); c.present()) nic.count = as_count(c, 64);
  nic.bandwidth = f.require("bandwidth", units::kBandwidthHelp).as_bandwidth();
  if (auto l = f.child("latency"); l.present()) nic.latency = l.as_duration();
  return nic;
}

double optional_duration(const YamlField& f, std::string_view key) {
  auto c = f.child(key);
  return c.present() ? c.as_duration() : 0.0;
}

double bandwidth_or(const YamlField& f, std::string_view key, double fallback) {
  auto c = f.child(key);
  return c.present() ? c.as_bandwidth() : fallback;
}

std::vector<unsigned> parse_unsigned_list(const YamlField& f, std::size_t expected_length) {
  auto items = f.items();
  if (items.size() != expected_length) {
    f.fail_with("expected a list of " + std::to_string(expected_length) + " positive integers (one per level), got " +
                std::to_string(items.size()));
  }
  std::vector<unsigned> out;
  for (const auto& item : items) out.push_back(static_cast<unsigned>(item.as_int(1, 1 << 16)));
  return out;
}

StarNetwork parse_star(const YamlField& f, const NicParams& nic) {
  f.allow_only({"topology", "link_bandwidth", "link_latency"});
  return StarNetwork{bandwidth_or(f, "link_bandwidth", nic.aggregate_bandwidth()),
                     optional_duration(f, "link_latency")};
}

// What SimGrid's FatTreeZone builds for these parameters (leaves; switches
// per level: up[0..i] x down[i+1..]; cables per level: switches x down x
// link_count), each bounded before SimGrid is asked to build it.
void check_fat_tree_size(const YamlField& f, const FatTreeNetwork& t) {
  const auto too_big = [&f] {
    f.refuse(limits::exceeds("the fat tree's leaves, switches and cables", limits::kMaxNetworkCablesText));
  };
  const auto bound = static_cast<std::uint64_t>(limits::kMaxNetworkCables);
  auto product = [&](std::size_t from, std::size_t to, const std::vector<unsigned>& v, std::uint64_t start) {
    std::uint64_t n = start;
    for (std::size_t i = from; i < to; ++i) {
      const auto next = limits::checked_multiply(n, v[i]);
      if (!next || *next > bound) too_big();
      n = *next;
    }
    return n;
  };
  std::uint64_t total = product(0, t.levels, t.down, 1);  // the leaves
  for (std::size_t i = 0; i < t.levels; ++i) {
    const std::uint64_t switches = product(i + 1, t.levels, t.down, product(0, i + 1, t.up, 1));
    const std::uint64_t cables = product(i, i + 1, t.link_count, product(i, i + 1, t.down, switches));
    total += switches + cables;
    if (total > bound) too_big();
  }
}

FatTreeNetwork parse_fat_tree(const YamlField& f, const NodeArchitecture& nodes, const NicParams& nic) {
  f.allow_only({"topology", "levels", "down", "up", "link_count", "link_bandwidth", "link_latency"});
  FatTreeNetwork t;
  t.levels = static_cast<unsigned>(f.require("levels", "number of switch levels").as_int(1, 16));
  t.down = parse_unsigned_list(f.require("down", "downward ports per level"), t.levels);
  t.up = parse_unsigned_list(f.require("up", "upward ports per level"), t.levels);
  t.link_count = parse_unsigned_list(f.require("link_count", "parallel links per level"), t.levels);
  t.link_bandwidth = bandwidth_or(f, "link_bandwidth", nic.aggregate_bandwidth());
  t.link_latency = optional_duration(f, "link_latency");
  check_fat_tree_size(f, t);
  if (t.leaves() < static_cast<unsigned>(nodes.count)) {
    f.child("down").fail_with("the fat tree has " + std::to_string(t.leaves()) + " leaves (product of 'down') but " +
                              std::to_string(nodes.count) + " nodes need one each");
  }
  return t;
}

DragonflyPlusNetwork parse_dragonfly_plus(const YamlField& f, const NodeArchitecture& nodes, const NicParams& nic) {
  f.allow_only({"topology", "groups", "leaves_per_group", "spines_per_group", "nodes_per_leaf", "global_links",
                "nodes_per_group", "node_link_bandwidth", "node_link_latency", "local_link_bandwidth",
                "local_link_latency", "global_link_bandwidth", "global_link_latency"});
  DragonflyPlusNetwork d;
  d.groups = as_count(f.require("groups", "number of groups"), 4096);
  d.leaves_per_group = as_count(f.require("leaves_per_group", "leaf routers per group"), 4096);
  d.spines_per_group = as_count(f.require("spines_per_group", "spine routers per group"), 4096);
  d.nodes_per_leaf = as_count(f.require("nodes_per_leaf", "nodes attached to each leaf router"), 4096);
  d.global_links = as_count(f.require("global_links", "links between each pair of groups"), 4096);
  d.node_link_bandwidth = bandwidth_or(f, "node_link_bandwidth", nic.aggregate_bandwidth());
  d.node_link_latency = optional_duration(f, "node_link_latency");
  d.local_link_bandwidth = f.require("local_link_bandwidth", units::kBandwidthHelp).as_bandwidth();
  d.local_link_latency = optional_duration(f, "local_link_latency");
  d.global_link_bandwidth = f.require("global_link_bandwidth", units::kBandwidthHelp).as_bandwidth();
  d.global_link_latency = optional_duration(f, "global_link_latency");

  // Cables: one per node, every leaf to every spine in each group, and
  // global_links between every pair of groups.
  const long long groups = d.groups;
  const long long cables =
      nodes.count + groups * d.leaves_per_group * d.spines_per_group + groups * (groups - 1) / 2 * d.global_links;
  if (cables > limits::kMaxNetworkCables) {
    f.refuse(limits::exceeds("the Dragonfly+ network's " + std::to_string(cables) + " cables",
                             limits::kMaxNetworkCablesText));
  }
  const long long capacity = static_cast<long long>(d.groups) * d.slots_per_group();
  if (auto spread = f.child("nodes_per_group"); spread.present()) {
    auto items = spread.items();
    if (items.size() != static_cast<std::size_t>(d.groups)) {
      spread.fail_with("expected one entry per group (" + std::to_string(d.groups) + "), got " +
                       std::to_string(items.size()));
    }
    for (const auto& item : items) d.nodes_per_group.push_back(static_cast<int>(item.as_int(0, d.slots_per_group())));
    const long long total = std::accumulate(d.nodes_per_group.begin(), d.nodes_per_group.end(), 0LL);
    if (total != nodes.count) {
      spread.fail_with("the entries add up to " + std::to_string(total) + " nodes but nodes.count is " +
                       std::to_string(nodes.count));
    }
  } else {
    if (capacity < nodes.count) {
      f.fail_with("the network has room for " + std::to_string(capacity) +
                  " nodes (groups x leaves_per_group x nodes_per_leaf) but nodes.count is " +
                  std::to_string(nodes.count));
    }
    int remaining = nodes.count;
    for (int g = 0; g < d.groups; ++g) {
      const int here = std::min(remaining, d.slots_per_group());
      d.nodes_per_group.push_back(here);
      remaining -= here;
    }
  }
  return d;
}

Network parse_network(const YamlField& f, const NodeArchitecture& nodes, const NicParams& nic) {
  const std::vector<std::string> kinds = {"star", "fat-tree", "dragonfly+"};
  const auto topology_field = f.require("topology", "one of: star, fat-tree, dragonfly+");
  const std::string topology = topology_field.as_string();
  if (topology == "star") return parse_star(f, nic);
  if (topology == "fat-tree") return parse_fat_tree(f, nodes, nic);
  if (topology == "dragonfly+") return parse_dragonfly_plus(f, nodes, nic);
  topology_field.fail_with("unknown topology '" + topology + "'" + did_you_mean(topology, kinds) +
                           "; expected one of: " + join(kinds));
}

}  // namespace

Platform parse_platform(const YamlField& root) {
  if (!root.is_map()) root.fail("a platform description (a mapping with nodes, levels, nic, network)");
  root.allow_only({"name", "description", "nodes", "levels", "nic", "network", "progress", "default_model", "models"});
  Platform p;
  p.file = root.file();
  p.name = root.require("name", "a short platform name").as_string();
  if (auto d = root.child("description"); d.present()) p.description = d.as_string();
  const auto nodes = root.require("nodes", "count, sockets, cores_per_socket, core_speed");
  p.nodes = parse_nodes(nodes);
  p.hosts = parse_hosts(nodes.child("hosts"), p.nodes.count);

  const auto levels = root.require("levels", "intra_socket, inter_socket and inter_node parameters");
  levels.allow_only({"intra_socket", "inter_socket", "inter_node"});
  for (Level l : kAllLevels) {
    p.levels[static_cast<std::size_t>(l)] =
        parse_level(levels.require(level_name(l), "latency, eager_threshold, bandwidth"));
  }
  p.nic = parse_nic(root.require("nic", "bandwidth (and optionally count, latency)"));
  p.network = parse_network(root.require("network", "topology and its parameters"), p.nodes, p.nic);
  if (auto progress = root.child("progress"); progress.present()) {
    try {
      p.progress = progress_by_name(progress.as_string());
    } catch (const Error&) {
      progress.fail(join(progress_names(), ", ") + " (how nonblocking communication progresses)");
    }
  }
  if (p.progress == Progress::DedicatedCore && p.nodes.cores_per_node() < 2) {
    root.child("progress").fail_with("dedicated-core needs at least two cores per node");
  }
  // Checked against the model registry (a layer above) by validate_platform.
  if (p.default_model_field = root.child("default_model"); p.default_model_field.present()) {
    if (!p.default_model_field.is_scalar() || p.default_model_field.as_string().empty())
      p.default_model_field.fail("a model name or composition such as staircase+loggops ('contend models' lists them)");
    p.default_model = p.default_model_field.as_string();
  }
  p.models = root.child("models");
  if (p.models.present() && !p.models.is_map()) p.models.fail("a mapping from model name to its parameters");
  return p;
}

Platform read_platform(const std::string& path) { return parse_platform(YamlField::load_file(path)); }

}  // namespace contend
