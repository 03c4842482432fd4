#pragma once
// Helpers for collective simulation tests: one world of single-core nodes,
// every collective call run through coll::run_collective.
#include <string>

#include "sim/collectives/collectives.hpp"
#include "tests/harness/sim_fixture.hpp"

namespace contend::test {

// `nodes` nodes of one core each; every level 10 us latency, 1 GB/s, eager
// below 1 KiB; NICs 1 GB/s per direction on a star; cores at 1 Gflop/s.
inline std::string collective_platform(int nodes) {
  return platform_yaml(nodes, 1, 1, levels_yaml("10us", "1KiB", "1GB/s"), "{topology: star, link_bandwidth: 1e12}",
                       "{bandwidth: 1GB/s}");
}

inline constexpr double kLatency = 10e-6;
inline constexpr double kBandwidth = 1e9;
inline constexpr double kFlops = 1e9;

}  // namespace contend::test

#include <vector>

#include "sim/engine/mpi.hpp"

namespace contend::test {

// One collective per group of consecutive world ranks, all groups at once
// (each on its own sub-communicator and nodes); returns per-group message
// counts (messages whose sender is in the group).
struct GroupCase {
  int size = 0;
  coll::CollectiveCall call;
  coll::CollectiveSettings settings;
  std::uint64_t expected_messages = 0;
  std::string label;
};

inline std::vector<std::uint64_t> run_groups(const std::vector<GroupCase>& cases, Results* out = nullptr) {
  std::vector<int> group_of, first_of;
  for (std::size_t g = 0; g < cases.size(); ++g) {
    first_of.push_back(static_cast<int>(group_of.size()));
    for (int i = 0; i < cases[g].size; ++i) group_of.push_back(static_cast<int>(g));
  }
  const int ranks = static_cast<int>(group_of.size());
  ScriptWorkload w(ranks, [&](Mpi& mpi) {
    coll::Communicator world = coll::world_communicator(mpi);
    std::vector<coll::ColorKey> ck;
    for (int r = 0; r < ranks; ++r) ck.push_back({group_of[static_cast<std::size_t>(r)], r});
    const auto mine = coll::split_communicator(mpi.contexts(), world, ck);
    const GroupCase& c = cases[static_cast<std::size_t>(group_of[static_cast<std::size_t>(mpi.rank())])];
    coll::run_collective(mpi, *mine, c.call, c.settings);
  });
  const Results r = run(collective_platform(ranks), w);
  std::vector<std::uint64_t> counts(cases.size(), 0);
  for (const auto& m : r.messages) ++counts[static_cast<std::size_t>(group_of[static_cast<std::size_t>(m.src)])];
  if (out) *out = r;
  return counts;
}

}  // namespace contend::test
