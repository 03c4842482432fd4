#pragma once
// The elementary conflicts the flowcut calibration runs (Martinasso &
// Mehaut RR-5910, Sec. 5.1 and Table 2), shared by the MPI benchmark and the
// program that derives the cuts. One rank per node: rank i stands for node i,
// a flow is (source rank, destination rank).
#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace contend::calibrate {

struct ConflictRun {
  std::string_view name;
  std::vector<std::pair<int, int>> flows;
  int ranks() const {
    int n = 0;
    for (const auto& [s, d] : flows) n = std::max({n, s + 1, d + 1});
    return n;
  }
};

// Flow indices below refer to these lists.
inline const std::vector<ConflictRun>& conflict_runs() {
  static const std::vector<ConflictRun> runs = {
      {"reference", {{0, 1}}},                                // contention-free T(NC)
      {"outgo", {{1, 0}, {1, 2}}},                            // C<-X->, one conflict (odd)
      {"income", {{0, 1}, {2, 1}}},                           // C->X<-, one conflict (odd)
      {"outgo_income", {{0, 1}, {1, 2}}},                     // C->X->: 0 -> 1 enters X = 1, 1 -> 2 leaves it
      {"even_chain", {{1, 0}, {1, 2}, {3, 2}}},               // 0 <- 1 -> 2 <- 3, two conflicts
      {"include", {{1, 0}, {1, 2}, {2, 3}, {3, 4}, {5, 4}}},  // 2 -> 3 alone between two conflicts
      {"start_end", {{0, 1}, {1, 2}, {2, 3}}},                // 2 -> 3 alone at the end of 0 -> 1 -> 2 -> 3
  };
  return runs;
}

}  // namespace contend::calibrate
