// srun --distribution over every node of the platform, one CPU per task and
// whole nodes allocated: Slurm decides how many tasks each node gets and
// which (src/common/slurm_step_layout.c), then task/affinity binds a node's
// tasks to its sockets' cores (src/plugins/task/affinity/dist_tasks.c).
#include <fmt/format.h>

#include <charconv>

#include "sim/core/error.hpp"
#include "sim/core/launcher_mapping.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace {

struct Distribution {
  enum Nodes { Block, Cyclic, Plane } nodes = Block;
  int plane = 0;
  bool sockets_block = false;  // second level block; cyclic and fcyclic deal sockets in turn
};

[[noreturn]] void bad_distribution(std::string_view text, const std::string& why) {
  throw Error("--mapping 'slurm:" + std::string(text) + "': " + why);
}

Distribution parse_distribution(std::string_view text) {
  Distribution d;
  const auto colon = text.find(':');
  const std::string first(text.substr(0, colon));
  const std::vector<std::string> firsts = {"block", "cyclic", "plane=N"};
  if (first == "block") {
    d.nodes = Distribution::Block;
  } else if (first == "cyclic") {
    d.nodes = Distribution::Cyclic;
  } else if (first.starts_with("plane=")) {
    // src/common/proc_args.c verify_dist_type: plane takes no second level.
    const std::string_view size = std::string_view(text).substr(6);
    auto [ptr, ec] = std::from_chars(size.data(), size.data() + size.size(), d.plane);
    if (ec != std::errc{} || ptr != size.data() + size.size() || d.plane < 1) {
      bad_distribution(text, "plane=N takes a positive plane size and no second level (as srun)");
    }
    d.nodes = Distribution::Plane;
    d.sockets_block = true;  // dist_tasks.c lays plane out in blocks within a node
    return d;
  } else {
    bad_distribution(text, "expected DIST[:SOCKETS] with DIST one of " + join(firsts) +
                               " and SOCKETS one of block, cyclic, fcyclic" + did_you_mean(first, {"block", "cyclic"}));
  }
  if (colon == std::string_view::npos) return d;
  const std::string second(text.substr(colon + 1));
  if (second == "block") {
    d.sockets_block = true;
  } else if (second != "cyclic" && second != "fcyclic") {
    bad_distribution(text, "the second level (sockets) is one of block, cyclic, fcyclic, got '" + second + "'" +
                               did_you_mean(second, {"block", "cyclic", "fcyclic"}));
  }
  return d;
}

// Tasks per node: slurm_step_layout.c counts them as a cyclic distribution
// would (block, plane), filling each node's CPUs, then oversubscribing.
std::vector<int> cyclic_counts(int tasks, const std::vector<int>& cpus) {
  std::vector<int> counts(cpus.size(), 0);
  bool over = false;
  for (int j = 0, placed = 0; placed < tasks; ++j) {
    bool room = false;
    for (std::size_t i = 0; i < cpus.size() && placed < tasks; ++i) {
      if (j < cpus[i] || over) {
        ++counts[i];
        ++placed;
        if (j + 1 < cpus[i]) room = true;
      }
    }
    if (!room) over = true;
  }
  return counts;
}

// Which tasks each node runs, in increasing task order.
std::vector<std::vector<int>> node_tasks(const Distribution& d, int tasks, const std::vector<int>& cpus) {
  const std::size_t nodes = cpus.size();
  std::vector<std::vector<int>> out(nodes);
  if (d.nodes == Distribution::Block) {
    // _task_layout_block (without pack_nodes): consecutive tasks per node.
    const auto counts = cyclic_counts(tasks, cpus);
    int task = 0;
    for (std::size_t i = 0; i < nodes; ++i)
      for (int k = 0; k < counts[i]; ++k) out[i].push_back(task++);
    return out;
  }
  if (d.nodes == Distribution::Cyclic) {
    // _task_layout_cyclic: one task per node in turn, oversubscribing evenly
    // once every CPU is taken.
    int total = 0;
    for (int c : cpus) total += c;
    const int over_by = total < tasks ? (tasks - total + static_cast<int>(nodes) - 1) / static_cast<int>(nodes) : 0;
    bool over = total < tasks;
    for (int j = 0, task = 0; task < tasks; ++j) {
      bool room = false;
      for (std::size_t i = 0; i < nodes && task < tasks; ++i) {
        if (j < cpus[i] || (over && j < cpus[i] + over_by)) {
          out[i].push_back(task++);
          if (j + 1 < cpus[i]) room = true;
        }
      }
      if (!room) over = true;
    }
    return out;
  }
  // _task_layout_plane: counts as cyclic with one task per node first, then
  // blocks of `plane` tasks dealt to the nodes in turn.
  std::vector<int> counts(nodes, 0);
  bool over = false;
  for (int j = 0, placed = 0; placed < tasks; ++j) {
    bool room = false;
    if (j == 0) {
      for (std::size_t i = 0; i < nodes && placed < tasks; ++i, ++placed) ++counts[i];
    }
    for (std::size_t i = 0; i < nodes && placed < tasks; ++i) {
      for (int k = j == 0 ? 1 : 0; k < d.plane && placed < tasks; ++k) {
        if (cpus[i] - counts[i] != 0 || over) {
          ++placed;
          ++counts[i];
          if (cpus[i] - (counts[i] + 1) >= 0) room = true;
        }
      }
    }
    if (!room) over = true;
  }
  std::vector<int> given(nodes, 0);
  for (int task = 0; task < tasks;) {
    for (std::size_t i = 0; i < nodes && task < tasks; ++i) {
      for (int k = 0; k < d.plane && given[i] < counts[i] && task < tasks; ++k, ++given[i]) out[i].push_back(task++);
    }
  }
  return out;
}

}  // namespace

Mapping slurm_mapping(std::string_view text, int ranks, const Machine& m, bool oversubscribe) {
  const Distribution d = parse_distribution(text);
  const NodeArchitecture& arch = m.nodes();
  std::vector<int> cpus;
  for (const auto& h : m.hosts()) cpus.push_back(h.slots);
  if (ranks > m.total_slots() && !oversubscribe) {
    throw Error(
        fmt::format("--mapping 'slurm:{}': {} tasks but the nodes have {} CPUs; pass --oversubscribe "
                    "(as srun --overcommit)",
                    text, ranks, m.total_slots()));
  }
  std::vector<Placement> placements(static_cast<std::size_t>(ranks));
  const auto tasks = node_tasks(d, ranks, cpus);
  for (std::size_t n = 0; n < tasks.size(); ++n) {
    for (std::size_t local = 0; local < tasks[n].size(); ++local) {
      // dist_tasks.c: lllp_block takes a socket's cores before the next
      // socket's; lllp_cyclic deals the node's tasks to its sockets in turn.
      const int k = static_cast<int>(local) % arch.cores_per_node();
      Placement& p = placements[static_cast<std::size_t>(tasks[n][local])];
      p.node = static_cast<int>(n);
      p.socket = d.sockets_block ? k / arch.cores_per_socket : k % arch.sockets;
      p.core = d.sockets_block ? k % arch.cores_per_socket : k / arch.sockets;
    }
  }
  Mapping mapping(std::move(placements));
  check_cores_not_shared(mapping, oversubscribe, "--mapping 'slurm:" + std::string(text) + "'");
  return mapping;
}

}  // namespace contend
