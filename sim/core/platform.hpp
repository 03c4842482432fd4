#pragma once
// The machine a simulation runs on, as described by a platform YAML file
// (schema in docs/platform-files.md). Plain data: parsing and validation
// live in platform_yaml.cpp, the SimGrid construction in simgrid_platform.cpp.
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/core/bandwidth_table.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend {

// Where a message travels, decided by the ranks' placement.
enum class Level { IntraSocket = 0, InterSocket = 1, InterNode = 2 };
inline constexpr std::array<Level, 3> kAllLevels = {Level::IntraSocket, Level::InterSocket, Level::InterNode};
std::string_view level_name(Level level);  // "intra_socket", ...
inline std::ostream& operator<<(std::ostream& out, Level level) { return out << level_name(level); }

struct LevelParams {
  double latency = 0;                 // tau, seconds
  std::uint64_t eager_threshold = 0;  // messages below use eager, at or above rendezvous
  // Bytes the transport holds for a sender (Open MPI's TCP BTL: the socket
  // buffers): a rendezvous send completes once at most this many of its bytes
  // remain undelivered. 0: at delivery (docs/mpi-semantics.md).
  std::uint64_t transport_buffer = 0;
  BandwidthTable bandwidth;  // BW_MP(N), aggregate B/s
};

struct NodeArchitecture {
  int count = 0;
  int sockets = 0;
  int cores_per_socket = 0;
  double core_speed = 0;  // flop/s of one core
  int cores_per_node() const { return sockets * cores_per_socket; }
  long long total_cores() const { return static_cast<long long>(count) * cores_per_node(); }
};

struct NicParams {
  int count = 1;         // NICs per node, used together (aggregate bandwidth)
  double bandwidth = 0;  // B/s per NIC, each direction
  double latency = 0;    // seconds, paid once at each end of an inter-node message
  double aggregate_bandwidth() const { return count * bandwidth; }
};

// One switch, every node on its own full-duplex link (Martinasso's clusters).
struct StarNetwork {
  double link_bandwidth = 0;
  double link_latency = 0;
};

// SimGrid's k-ary fat tree (levels, down/up port counts, parallel links per level).
struct FatTreeNetwork {
  unsigned levels = 0;
  std::vector<unsigned> down, up, link_count;
  double link_bandwidth = 0;
  double link_latency = 0;
  unsigned leaves() const;
};

// Dragonfly+ (Shpiner et al. 2017): each group is a two-level fat tree of leaf
// and spine routers (every leaf linked to every spine: full bisection inside a
// group); spines of different groups are joined by global links, fewer than
// the nodes need (oversubscribed between groups).
struct DragonflyPlusNetwork {
  int groups = 0;
  int leaves_per_group = 0;
  int spines_per_group = 0;
  int nodes_per_leaf = 0;
  int global_links = 0;              // links between every pair of groups
  std::vector<int> nodes_per_group;  // how the platform's nodes fill the groups
  double node_link_bandwidth = 0, node_link_latency = 0;
  double local_link_bandwidth = 0, local_link_latency = 0;
  double global_link_bandwidth = 0, global_link_latency = 0;
  int slots_per_group() const { return leaves_per_group * nodes_per_leaf; }
};

using Network = std::variant<StarNetwork, FatTreeNetwork, DragonflyPlusNetwork>;
std::string_view network_kind(const Network& network);

// How nonblocking communication progresses (Denis et al., CCGRID 2022):
//   none            only inside MPI calls: a rendezvous needs each side to
//                   enter MPI before its data moves
//   thread          in the background (a progress thread): data moves once matched
//   dedicated-core  in the background on a core of its own: compute phases
//                   run on one core less, N_core / (N_core - 1) times slower
enum class Progress { None, Thread, DedicatedCore };
std::string_view progress_name(Progress p);
const std::vector<std::string>& progress_names();
// Throws contend::Error listing the valid names.
Progress progress_by_name(std::string_view name);

struct Platform {
  std::string file;  // where it was read from, for messages
  std::string name;
  std::string description;
  NodeArchitecture nodes;
  std::vector<std::string> hosts;  // one host name per node (nodes.hosts; sim/core/hosts.hpp)
  std::array<LevelParams, 3> levels;
  NicParams nic;
  Network network;
  Progress progress = Progress::Thread;
  // `default_model:`: what the commands simulate with when --model is not
  // given (docs/platform-files.md); empty: their built-in default, maxmin.
  std::string default_model;
  YamlField default_model_field;  // where it is written, for errors
  YamlField models;               // per-model parameter sections, parsed by each model

  const LevelParams& level(Level l) const { return levels[static_cast<std::size_t>(l)]; }
  // The model's own section of `models:`; absent (present() == false) if the file has none.
  YamlField model_section(std::string_view model_name) const { return models.child(model_name); }
};

// Reads and validates a platform file. Errors name file:line:col, the key and
// what was expected.
Platform read_platform(const std::string& path);
Platform parse_platform(const YamlField& root);

}  // namespace contend
