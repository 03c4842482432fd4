#include <fmt/format.h>

#include "sim/cli/commands.hpp"
#include "sim/core/platform.hpp"
#include "models/registry.hpp"

namespace contend::cli {
namespace {

std::string describe_bandwidth(const BandwidthTable& t) {
  if (t.is_constant()) return fmt::format("{:.4g} GB/s", t.single() / 1e9);
  std::string out;
  for (const auto& [n, bw] : t.points()) out += fmt::format("{}{}: {:.4g}", out.empty() ? "" : ", ", n, bw / 1e9);
  return "BW_MP(N) {" + out + "} GB/s";
}

int run_platform(const std::string& file) {
  const Platform p = read_platform(file);
  all_models().validate_platform(p);
  fmt::print("{}: {}\n", p.name, p.description);
  fmt::print("  nodes      {} x {} sockets x {} cores = {} cores, {:.4g} Gflop/s per core\n", p.nodes.count,
             p.nodes.sockets, p.nodes.cores_per_socket, p.nodes.total_cores(), p.nodes.core_speed / 1e9);
  for (Level l : kAllLevels) {
    const auto& lv = p.level(l);
    fmt::print("  {:<12} tau {:.4g} us, eager below {} B, {}\n", level_name(l), lv.latency * 1e6, lv.eager_threshold,
               describe_bandwidth(lv.bandwidth));
  }
  fmt::print("  nic        {} x {:.4g} GB/s, latency {:.4g} us\n", p.nic.count, p.nic.bandwidth / 1e9, p.nic.latency * 1e6);
  fmt::print("  network    {}\n", network_kind(p.network));
  std::string models;
  if (p.models.present()) {
    for (const auto& [key, value] : p.models.entries()) models += (models.empty() ? "" : ", ") + key.as_string();
  }
  fmt::print("  models     {}\n", models.empty() ? "(no model parameters)" : models);
  fmt::print("valid\n");
  return 0;
}

}  // namespace

Action add_platform_command(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("platform", "Check a platform file and print what it describes");
  cmd->add_option("file", *file, "Platform YAML file")->required();
  return [file] { return run_platform(*file); };
}

}  // namespace contend::cli
