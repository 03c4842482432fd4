#include "sim/core/launcher_files.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/rankfile.hpp"
#include "sim/core/text.hpp"

namespace contend {

const std::vector<std::string>& launcher_names() {
  static const std::vector<std::string> names = {"ompi4", "ompi5", "slurm", "mpich"};
  return names;
}

Launcher launcher_by_name(std::string_view name) {
  if (name == "ompi4") return Launcher::Ompi4;
  if (name == "ompi5") return Launcher::Ompi5;
  if (name == "slurm") return Launcher::Slurm;
  if (name == "mpich") return Launcher::Mpich;
  throw Error("unknown launcher '" + std::string(name) + "'" + did_you_mean(name, launcher_names()) +
              "; expected one of: " + join(launcher_names()));
}

std::string shell_quote(std::string_view word) {
  const bool safe = !word.empty() && word.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_./-+:=,@%") == std::string_view::npos;
  if (safe) return std::string(word);
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

// A rank's CPUs as the operating system numbers them on its node.
struct Cpus {
  int first = 0;
  int count = 1;
  bool operator==(const Cpus&) const = default;
  std::string list() const {
    return count == 1 ? fmt::format("{}", first) : fmt::format("{}-{}", first, first + count - 1);
  }
  // Slurm's mask_cpu: hexadecimal, CPU 0 the lowest bit, any length.
  std::string mask() const {
    std::string hex;
    for (int nibble = (first + count - 1) / 4; nibble >= 0; --nibble) {
      int value = 0;
      for (int bit = 0; bit < 4; ++bit) {
        const int cpu = nibble * 4 + bit;
        if (cpu >= first && cpu < first + count) value |= 1 << bit;
      }
      hex += "0123456789abcdef"[value];
    }
    return "0x" + hex;
  }
};

// Every node's ranks, in increasing rank order: the launchers' local task order.
std::vector<std::vector<int>> ranks_by_node(const Mapping& mapping, int nodes) {
  std::vector<std::vector<int>> out(static_cast<std::size_t>(nodes));
  for (int r = 0; r < mapping.rank_count(); ++r) out[static_cast<std::size_t>(mapping[r].node)].push_back(r);
  return out;
}

Cpus cpus_of(const Placement& p, const Mapping& mapping, const NodeArchitecture& nodes) {
  return Cpus{p.socket * nodes.cores_per_socket + p.core, mapping.cores_per_rank()};
}

LaunchPlan ompi_plan(Launcher launcher, const Mapping& mapping, const Machine& machine, const std::string& path,
                     const std::string& program) {
  LaunchPlan plan;
  std::ostringstream rankfile;
  rankfile << "# contend mapping: " << mapping.rank_count() << " ranks\n";
  const bool v4 = launcher == Launcher::Ompi4;
  write_rankfile(rankfile, mapping, machine, v4 ? SlotStyle::SocketCore : SlotStyle::NodeCore);
  plan.files.push_back({path, rankfile.str()});
  if (v4) {
    plan.command = fmt::format("mpirun -np {} --rankfile {} {}", mapping.rank_count(), shell_quote(path), program);
    plan.notes.push_back(
        "Open MPI 4.x: the rankfile's hosts form the allocation unless a hostfile or the "
        "scheduler gives one; slots are hwloc logical indexes (socket:core)");
    return plan;
  }
  std::ostringstream hosts;
  const auto by_node = ranks_by_node(mapping, machine.nodes().count);
  for (std::size_t n = 0; n < by_node.size(); ++n) {
    if (!by_node[n].empty()) hosts << machine.host(static_cast<int>(n)).name << " slots=" << by_node[n].size() << "\n";
  }
  const std::string hostfile = path + ".hosts";
  plan.files.push_back({hostfile, hosts.str()});
  plan.command = fmt::format("mpirun -np {} --hostfile {} --map-by rankfile:file={} {}", mapping.rank_count(),
                             shell_quote(hostfile), shell_quote(path), program);
  plan.notes.push_back("Open MPI 5 (PRRTE): slot=N is the node's logical core N (cores counted socket by socket)");
  return plan;
}

// One --cpu-bind list for every node, if the nodes' local tasks agree:
// cores within a socket are interchangeable for the prediction, so each
// socket's ranks take its cores in rank order first.
std::optional<std::vector<Cpus>> common_cpu_list(const Mapping& mapping, const NodeArchitecture& nodes,
                                                 const std::vector<std::vector<int>>& by_node) {
  std::vector<Cpus> list;
  for (const auto& ranks : by_node) {
    std::vector<int> next_core(static_cast<std::size_t>(nodes.sockets), 0);
    for (std::size_t local = 0; local < ranks.size(); ++local) {
      const Placement& p = mapping[ranks[local]];
      int& core = next_core[static_cast<std::size_t>(p.socket)];
      if (core + mapping.cores_per_rank() > nodes.cores_per_socket) return std::nullopt;  // shared cores
      const Cpus cpus{p.socket * nodes.cores_per_socket + core, mapping.cores_per_rank()};
      core += mapping.cores_per_rank();
      if (local == list.size())
        list.push_back(cpus);
      else if (!(list[local] == cpus))
        return std::nullopt;
    }
  }
  return list;
}

LaunchPlan slurm_plan(const Mapping& mapping, const Machine& machine, const std::string& path,
                      const std::string& program) {
  const NodeArchitecture& nodes = machine.nodes();
  LaunchPlan plan;
  std::ostringstream hostfile;
  for (int r = 0; r < mapping.rank_count(); ++r) hostfile << machine.host(mapping[r].node).name << "\n";
  plan.files.push_back({path, hostfile.str()});
  const auto by_node = ranks_by_node(mapping, nodes.count);
  std::vector<std::string> used;
  for (std::size_t n = 0; n < by_node.size(); ++n)
    if (!by_node[n].empty()) used.push_back(machine.host(static_cast<int>(n)).name);
  const std::string head = fmt::format("SLURM_HOSTFILE={} srun --ntasks={} --distribution=arbitrary", shell_quote(path),
                                       mapping.rank_count());
  plan.notes.push_back("run inside an allocation of whole nodes " + join(used, ",") +
                       " (salloc -w ... --exclusive); task i runs on line i's host");
  if (const auto list = common_cpu_list(mapping, nodes, by_node)) {
    std::vector<std::string> items;
    const bool single = mapping.cores_per_rank() == 1;
    for (const auto& c : *list) items.push_back(single ? c.list() : c.mask());
    plan.command =
        fmt::format("{} --cpu-bind={}:{} {}", head, single ? "map_cpu" : "mask_cpu", join(items, ","), program);
    plan.notes.push_back(
        "the CPU list is indexed by each node's local task number (the same list on every node); within a "
        "socket, ranks take its cores in rank order (the prediction is the same)");
    return plan;
  }
  // The nodes' local tasks disagree on their sockets: one list cannot say
  // it, so each rank binds itself to its own cores, read by its task id.
  std::ostringstream cpus;
  for (int r = 0; r < mapping.rank_count(); ++r) cpus << cpus_of(mapping[r], mapping, nodes).list() << "\n";
  const std::string cpu_file = path + ".cpus";
  plan.files.push_back({cpu_file, cpus.str()});
  plan.command = fmt::format(
      "{} --cpu-bind=none sh -c 'exec taskset -c \"$(sed -n \"$((SLURM_PROCID + 1))p\" {})\" \"$0\" \"$@\"' {}", head,
      shell_quote(cpu_file), program);
  plan.notes.push_back(
      "the nodes' local tasks sit on different sockets, which one --cpu-bind=map_cpu list cannot "
      "express: each rank binds itself with taskset to line (task id + 1) of " +
      cpu_file);
  return plan;
}

LaunchPlan mpich_plan(const Mapping& mapping, const Machine& machine, const std::string& path,
                      const std::string& program) {
  const NodeArchitecture& nodes = machine.nodes();
  LaunchPlan plan;
  const auto by_node = ranks_by_node(mapping, nodes.count);
  std::ostringstream machinefile;
  std::vector<int> line_of(by_node.size(), -1);
  int lines = 0;
  for (std::size_t n = 0; n < by_node.size(); ++n) {
    if (by_node[n].empty()) continue;
    std::vector<std::string> cpus;
    for (int r : by_node[n]) cpus.push_back(cpus_of(mapping[r], mapping, nodes).list());
    machinefile << fmt::format("{}:{} binding=user:{}\n", machine.host(static_cast<int>(n)).name, by_node[n].size(),
                               join(cpus, ","));
    line_of[n] = lines++;
  }
  plan.files.push_back({path, machinefile.str()});
  std::vector<std::string> rankmap;
  for (int r = 0; r < mapping.rank_count(); ++r)
    rankmap.push_back(std::to_string(line_of[static_cast<std::size_t>(mapping[r].node)]));
  plan.command = fmt::format("mpiexec -f {} -n {} -rankmap {} {}", shell_quote(path), mapping.rank_count(),
                             join(rankmap, ","), program);
  plan.notes.push_back(
      "MPICH 4.1 or later (Hydra's -rankmap: each rank's line of the machinefile); binding=user "
      "lists each host's ranks' CPUs in rank order");
  return plan;
}

}  // namespace

LaunchPlan launch_plan(Launcher launcher, const Mapping& mapping, const Machine& machine, const std::string& path,
                       const std::string& program) {
  switch (launcher) {
    case Launcher::Ompi4:
    case Launcher::Ompi5:
      return ompi_plan(launcher, mapping, machine, path, program);
    case Launcher::Slurm:
      return slurm_plan(mapping, machine, path, program);
    case Launcher::Mpich:
      return mpich_plan(mapping, machine, path, program);
  }
  throw Error("unknown launcher");
}

}  // namespace contend
