#pragma once
// Realistic many-pair patterns, made the way Thune et al. got theirs: an
// irregular 3-D reservoir-like mesh partitioned with METIS into P parts, each
// part sending to each neighbour part the values of its cells that the
// neighbour holds as ghosts (halo exchange, as DUNE's copyOwnerToAll does).
//
// The mesh is a layered grid with an irregular outline (inactive columns),
// pinched-out cells, vertical faults whose throw connects cells across layers
// (non-neighbour connections, as in corner-point grids) and a heterogeneous,
// layered log-normal permeability. Partitioning weighs each connection by its
// transmissibility, as reservoir simulators do; strong heterogeneity makes
// the parts irregular and gives them many neighbours of very unequal sizes.
#include <cstdint>

#include "sim/core/pattern.hpp"

namespace contend {

struct HaloMeshOptions {
  int parts = 64;                   // P, the number of ranks
  long long cells_per_part = 400;   // mesh size = parts x this (active cells, about)...
  long long total_cells = 0;        // ...unless set: one fixed mesh, whatever the parts (as Thune's Table IV)
  double aspect = 4.0;              // horizontal extent / vertical, in cells
  double inactive_fraction = 0.25;  // share of columns outside the reservoir outline
  int faults = 6;                   // vertical faults with a throw of 1-3 layers
  double heterogeneity = 2.0;       // standard deviation of ln(permeability)
  double vertical_ratio = 0.001;    // kv / kh (shale barriers between layers)
  double anisotropy = 1000.0;       // kmax / kmin horizontally, the strong direction random per layer (channels)
  int overlap = 1;                  // ghost layers: cells within this many connections
  int bytes_per_cell = 24;          // 3 doubles per cell (pressure, two saturations)
  std::uint64_t seed = 1;
};

struct HaloMeshStats {
  long long grid_cells = 0;
  long long active_cells = 0;
  long long connections = 0;
  long long edge_cut = 0;
  int max_messages_per_rank = 0;
};

// Deterministic for given options. Throws contend::Error on bad options.
ManyPairPattern generate_halo_pattern(const HaloMeshOptions& options, HaloMeshStats* stats = nullptr);

}  // namespace contend
