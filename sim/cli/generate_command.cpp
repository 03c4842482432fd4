#include <fmt/format.h>

#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/pattern.hpp"
#include "traces/generate/halo_mesh.hpp"

namespace contend::cli {
namespace {

struct GenerateOptions {
  HaloMeshOptions mesh;
  std::string output;
};

int run_generate(const GenerateOptions& o) {
  HaloMeshStats stats;
  const ManyPairPattern pattern = generate_halo_pattern(o.mesh, &stats);
  std::uint64_t volume = 0;
  for (const auto& m : pattern.messages) volume += m.bytes;
  const std::string header = fmt::format(
      "Halo exchange of an irregular 3-D reservoir-like mesh partitioned with METIS (contend generate-pattern)\n"
      "ranks {} cells-per-rank {} overlap {} bytes-per-cell {} heterogeneity {} faults {} seed {}\n"
      "grid cells {}, active {}, connections {}, edge cut {}, messages {}, max per rank {}, volume {} B",
      o.mesh.parts, o.mesh.cells_per_part, o.mesh.overlap, o.mesh.bytes_per_cell, o.mesh.heterogeneity, o.mesh.faults,
      o.mesh.seed, stats.grid_cells, stats.active_cells, stats.connections, stats.edge_cut, pattern.messages.size(),
      stats.max_messages_per_rank, volume);
  write_file_atomically(o.output, [&](std::ostream& out) { write_pattern(out, pattern, header); });
  // With the pattern on standard output, this line goes to standard error.
  fmt::print(o.output == "-" ? stderr : stdout,
             "wrote {}: {} ranks, {} messages (max {} per rank), {:.1f} MB, mesh of {} active cells\n", o.output,
             pattern.ranks, pattern.messages.size(), stats.max_messages_per_rank, static_cast<double>(volume) / 1e6,
             stats.active_cells);
  return 0;
}

}  // namespace

Action add_generate_pattern_command(CLI::App& app) {
  auto o = std::make_shared<GenerateOptions>();
  auto* cmd = app.add_subcommand("generate-pattern",
                                 "Make a realistic many-pair pattern: METIS partition of an irregular 3-D mesh, halo "
                                 "messages between the parts");
  cmd->add_option("--ranks", o->mesh.parts, "Number of parts (MPI ranks)")->required()->check(CLI::Range(1, 1 << 24));
  add_output_option(*cmd, o->output, "Pattern file to write")->required();
  cmd->add_option("--cells-per-rank", o->mesh.cells_per_part, "Mesh cells per rank")
      ->capture_default_str()
      ->check(CLI::Range(1LL, 1LL << 30));
  cmd->add_option("--cells", o->mesh.total_cells, "Mesh size in active cells (overrides --cells-per-rank)")
      ->check(CLI::Range(1LL, 1LL << 31));
  cmd->add_option("--overlap", o->mesh.overlap, "Ghost layers (connections) in the halo")
      ->capture_default_str()
      ->check(CLI::Range(1, 16));
  cmd->add_option("--bytes-per-cell", o->mesh.bytes_per_cell, "Bytes sent per ghost cell")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--heterogeneity", o->mesh.heterogeneity, "Standard deviation of ln(permeability)")
      ->capture_default_str()
      ->check(finite_number())
      ->check(CLI::Range(0.0, 10.0));
  cmd->add_option("--faults", o->mesh.faults, "Vertical faults in the mesh")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--inactive", o->mesh.inactive_fraction, "Share of columns outside the reservoir outline")
      ->capture_default_str()
      ->check(finite_number())
      ->check(CLI::Range(0.0, 0.9));
  cmd->add_option("--vertical-ratio", o->mesh.vertical_ratio, "kv/kh: vertical over horizontal permeability")
      ->capture_default_str()
      ->check(finite_number())
      ->check(CLI::Range(1e-9, 1.0));
  cmd->add_option("--anisotropy", o->mesh.anisotropy, "kmax/kmin horizontally (channels, direction random per layer)")
      ->capture_default_str()
      ->check(finite_number())
      ->check(CLI::Range(1.0, 1e6));
  cmd->add_option("--aspect", o->mesh.aspect, "Horizontal extent over vertical extent, in cells")
      ->capture_default_str()
      ->check(finite_number())
      ->check(CLI::Range(0.01, 1000.0));
  cmd->add_option("--seed", o->mesh.seed, "Random seed (same seed, same pattern)")
      ->capture_default_str()
      ->check(non_negative_number());
  set_example(*cmd, {"contend generate-pattern --ranks 64 --cells 20000 --overlap 2 -o halo-64.pattern"});
  return [o] { return run_generate(*o); };
}

}  // namespace contend::cli
