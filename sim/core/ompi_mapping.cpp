// Open MPI 4.1's placement of a job (orte/mca/rmaps), step by step as mpirun
// does it: the mapper puts processes on nodes and objects (rmaps_rr_mappers.c,
// rmaps_ppr.c), the ranking numbers them (rmaps_base_ranking.c), the binding
// pins them (rmaps_base_binding.c). The defaults are rmaps_base_map_job.c's.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sim/core/error.hpp"
#include "sim/core/launcher_mapping.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace {

// What Open MPI maps by, ranks by and binds to. A node's NUMA domain is its
// socket on contend's platforms; Slot and Node map without an object.
enum class Object { Node, Socket, Core };

struct Policy {
  enum Kind { Default, Core, Slot, Socket, Node, PprNode, PprSocket } kind = Default;
  int per = 0;  // ppr's N
  int pe = 0;   // :PE=n, 0 when not given
};

struct Proc {
  Object locale = Object::Node;  // where the mapper put it: the node, a socket or a core
  int index = 0;                 // that socket, or node-wide core (socket * cores_per_socket + core)
  int rank = -1;
  Object bound = Object::Node;  // Node: not bound
  int bound_index = 0;
};
using Procs = std::vector<std::vector<Proc>>;  // per node, in mapping order

struct Topology {
  int sockets, cores_per_socket;
  int count(Object o) const {
    return o == Object::Socket ? sockets : o == Object::Core ? sockets * cores_per_socket : 1;
  }
  int cpus(Object o) const {
    return o == Object::Socket ? cores_per_socket : o == Object::Core ? 1 : sockets * cores_per_socket;
  }
  // Whether object `o` number `i` and a process's locale overlap.
  bool intersects(Object o, int i, const Proc& p) const {
    if (p.locale == Object::Node || o == Object::Node) return true;
    if (o == p.locale) return i == p.index;
    if (o == Object::Socket) return p.index / cores_per_socket == i;  // a core locale inside socket i
    return i / cores_per_socket == p.index;                           // core i inside a socket locale
  }
};

[[noreturn]] void bad_policy(std::string_view policy) {
  const std::string first(policy.substr(0, policy.find(':')));
  throw Error("--mapping 'ompi:" + std::string(policy) + "': expected ompi:POLICY with POLICY one of " +
              join(ompi_policy_forms()) + ", each with an optional :PE=n" + did_you_mean(first, ompi_policy_forms()));
}

int positive(std::string_view text, std::string_view policy) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size() || value < 1) bad_policy(policy);
  return value;
}

Policy parse_policy(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  while (true) {
    const auto colon = text.find(':', from);
    parts.emplace_back(text.substr(from, colon - from));
    if (colon == std::string_view::npos) break;
    from = colon + 1;
  }
  Policy p;
  auto& last = parts.back();
  if (parts.size() > 1 && last.size() > 3 && (last.starts_with("PE=") || last.starts_with("pe="))) {
    p.pe = positive(std::string_view(last).substr(3), text);
    parts.pop_back();
  }
  const std::string& kind = parts[0];
  if (parts.size() == 1) {
    if (kind == "default")
      p.kind = Policy::Default;
    else if (kind == "core")
      p.kind = Policy::Core;
    else if (kind == "slot")
      p.kind = Policy::Slot;
    else if (kind == "socket")
      p.kind = Policy::Socket;
    else if (kind == "node")
      p.kind = Policy::Node;
    else
      bad_policy(text);
    return p;
  }
  if (parts.size() == 3 && kind == "ppr" && (parts[2] == "node" || parts[2] == "socket")) {
    p.kind = parts[2] == "node" ? Policy::PprNode : Policy::PprSocket;
    p.per = positive(parts[1], text);
    return p;
  }
  bad_policy(text);
}

[[noreturn]] void not_enough_slots(int ranks, const Machine& m, std::string_view policy) {
  throw Error(
      fmt::format("--mapping 'ompi:{}': {} ranks but the hosts have {} slots ({} nodes); pass "
                  "--oversubscribe to place more (as mpirun --oversubscribe)",
                  policy, ranks, m.total_slots(), m.nodes().count));
}

