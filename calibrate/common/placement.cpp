#include "calibrate/common/placement.hpp"

#include <hwloc.h>
#include <mpi.h>

#include <stdexcept>

#include "calibrate/common/mpi_support.hpp"

namespace contend::calibrate {
namespace {

// The package holding every CPU of `set`, or -1 when the set spans several.
int package_of(hwloc_topology_t topology, hwloc_const_cpuset_t set) {
  int found = -1;
  const int packages = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PACKAGE);
  for (int i = 0; i < packages; ++i) {
    hwloc_obj_t package = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PACKAGE, static_cast<unsigned>(i));
    if (!hwloc_bitmap_intersects(package->cpuset, set)) continue;
    if (found >= 0) return -1;
    found = static_cast<int>(package->logical_index);
  }
  return packages == 0 ? 0 : found;  // a machine without package objects has one socket
}

std::string describe(const std::vector<RankPlace>& places, std::size_t rank) {
  const auto& p = places[rank];
  return "rank " + std::to_string(rank) + " on " + p.host + " package " +
         (p.package < 0 ? std::string("(unbound: several)") : std::to_string(p.package));
}

}  // namespace

RankPlace this_process_place() {
  RankPlace place;
  place.host = mpi_support::this_host();

  hwloc_topology_t topology;
  if (hwloc_topology_init(&topology) != 0 || hwloc_topology_load(topology) != 0) {
    throw std::runtime_error("hwloc cannot read this machine's topology");
  }
  hwloc_cpuset_t set = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topology, set, HWLOC_CPUBIND_PROCESS) != 0) {
    hwloc_bitmap_copy(set, hwloc_topology_get_allowed_cpuset(topology));
  }
  place.package = package_of(topology, set);
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topology);
  return place;
}

std::vector<RankPlace> gather_places(const RankPlace& mine) {
  const auto hosts = mpi_support::allgather_strings(mine.host);
  std::vector<int> packages(hosts.size());
  MPI_Allgather(&mine.package, 1, MPI_INT, packages.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<RankPlace> places;
  for (std::size_t r = 0; r < hosts.size(); ++r) places.push_back(RankPlace{hosts[r], packages[r]});
  return places;
}

std::optional<std::string> check_level(const std::string& level, const std::vector<RankPlace>& places) {
  const std::size_t half = places.size() / 2;
  auto same_side = [&](std::size_t from, std::size_t to, auto&& same) -> std::optional<std::string> {
    for (std::size_t r = from + 1; r < to; ++r) {
      if (!same(places[from], places[r])) return describe(places, from) + " but " + describe(places, r);
    }
    return std::nullopt;
  };
  auto same_host = [](const RankPlace& a, const RankPlace& b) { return a.host == b.host; };
  auto same_socket = [](const RankPlace& a, const RankPlace& b) {
    return a.host == b.host && a.package >= 0 && a.package == b.package;
  };
  const std::string why = "level " + level + " needs ";
  if (level == "intra_socket") {
    if (auto e = same_side(0, places.size(), same_socket)) {
      return why + "every rank on one socket (bind them, e.g. --bind-to core, and map them onto one socket): " + *e;
    }
    return std::nullopt;
  }
  if (level == "inter_socket" || level == "inter_node") {
    const bool node = level == "inter_node";
    const auto& same = node ? +same_host : +same_socket;
    const char* unit = node ? "node" : "socket";
    if (auto e = same_side(0, half, same))
      return why + "ranks 0.." + std::to_string(half - 1) + " on one " + unit + ": " + *e;
    if (auto e = same_side(half, places.size(), same)) {
      return why + "ranks " + std::to_string(half) + ".." + std::to_string(places.size() - 1) + " on one " + unit +
             ": " + *e;
    }
    if (same(places[0], places[half])) {
      return why + "the two halves on different " + unit + "s: " + describe(places, 0) + " and " +
             describe(places, half);
    }
    if (!node && places[0].host != places[half].host) {
      return why + "both sockets in one node: " + describe(places, 0) + " and " + describe(places, half);
    }
    return std::nullopt;
  }
  return "unknown level '" + level + "'; expected intra_socket, inter_socket or inter_node";
}

}  // namespace contend::calibrate
