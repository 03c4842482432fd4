#include <fmt/format.h>

#include <iostream>

#include "models/registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/units.hpp"

namespace contend::cli {
namespace {

std::string describe_bandwidth(const BandwidthTable& t) {
  if (t.is_constant()) return units::in_giga(t.single()) + " GB/s";
  std::string out;
  for (const auto& [n, bw] : t.points()) out += fmt::format("{}{}: {}", out.empty() ? "" : ", ", n, units::in_giga(bw));
  return "BW_MP(N) {" + out + "} GB/s";
}

int run_platform(const std::string& file) {
  const Platform p = read_platform(file);
  all_models().validate_platform(p);
  fmt::print("{}: {}\n", p.name, p.description);
  fmt::print("  nodes      {} x {} sockets x {} cores = {} cores, {} Gflop/s per core\n", p.nodes.count,
             p.nodes.sockets, p.nodes.cores_per_socket, p.nodes.total_cores(), units::in_giga(p.nodes.core_speed));
  for (Level l : kAllLevels) {
    const auto& lv = p.level(l);
    // The transport buffer only when there is one: the other platforms print as before.
    const std::string buffer =
        lv.transport_buffer > 0 ? fmt::format(", transport buffer {} B", lv.transport_buffer) : std::string();
    fmt::print("  {:<12} tau {} us, eager below {} B{}, {}\n", level_name(l), units::in_microseconds(lv.latency),
               lv.eager_threshold, buffer, describe_bandwidth(lv.bandwidth));
  }
  fmt::print("  nic        {} x {} GB/s, latency {} us\n", p.nic.count, units::in_giga(p.nic.bandwidth),
             units::in_microseconds(p.nic.latency));
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
  auto old_form = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("platform", "Check a platform file and print what it describes");
  auto* platform = cmd->add_option("--platform", *file, "Platform YAML file");
  // `contend platform FILE`, the form before --platform: still read, with a warning.
  auto* positional = cmd->add_option("FILE", *old_form, "The same, as before --platform existed (prints a warning)")
                         ->group("Old form");
  cmd->callback([platform, positional] {
    if (platform->count() == 0 && positional->count() == 0) throw CLI::RequiredError("--platform");
    if (platform->count() > 0 && positional->count() > 0) throw CLI::ExcludesError("--platform", "FILE");
  });
  set_example(*cmd, {"contend platform --platform platforms/epyc-rome-2node.yaml"});
  return [file, old_form] {
    if (!old_form->empty()) {
      std::cerr << "contend: warning: 'contend platform FILE' is the old form; write 'contend platform --platform "
                << *old_form << "'\n";
      return run_platform(*old_form);
    }
    return run_platform(*file);
  };
}

}  // namespace contend::cli