// rmaps_rr_mappers.c orte_rmaps_rr_byslot: fill each node's slots, then
// spread what is left evenly, the first nodes taking one more.
void map_by_slot(Procs& procs, int ranks, const Machine& m) {
  int mapped = 0;
  const int nodes = m.nodes().count;
  for (int n = 0; n < nodes && mapped < ranks; ++n) {
    for (int i = 0; i < m.host(n).slots && mapped < ranks; ++i, ++mapped) procs[n].push_back(Proc{});
  }
  if (mapped == ranks) return;
  int extra = (ranks - mapped) / nodes;
  int extra_nodes = (ranks - mapped) - extra * nodes;
  for (int n = 0; n < nodes && mapped < ranks; ++n) {
    const int take = extra + (n < extra_nodes ? 1 : 0);
    for (int i = 0; i < take && mapped < ranks; ++i, ++mapped) procs[n].push_back(Proc{});
  }
}

// rmaps_rr_mappers.c orte_rmaps_rr_bynode: an even share per node, the first
// nodes taking the remainder, capped by free slots unless oversubscribed; then
// one more per node in turn until all are placed.
void map_by_node(Procs& procs, int ranks, const Machine& m) {
  const int count = m.nodes().count;
  const bool oversubscribed = m.total_slots() < ranks;
  int mapped = 0, nodes = count;
  do {
    int average = std::max(1, (ranks - mapped) / nodes);
    const double balance = static_cast<double>((ranks - mapped) - average * nodes) / nodes;
    int extra = static_cast<int>(balance);
    int extra_nodes = 0;
    bool add_one = false;
    if (balance - extra > 0) {
      extra_nodes = (ranks - mapped) - (average + extra) * nodes;
      ++extra;
      add_one = true;
    }
    nodes = 0;
    for (int n = 0; n < count; ++n) {
      const int free = m.host(n).slots - static_cast<int>(procs[n].size());
      if (!oversubscribed && free <= 0) continue;
      if (add_one) {
        if (extra_nodes == 0) {
          --extra;
          add_one = false;
        } else {
          --extra_nodes;
        }
      }
      int take = average + extra;
      if (!oversubscribed && free < take) take = free;
      ++nodes;
      for (int i = 0; i < take && mapped < ranks; ++i, ++mapped) procs[n].push_back(Proc{});
      if (mapped == ranks) break;
    }
  } while (mapped < ranks && nodes > 0);
  while (mapped < ranks) {
    for (int n = 0; n < count && mapped < ranks; ++n, ++mapped) procs[n].push_back(Proc{});
  }
}

// rmaps_rr_mappers.c orte_rmaps_rr_byobj (no span): fill each node's slots,
// dealing processes round-robin over its objects; when every slot is taken,
// one more per node per pass, starting after its last object.
void map_by_object(Procs& procs, int ranks, const Machine& m, Object target, const Topology& topo) {
  const int objects = topo.count(target);
  int mapped = 0;
  bool second_pass = false;
  while (mapped < ranks) {
    for (int n = 0; n < m.nodes().count && mapped < ranks; ++n) {
      int take = m.host(n).slots - static_cast<int>(procs[n].size());
      int start = 0;
      if (take < 1) {
        if (!second_pass) continue;
        take = 1;
        start = static_cast<int>(procs[n].size()) % objects;
      }
      for (int placed = 0; placed < take && mapped < ranks;) {
        for (int i = 0; i < objects && placed < take && mapped < ranks; ++i, ++placed, ++mapped) {
          procs[n].push_back(Proc{target, (i + start) % objects});
        }
      }
    }
    second_pass = true;
  }
}

// rmaps_ppr.c: N processes per node, or per socket of each node, node after node.
void map_ppr(Procs& procs, int ranks, const Machine& m, const Policy& p, const Topology& topo, std::string_view policy,
             bool oversubscribe) {
  int mapped = 0;
  for (int n = 0; n < m.nodes().count && mapped < ranks; ++n) {
    if (p.kind == Policy::PprNode) {
      for (int i = 0; i < p.per && mapped < ranks; ++i, ++mapped) procs[n].push_back(Proc{});
    } else {
      for (int s = 0; s < topo.sockets; ++s) {
        for (int i = 0; i < p.per && mapped < ranks; ++i, ++mapped) procs[n].push_back(Proc{Object::Socket, s});
      }
    }
    if (static_cast<int>(procs[n].size()) > m.host(n).slots && !oversubscribe) {
      throw Error(
          fmt::format("--mapping 'ompi:{}': puts {} ranks on {}, which has {} slots; pass --oversubscribe "
                      "(as mpirun --oversubscribe)",
                      policy, procs[n].size(), m.host(n).name, m.host(n).slots));
    }
  }
  if (mapped < ranks) {
    const int per_node = p.kind == Policy::PprNode ? p.per : p.per * topo.sockets;
    throw Error(
        fmt::format("--mapping 'ompi:{}': places at most {} ranks ({} per node on {} nodes), the workload has {}",
                    policy, per_node * m.nodes().count, per_node, m.nodes().count, ranks));
  }
}

