#include "traces/generate/halo_mesh.hpp"

#include <fmt/format.h>
#include <metis.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace contend {
namespace {

struct Grid {
  int nx = 0, ny = 0, nz = 0;
  long long index(int i, int j, int k) const { return (static_cast<long long>(k) * ny + j) * nx + i; }
  long long size() const { return static_cast<long long>(nx) * ny * nz; }
};

Grid choose_grid(const HaloMeshOptions& o) {
  const double active = o.total_cells > 0 ? static_cast<double>(o.total_cells)
                                          : static_cast<double>(o.parts) * static_cast<double>(o.cells_per_part);
  const double total = active / std::max(0.05, 1.0 - o.inactive_fraction) / 0.97;  // 3% pinch-outs
  // nx = ny = aspect * nz, nx * ny * nz = total
  const double nz = std::cbrt(total / (o.aspect * o.aspect));
  Grid g;
  g.nz = std::max(2, static_cast<int>(std::lround(nz)));
  const double side = std::sqrt(total / g.nz);
  g.nx = std::max(2, static_cast<int>(std::lround(side)));
  g.ny = std::max(2, static_cast<int>(std::lround(total / g.nz / g.nx)));
  return g;
}

// Columns inside an irregular outline: a sum of random Gaussian bumps,
// thresholded at the quantile that keeps the requested share of columns.
std::vector<char> outline(const Grid& g, const HaloMeshOptions& o, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  struct Bump {
    double x, y, r, a;
  };
  std::vector<Bump> bumps(12);
  for (auto& b : bumps) b = Bump{unit(rng), unit(rng), 0.15 + 0.3 * unit(rng), 0.5 + unit(rng)};
  std::vector<double> field(static_cast<std::size_t>(g.nx) * g.ny);
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const double x = (i + 0.5) / g.nx, y = (j + 0.5) / g.ny;
      double f = 0;
      for (const auto& b : bumps) f += b.a * std::exp(-((x - b.x) * (x - b.x) + (y - b.y) * (y - b.y)) / (b.r * b.r));
      field[static_cast<std::size_t>(j) * g.nx + i] = f;
    }
  auto sorted = field;
  const auto cut =
      static_cast<std::size_t>(std::clamp(o.inactive_fraction, 0.0, 0.95) * static_cast<double>(sorted.size()));
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(cut), sorted.end());
  const double threshold = sorted[cut];
  std::vector<char> inside(field.size());
  for (std::size_t c = 0; c < field.size(); ++c) inside[c] = field[c] >= threshold;
  return inside;
}

struct Graph {
  std::vector<idx_t> xadj, adjncy, adjwgt;
};

}  // namespace

