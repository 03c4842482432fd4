#include "sim/search/starting_points.hpp"

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/core/error.hpp"
#include "sim/search/socket_assignment.hpp"

namespace contend {

bool same_sockets(const Mapping& a, const Mapping& b) {
  if (a.rank_count() != b.rank_count()) return false;
  for (int r = 0; r < a.rank_count(); ++r) {
    if (a[r].node != b[r].node || a[r].socket != b[r].socket) return false;
  }
  return true;
}

std::vector<NamedMapping> launcher_mappings(int ranks, const Machine& machine) {
  static const std::vector<std::string> specs = {"block",     "ompi:default", "cyclic",       "socket",
                                                 "ompi:node", "slurm:block",  "slurm:cyclic", "slurm:block:block"};
  std::vector<NamedMapping> out;
  for (const auto& spec : specs) {
    Mapping m;
    try {
      m = make_mapping(spec, ranks, machine, false);
    } catch (const Error&) {
      continue;  // does not fit one rank per core on this machine
    }
    auto same = std::find_if(out.begin(), out.end(), [&](const NamedMapping& n) { return same_sockets(n.mapping, m); });
    if (same != out.end()) {
      same->name += " = " + spec;
    } else {
      out.push_back({spec, std::move(m)});
    }
  }
  return out;
}

namespace {

// Bytes from rank v to the members of each part (parts indexed by `part_of`).
double connection(const CommGraph& g, int v, int part, const std::vector<int>& part_of) {
  double sum = 0;
  for (const auto& n : g.neighbours(v))
    if (part_of[static_cast<std::size_t>(n.rank)] == part) sum += n.bytes;
  return sum;
}

// Moves ranks from parts above their size to parts below it, each time the
// rank that loses least connection (ties: lowest rank, lowest part).
void repair(const CommGraph& g, const std::vector<int>& members, const std::vector<int>& sizes,
            std::vector<int>& part_of) {
  std::vector<int> count(sizes.size(), 0);
  for (int v : members) ++count[static_cast<std::size_t>(part_of[static_cast<std::size_t>(v)])];
  while (true) {
    int best_v = -1, best_q = -1;
    double best_gain = 0;
    for (int v : members) {
      const int p = part_of[static_cast<std::size_t>(v)];
      if (count[static_cast<std::size_t>(p)] <= sizes[static_cast<std::size_t>(p)]) continue;
      const double here = connection(g, v, p, part_of);
      for (std::size_t q = 0; q < sizes.size(); ++q) {
        if (count[q] >= sizes[q]) continue;
        const double gain = connection(g, v, static_cast<int>(q), part_of) - here;
        if (best_v < 0 || gain > best_gain) {
          best_v = v;
          best_q = static_cast<int>(q);
          best_gain = gain;
        }
      }
    }
    if (best_v < 0) return;
    --count[static_cast<std::size_t>(part_of[static_cast<std::size_t>(best_v)])];
    ++count[static_cast<std::size_t>(best_q)];
    part_of[static_cast<std::size_t>(best_v)] = best_q;
  }
}

// METIS on the subgraph of `members`: part_of[v] in [0, sizes.size()) with
// exactly sizes[p] members each.
void partition(const CommGraph& g, const std::vector<int>& members, const std::vector<int>& sizes, std::uint64_t seed,
               std::vector<int>& part_of) {
  std::vector<int> active;
  for (std::size_t p = 0; p < sizes.size(); ++p)
    if (sizes[p] > 0) active.push_back(static_cast<int>(p));
  std::vector<idx_t> local(static_cast<std::size_t>(g.ranks()), -1);
  for (std::size_t i = 0; i < members.size(); ++i) local[static_cast<std::size_t>(members[i])] = static_cast<idx_t>(i);
  std::vector<idx_t> xadj{0}, adjncy, adjwgt;
  double total = 0;
  for (int v : members)
    for (const auto& n : g.neighbours(v))
      if (local[static_cast<std::size_t>(n.rank)] >= 0) total += n.bytes;
  const double scale = total > 0 ? 1e8 / total : 0;
  for (int v : members) {
    for (const auto& n : g.neighbours(v)) {
      const idx_t u = local[static_cast<std::size_t>(n.rank)];
      if (u < 0) continue;
      adjncy.push_back(u);
      adjwgt.push_back(std::max<idx_t>(1, static_cast<idx_t>(std::llround(n.bytes * scale))));
    }
    xadj.push_back(static_cast<idx_t>(adjncy.size()));
  }
  std::vector<idx_t> parts(members.size(), 0);
  if (active.size() > 1 && !adjncy.empty()) {
    idx_t nvtxs = static_cast<idx_t>(members.size()), ncon = 1, nparts = static_cast<idx_t>(active.size()), cut = 0;
    std::vector<real_t> targets;
    for (int p : active)
      targets.push_back(static_cast<real_t>(sizes[static_cast<std::size_t>(p)]) / static_cast<real_t>(members.size()));
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = static_cast<idx_t>(seed % 1000003);
    options[METIS_OPTION_UFACTOR] = 1;
    options[METIS_OPTION_NUMBERING] = 0;
    auto run = nparts <= 8 ? METIS_PartGraphRecursive : METIS_PartGraphKway;
    const int status = run(&nvtxs, &ncon, xadj.data(), adjncy.data(), nullptr, nullptr, adjwgt.data(), &nparts,
                           targets.data(), nullptr, options, &cut, parts.data());
    if (status != METIS_OK)
      throw Error("METIS failed to partition the communication graph (status " + std::to_string(status) + ")");
  } else {
    // One part, or nothing to cut: in rank order.
    std::size_t i = 0;
    for (std::size_t a = 0; a < active.size(); ++a)
      for (int k = 0; k < sizes[static_cast<std::size_t>(active[a])]; ++k) parts[i++] = static_cast<idx_t>(a);
  }
  for (std::size_t i = 0; i < members.size(); ++i)
    part_of[static_cast<std::size_t>(members[i])] = active[static_cast<std::size_t>(parts[i])];
  repair(g, members, sizes, part_of);
}

std::vector<int> node_totals(const std::vector<int>& per_socket, int sockets) {
  std::vector<int> out(per_socket.size() / static_cast<std::size_t>(sockets), 0);
  for (std::size_t s = 0; s < per_socket.size(); ++s) out[s / static_cast<std::size_t>(sockets)] += per_socket[s];
  return out;
}

}  // namespace

Mapping partitioned_mapping(const CommGraph& g, const NodeArchitecture& nodes, bool spread, std::uint64_t seed) {
  const auto per_socket = socket_counts(g.ranks(), nodes, spread);
  std::vector<int> all(static_cast<std::size_t>(g.ranks()));
  std::iota(all.begin(), all.end(), 0);
  std::vector<int> node_of(all.size(), 0);
  partition(g, all, node_totals(per_socket, nodes.sockets), seed, node_of);
  std::vector<int> socket_of(all.size(), 0);
  for (int n = 0; n < nodes.count; ++n) {
    std::vector<int> members;
    for (int r : all)
      if (node_of[static_cast<std::size_t>(r)] == n) members.push_back(r);
    if (members.empty()) continue;
    const std::vector<int> sizes(per_socket.begin() + n * nodes.sockets, per_socket.begin() + (n + 1) * nodes.sockets);
    std::vector<int> within(all.size(), -1);
    partition(g, members, sizes, seed, within);
    for (int r : members)
      socket_of[static_cast<std::size_t>(r)] = n * nodes.sockets + within[static_cast<std::size_t>(r)];
  }
  return SocketAssignment(nodes, std::move(socket_of)).to_mapping();
}

namespace {

// Grows a group of `size` unassigned ranks: the heaviest one first, then
// always the one with the most bytes to the group (ties: heavier, lower).
std::vector<int> grow_group(const CommGraph& g, int size, std::vector<bool>& assigned) {
  const auto n = static_cast<std::size_t>(g.ranks());
  std::vector<double> gain(n, 0.0);
  std::vector<int> group;
  while (static_cast<int>(group.size()) < size) {
    int pick = -1;
    for (std::size_t v = 0; v < n; ++v) {
      if (assigned[v]) continue;
      if (pick < 0 || gain[v] > gain[static_cast<std::size_t>(pick)] ||
          (gain[v] == gain[static_cast<std::size_t>(pick)] && g.volume(static_cast<int>(v)) > g.volume(pick))) {
        pick = static_cast<int>(v);
      }
    }
    assigned[static_cast<std::size_t>(pick)] = true;
    group.push_back(pick);
    for (const auto& nb : g.neighbours(pick)) gain[static_cast<std::size_t>(nb.rank)] += nb.bytes;
  }
  return group;
}

}  // namespace

Mapping grouped_mapping(const CommGraph& g, const NodeArchitecture& nodes, bool spread) {
  const auto per_socket = socket_counts(g.ranks(), nodes, spread);
  // Level 1 (TreeMatch's leaves): one group per socket, by affinity.
  std::vector<bool> assigned(static_cast<std::size_t>(g.ranks()), false);
  std::vector<std::vector<int>> groups;
  for (int size : per_socket) groups.push_back(grow_group(g, size, assigned));
  std::vector<int> group_of(static_cast<std::size_t>(g.ranks()), -1);
  for (std::size_t k = 0; k < groups.size(); ++k)
    for (int r : groups[k]) group_of[static_cast<std::size_t>(r)] = static_cast<int>(k);
  // Level 2: the groups into nodes, each node's sockets taking groups of
  // their size with the most bytes to the node's groups so far.
  std::vector<bool> used(groups.size(), false);
  std::vector<int> socket_of(static_cast<std::size_t>(g.ranks()), 0);
  std::vector<int> node_of_group(groups.size(), -1);
  for (int n = 0; n < nodes.count; ++n) {
    for (int s = 0; s < nodes.sockets; ++s) {
      const int slot = n * nodes.sockets + s;
      const int size = per_socket[static_cast<std::size_t>(slot)];
      int pick = -1;
      double pick_affinity = -1, pick_volume = -1;
      for (std::size_t k = 0; k < groups.size(); ++k) {
        if (used[k] || static_cast<int>(groups[k].size()) != size) continue;
        double affinity = 0, volume = 0;
        for (int r : groups[k]) {
          volume += g.volume(r);
          for (const auto& nb : g.neighbours(r)) {
            const int other = group_of[static_cast<std::size_t>(nb.rank)];
            if (other >= 0 && node_of_group[static_cast<std::size_t>(other)] == n) affinity += nb.bytes;
          }
        }
        if (pick < 0 || affinity > pick_affinity || (affinity == pick_affinity && volume > pick_volume)) {
          pick = static_cast<int>(k);
          pick_affinity = affinity;
          pick_volume = volume;
        }
      }
      used[static_cast<std::size_t>(pick)] = true;
      node_of_group[static_cast<std::size_t>(pick)] = n;
      for (int r : groups[static_cast<std::size_t>(pick)]) socket_of[static_cast<std::size_t>(r)] = slot;
    }
  }
  return SocketAssignment(nodes, std::move(socket_of)).to_mapping();
}

}  // namespace contend