// rmaps_base_ranking.c: by slot (mapping order, node after node), by node
// (one per node in turn), or by object (per node, one per object in turn).
void rank(Procs& procs, Object by, bool by_slot, const Topology& topo) {
  int next = 0;
  if (by_slot) {
    for (auto& node : procs)
      for (auto& p : node) p.rank = next++;
    return;
  }
  if (by == Object::Node) {
    std::vector<std::size_t> done(procs.size(), 0);
    bool any = true;
    while (any) {
      any = false;
      for (std::size_t n = 0; n < procs.size(); ++n) {
        if (done[n] < procs[n].size()) {
          procs[n][done[n]++].rank = next++;
          any = true;
        }
      }
    }
    return;
  }
  for (auto& node : procs) {
    std::size_t ranked = 0;
    while (ranked < node.size()) {
      for (int o = 0; o < topo.count(by) && ranked < node.size(); ++o) {
        for (auto& p : node) {
          if (p.rank < 0 && topo.intersects(by, o, p)) {
            p.rank = next++;
            ++ranked;
            break;
          }
        }
      }
    }
  }
}

// rmaps_base_binding.c. In place when the binding is the mapped object (a
// full object passes the process to the next cousin with room, then the
// previous); otherwise downward, to the least used object under the locale,
// `cpus` cores from there. Overloading an object is an error when the
// binding was asked for (:PE), else Open MPI quietly binds nothing.
// Returns false when nothing is bound.
bool bind(Procs& procs, Object to, bool in_place, int cpus, bool asked, const Topology& topo, std::string_view policy) {
  const int objects = topo.count(to);
  for (auto& node : procs) {
    std::vector<int> bound(static_cast<std::size_t>(objects), 0);
    auto room = [&](int o) { return bound[static_cast<std::size_t>(o)] < topo.cpus(to); };
    for (auto& p : node) {
      int target = -1;
      if (in_place) {
        target = p.index;
        for (int o = p.index + 1; !room(target) && o < objects; ++o)
          if (room(o)) target = o;
        for (int o = p.index - 1; !room(target) && o >= 0; --o)
          if (room(o)) target = o;
        if (!room(target)) target = -1;
      } else {
        int least = -1;
        for (int o = 0; o < objects; ++o) {
          if (!topo.intersects(to, o, p)) continue;
          if (least < 0 || bound[static_cast<std::size_t>(o)] < bound[static_cast<std::size_t>(least)]) least = o;
        }
        target = least;
        for (int o = least; o < least + std::max(cpus, 1); ++o) {
          if (o >= objects || !room(o)) target = -1;
        }
      }
      if (target < 0) {
        if (asked) {
          throw Error(
              fmt::format("--mapping 'ompi:{}': binding {} cores per rank overloads a node's cores (mpirun "
                          "would refuse); give the hosts fewer slots (--hosts FILE with 'host slots=N')",
                          policy, std::max(cpus, 1)));
        }
        return false;
      }
      for (int o = target; o < target + std::max(cpus, 1); ++o) ++bound[static_cast<std::size_t>(o)];
      p.bound = to;
      p.bound_index = target;
    }
  }
  return true;
}

}  // namespace