ManyPairPattern generate_halo_pattern(const HaloMeshOptions& o, HaloMeshStats* stats) {
  if (o.parts < 1) throw Error("--ranks: expected at least 1 part");
  if (o.parts > limits::kMaxRanks) {
    throw LimitError("--ranks: " + limits::exceeds(std::to_string(o.parts) + " parts", limits::kMaxRanksText));
  }
  if (o.cells_per_part < 1) throw Error("--cells-per-rank: expected a positive number");
  if (o.overlap < 1 || o.overlap > 16) throw Error("--overlap: expected 1..16 ghost layers");
  if (o.bytes_per_cell < 1) throw Error("--bytes-per-cell: expected a positive number");
  std::mt19937_64 rng(o.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);

  // The grid's cells (active or not) are what the generator allocates:
  // bounded before any of it is (about 250 bytes per cell with METIS).
  const double requested = o.total_cells > 0 ? static_cast<double>(o.total_cells)
                                             : static_cast<double>(o.parts) * static_cast<double>(o.cells_per_part);
  if (requested > static_cast<double>(limits::kMaxMeshCells)) {
    throw LimitError(
        limits::exceeds(fmt::format("a mesh of {:.0f} active cells", requested), limits::kMaxMeshCellsText));
  }
  const Grid g = choose_grid(o);
  if (g.size() > 2 * limits::kMaxMeshCells) {
    throw LimitError(
        limits::exceeds(fmt::format("the mesh's grid of {} cells (with --inactive {})", g.size(), o.inactive_fraction),
                        fmt::format("{} grid cells", 2 * limits::kMaxMeshCells)));
  }
  const auto columns_inside = outline(g, o, rng);

  // Active cells (3% pinch-outs inside the outline) and their permeability:
  // one log-normal mean per layer plus cell noise.
  std::vector<long long> id(static_cast<std::size_t>(g.size()), -1);
  std::vector<double> log_perm;
  std::vector<double> layer_mean(static_cast<std::size_t>(g.nz));
  for (auto& m : layer_mean) m = o.heterogeneity * normal(rng);
  // Channelised layers: permeability is higher along x or along y, at random per layer.
  std::vector<char> layer_along_x(static_cast<std::size_t>(g.nz));
  for (auto& a : layer_along_x) a = unit(rng) < 0.5;
  long long active = 0;
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const bool keep = columns_inside[static_cast<std::size_t>(j) * g.nx + i] && unit(rng) >= 0.03;
        const double lp = layer_mean[static_cast<std::size_t>(k)] + 0.5 * o.heterogeneity * normal(rng);
        if (!keep) continue;
        id[static_cast<std::size_t>(g.index(i, j, k))] = active++;
        log_perm.push_back(lp);
      }
  if (active < o.parts) {
    throw Error("the mesh has " + std::to_string(active) + " active cells, fewer than the " + std::to_string(o.parts) +
                " parts; raise --cells-per-rank");
  }

  // Faults: planes x = i_f with a throw t, across which a cell meets the two
  // cells t layers away instead of its lateral neighbour.
  std::vector<int> throw_at(static_cast<std::size_t>(g.nx), 0);
  for (int f = 0; f < o.faults && g.nx > 2; ++f) {
    const int at = 1 + static_cast<int>(unit(rng) * (g.nx - 2));
    throw_at[static_cast<std::size_t>(at)] = 1 + static_cast<int>(unit(rng) * 3);
  }

  // Connections with transmissibility-based weights (harmonic mean of the
  // permeabilities, scaled by kv/kh vertically), as integer METIS weights.
  std::vector<std::vector<std::pair<idx_t, idx_t>>> adj(static_cast<std::size_t>(active));
  long long connections = 0;
  auto connect = [&](long long a, long long b, double factor) {
    if (a < 0 || b < 0) return;
    const double ka = std::exp(log_perm[static_cast<std::size_t>(a)]);
    const double kb = std::exp(log_perm[static_cast<std::size_t>(b)]);
    const double t = factor * 2.0 * ka * kb / (ka + kb);
    const auto w = static_cast<idx_t>(std::clamp(std::lround(1000.0 * t), 1L, 100000000L));
    adj[static_cast<std::size_t>(a)].emplace_back(static_cast<idx_t>(b), w);
    adj[static_cast<std::size_t>(b)].emplace_back(static_cast<idx_t>(a), w);
    ++connections;
  };
  auto cell = [&](int i, int j, int k) -> long long {
    if (i < 0 || j < 0 || k < 0 || i >= g.nx || j >= g.ny || k >= g.nz) return -1;
    return id[static_cast<std::size_t>(g.index(i, j, k))];
  };
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const long long c = cell(i, j, k);
        if (c < 0) continue;
        const bool along_x = layer_along_x[static_cast<std::size_t>(k)];
        const double fx = along_x ? 1.0 : 1.0 / o.anisotropy;
        const double fy = along_x ? 1.0 / o.anisotropy : 1.0;
        if (i + 1 < g.nx) {
          const int t = throw_at[static_cast<std::size_t>(i + 1)];
          if (t == 0) {
            connect(c, cell(i + 1, j, k), fx);
          } else {  // partial overlaps with two displaced cells
            connect(c, cell(i + 1, j, k + t), 0.5 * fx);
            connect(c, cell(i + 1, j, k + t - 1), 0.5 * fx);
          }
        }
        connect(c, cell(i, j + 1, k), fy);
        connect(c, cell(i, j, k + 1), o.vertical_ratio);
      }

  Graph graph;
  graph.xadj.reserve(static_cast<std::size_t>(active) + 1);
  graph.xadj.push_back(0);
  for (auto& row : adj) {
    std::sort(row.begin(), row.end());
    for (const auto& [b, w] : row) {
      graph.adjncy.push_back(b);
      graph.adjwgt.push_back(w);
    }
    graph.xadj.push_back(static_cast<idx_t>(graph.adjncy.size()));
    std::vector<std::pair<idx_t, idx_t>>().swap(row);
  }

  std::vector<idx_t> part(static_cast<std::size_t>(active), 0);
  idx_t edge_cut = 0;
  if (o.parts > 1) {
    idx_t nvtxs = static_cast<idx_t>(active), ncon = 1, nparts = o.parts;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = static_cast<idx_t>(o.seed % 1000003);
    options[METIS_OPTION_NUMBERING] = 0;
    const int status =
        METIS_PartGraphKway(&nvtxs, &ncon, graph.xadj.data(), graph.adjncy.data(), nullptr, nullptr,
                            graph.adjwgt.data(), &nparts, nullptr, nullptr, options, &edge_cut, part.data());
    if (status != METIS_OK) throw Error("METIS failed to partition the mesh (status " + std::to_string(status) + ")");
  }

  // Halo: for every part q, the cells of other parts within `overlap`
  // connections of q's cells are q's ghosts; their owners send them to q.
  std::vector<std::vector<long long>> cells_of(static_cast<std::size_t>(o.parts));
  for (long long c = 0; c < active; ++c)
    cells_of[static_cast<std::size_t>(part[static_cast<std::size_t>(c)])].push_back(c);
  std::vector<int> ghost_mark(static_cast<std::size_t>(active), -1);
  std::vector<int> visit_mark(static_cast<std::size_t>(active), -1);
  std::vector<long long> frontier, next;
  ManyPairPattern pattern;
  pattern.ranks = o.parts;
  std::vector<int> messages_per_rank(static_cast<std::size_t>(o.parts), 0);
  int visit_stamp = 0;
  for (int q = 0; q < o.parts; ++q) {
    std::map<int, long long> ghosts_from;  // owner -> cell count
    for (long long d : cells_of[static_cast<std::size_t>(q)]) {
      ++visit_stamp;
      frontier.assign(1, d);
      visit_mark[static_cast<std::size_t>(d)] = visit_stamp;
      for (int hop = 0; hop < o.overlap; ++hop) {
        next.clear();
        for (long long c : frontier) {
          for (idx_t e = graph.xadj[static_cast<std::size_t>(c)]; e < graph.xadj[static_cast<std::size_t>(c) + 1];
               ++e) {
            const long long n = graph.adjncy[static_cast<std::size_t>(e)];
            if (visit_mark[static_cast<std::size_t>(n)] == visit_stamp) continue;
            visit_mark[static_cast<std::size_t>(n)] = visit_stamp;
            next.push_back(n);
            const int owner = part[static_cast<std::size_t>(n)];
            if (owner != q && ghost_mark[static_cast<std::size_t>(n)] != q) {
              ghost_mark[static_cast<std::size_t>(n)] = q;
              ++ghosts_from[owner];
            }
          }
        }
        frontier.swap(next);
      }
    }
    for (const auto& [owner, count] : ghosts_from) {
      pattern.messages.push_back(
          PatternMessage{owner, q, static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(o.bytes_per_cell)});
      ++messages_per_rank[static_cast<std::size_t>(owner)];
      ++messages_per_rank[static_cast<std::size_t>(q)];
    }
  }
  std::stable_sort(pattern.messages.begin(), pattern.messages.end(),
                   [](const PatternMessage& a, const PatternMessage& b) { return a.src < b.src; });
  if (stats != nullptr) {
    stats->grid_cells = g.size();
    stats->active_cells = active;
    stats->connections = connections;
    stats->edge_cut = edge_cut;
    stats->max_messages_per_rank = *std::max_element(messages_per_rank.begin(), messages_per_rank.end());
  }
  return pattern;
}

}  // namespace contend
