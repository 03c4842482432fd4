#pragma once
// The machine as a launcher sees it: every node's host name and its slots
// (how many ranks Open MPI's mappers place there before moving on). Names
// come from the platform file (`nodes.hosts`: a list, or a naming rule such
// as "cn{:03}"; default "node{}") or from a hosts file (--hosts FILE: one
// host per line in node order, an Open MPI hostfile's `slots=N` allowed).
// Launcher files (rankfiles, SLURM_HOSTFILE, machinefiles) name these hosts.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/core/platform.hpp"

namespace contend {

struct Host {
  std::string name;
  int slots = 0;  // ranks a launcher places here before the next node (default: the node's cores)
};

class Machine {
 public:
  Machine(NodeArchitecture nodes, std::vector<Host> hosts);

  const NodeArchitecture& nodes() const { return nodes_; }
  const std::vector<Host>& hosts() const { return hosts_; }
  const Host& host(int node) const { return hosts_[static_cast<std::size_t>(node)]; }
  std::vector<std::string> host_names() const;
  // The node a host name denotes, if any.
  std::optional<int> node_named(std::string_view name) const;
  long long total_slots() const;

 private:
  NodeArchitecture nodes_;
  std::vector<Host> hosts_;
  std::unordered_map<std::string, int> node_of_;
};

// Letters, digits, '-', '_' and '.': what launchers' files can carry.
bool is_valid_host_name(std::string_view name);

// Host names by a naming rule: "{}" (fmt syntax, "{:03}" pads) is replaced
// by the node index. Throws contend::Error naming the rule when it is not one.
std::vector<std::string> host_names_from_rule(const std::string& rule, int count);
inline constexpr const char* kDefaultHostRule = "node{}";

// The platform's host names, every node with as many slots as cores.
Machine machine_of(const Platform& platform);
// Default names ("node0", ...) for callers that have only the architecture.
Machine default_machine(const NodeArchitecture& nodes);
// The same nodes named by a hosts file; errors name file:line:col.
Machine with_hosts_file(const Machine& machine, const std::string& path);
// The platform's machine, named by `hosts_file` when one is given (--hosts).
Machine machine_of(const Platform& platform, const std::string& hosts_file);

}  // namespace contend