Mapping ompi_mapping(std::string_view policy_text, int ranks, const Machine& m, bool oversubscribe) {
  const Policy policy = parse_policy(policy_text);
  const NodeArchitecture& arch = m.nodes();
  const Topology topo{arch.sockets, arch.cores_per_socket};
  const bool given = policy.kind != Policy::Default;
  if (policy.kind == Policy::Core && policy.pe > 1) {
    throw Error(
        fmt::format("--mapping 'ompi:{}': Open MPI refuses to map by core with several cores per rank; map "
                    "by socket (ompi:socket:PE={})",
                    policy_text, policy.pe));
  }
  if (policy.pe > arch.cores_per_socket && policy.kind != Policy::Slot && policy.kind != Policy::Node &&
      policy.kind != Policy::PprNode) {
    throw Error(fmt::format("--mapping 'ompi:{}': {} cores per rank but a socket has {}", policy_text, policy.pe,
                            arch.cores_per_socket));
  }
  const bool ppr = policy.kind == Policy::PprNode || policy.kind == Policy::PprSocket;
  if (!ppr && ranks > m.total_slots() && !oversubscribe) not_enough_slots(ranks, m, policy_text);

  // rmaps_base_map_job.c: without --map-by, by core for 2 ranks or fewer
  // (unless :PE asks for several cores), else by NUMA domain (a socket here).
  Procs procs(static_cast<std::size_t>(arch.count));
  Object mapped_by = Object::Node;
  switch (policy.kind) {
    case Policy::Default:
      mapped_by = ranks <= 2 && policy.pe == 0 ? Object::Core : Object::Socket;
      map_by_object(procs, ranks, m, mapped_by, topo);
      break;
    case Policy::Core:
    case Policy::Socket:
      mapped_by = policy.kind == Policy::Core ? Object::Core : Object::Socket;
      map_by_object(procs, ranks, m, mapped_by, topo);
      break;
    case Policy::Slot:
      map_by_slot(procs, ranks, m);
      break;
    case Policy::Node:
      map_by_node(procs, ranks, m);
      break;
    case Policy::PprNode:
    case Policy::PprSocket:
      map_ppr(procs, ranks, m, policy, topo, policy_text, oversubscribe);
      break;
  }
  // rmaps_base_frame.c orte_rmaps_base_set_ranking_policy: rank by the
  // object mapped by when --map-by named one, by node for --map-by node,
  // else by slot.
  const bool by_slot = !given || policy.kind == Policy::Slot || ppr;
  rank(procs, policy.kind == Policy::Node ? Object::Node : mapped_by, by_slot, topo);

  // rmaps_base_map_job.c: :PE binds to cores; a mapping by core or socket
  // binds to it; otherwise core for 2 ranks or fewer, else NUMA (a socket).
  // rmaps_base_binding.c binds in place when the binding is the mapping
  // policy (ppr's mapper maps by socket but binds to NUMA: downward).
  Object bind_to = ranks <= 2 ? Object::Core : Object::Socket;
  if (policy.pe > 0) {
    bind_to = Object::Core;
  } else if (!ppr && mapped_by != Object::Node) {
    bind_to = mapped_by;
  }
  const bool in_place = !ppr && policy.pe == 0 && bind_to == mapped_by;
  const bool bound = bind(procs, bind_to, in_place, policy.pe, policy.pe > 0, topo, policy_text);

  // contend runs a rank on one core: its first bound core, or the next free
  // core of its socket (bound to a socket) or node (not bound), in rank order.
  std::vector<Placement> placements(static_cast<std::size_t>(ranks));
  for (std::size_t n = 0; n < procs.size(); ++n) {
    std::vector<Proc> by_rank = procs[n];
    std::sort(by_rank.begin(), by_rank.end(), [](const Proc& a, const Proc& b) { return a.rank < b.rank; });
    std::vector<int> used(static_cast<std::size_t>(topo.sockets), 0);
    int node_used = 0;
    for (const auto& p : by_rank) {
      Placement& out = placements[static_cast<std::size_t>(p.rank)];
      out.node = static_cast<int>(n);
      if (bound && p.bound == Object::Core) {
        out.socket = p.bound_index / topo.cores_per_socket;
        out.core = p.bound_index % topo.cores_per_socket;
      } else if (bound && p.bound == Object::Socket) {
        out.socket = p.bound_index;
        out.core = used[static_cast<std::size_t>(p.bound_index)]++ % topo.cores_per_socket;
      } else {
        const int core = node_used++ % arch.cores_per_node();
        out.socket = core / topo.cores_per_socket;
        out.core = core % topo.cores_per_socket;
      }
    }
  }
  Mapping mapping(std::move(placements), std::max(policy.pe, 1));
  check_cores_not_shared(mapping, oversubscribe, "--mapping 'ompi:" + std::string(policy_text) + "'");
  return mapping;
}

}  // namespace contend
