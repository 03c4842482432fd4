// contend pingpong: a ping-pong between two ranks through the engine, per
// size, next to Bacon et al.'s LogGOPS formula (eq. (2), EuroMPI 2023):
//   t_ping-pong = 2 (max(o_s + O_s k, g + G k) + L + O_r k + o_r)
// with the parameters of the message's level, protocol range and datatype.
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <map>

#include "models/loggops/loggops_parameters.hpp"
#include "models/loggops/pingpong_measurements.hpp"
#include "models/registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/hosts.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/size_list.hpp"
#include "sim/core/text.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/workload/pingpong_workload.hpp"

namespace contend::cli {
namespace {

struct PingPongOptions {
  std::string platform, model, sizes = "1:16M", datatype = "contiguous", mapping = "block", progress;
  std::string measured;
};

int run_pingpong(const PingPongOptions& o) {
  const Platform platform = read_platform(o.platform);
  all_models().validate_platform(platform);
  std::string error;
  const auto datatype = parse_datatype(o.datatype, error);
  if (!datatype) throw Error("--datatype: expected " + error + ", got '" + o.datatype + "'");

  // Whole instances of the datatype only: sizes are payload bytes.
  const std::uint64_t unit = datatype->payload_bytes();
  std::vector<std::uint64_t> sizes, skipped;
  for (auto k : parse_size_list(o.sizes, "--sizes")) (k % unit == 0 ? sizes : skipped).push_back(k);
  if (sizes.empty()) {
    throw Error(fmt::format("--sizes: no size is a multiple of {} B, the payload of one {}", unit, datatype->name()));
  }

  const Mapping mapping = make_mapping(o.mapping, 2, machine_of(platform), false);
  const Level level = mapping.level(0, 1);
  // The formula needs the platform's LogGOPS parameters, whatever model simulates.
  std::optional<LogGopsParameters> loggops;
  if (platform.model_section("loggops").present()) loggops.emplace(platform, platform.model_section("loggops"));

  std::map<std::uint64_t, double> measured;
  if (!o.measured.empty()) measured = read_pingpong_medians(o.measured, datatype->name());

  PingPongWorkload workload(sizes, *datatype);
  SimulationOptions options;
  const ModelChoice model = choose_model(o.model, platform);
  options.model = model.name;
  options.mapping_name = o.mapping;
  if (!o.progress.empty()) options.progress = progress_by_name(o.progress);
  const Progress progress = options.progress.value_or(platform.progress);
  simulate(platform, mapping, workload, all_models(), options);

  fmt::print("# contend pingpong: platform {}, model {}, datatype {}, level {}, progress {}\n", platform.name,
             model.described(platform), datatype->name(), level_name(level), progress_name(progress));
  if (!skipped.empty()) {
    std::vector<std::string> names;
    for (auto k : skipped) names.push_back(std::to_string(k));
    fmt::print("# skipped (not a multiple of {} B, one {}): {}\n", unit, datatype->name(), join(names));
  }
  if (loggops) fmt::print("# formula: Bacon et al. eq. (2), 2 (max(o_s + O_s k, g + G k) + L + O_r k + o_r)\n");
  if (!o.measured.empty()) {
    fmt::print("# measured: {} (median per size); relative_error = (simulated - measured) / measured\n", o.measured);
  }
  fmt::print("bytes,protocol,formula_s,simulated_s,relative_difference{}\n",
             o.measured.empty() ? "" : ",measured_s,relative_error");
  const auto threshold = platform.level(level).eager_threshold;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const double k = static_cast<double>(sizes[i]);
    const double simulated = workload.round_trips()[i];
    const char* protocol = sizes[i] < threshold ? "eager" : "rendezvous";
    if (loggops) {
      const double formula = 2 * loggops->protocol_for(level, sizes[i]).one_way(*datatype, k);
      fmt::print("{},{},{:.12e},{:.12e},{:.3e}", sizes[i], protocol, formula, simulated,
                 std::abs(simulated - formula) / formula);
    } else {
      fmt::print("{},{},-,{:.12e},-", sizes[i], protocol, simulated);
    }
    if (!o.measured.empty()) {
      const auto m = measured.find(sizes[i]);
      if (m == measured.end()) {
        fmt::print(",-,-");
      } else {
        fmt::print(",{:.12e},{:+.4f}", m->second, (simulated - m->second) / m->second);
      }
    }
    fmt::print("\n");
  }
  return 0;
}

}  // namespace

Action add_pingpong_command(CLI::App& app) {
  auto o = std::make_shared<PingPongOptions>();
  auto* cmd = app.add_subcommand(
      "pingpong", "Simulate a two-rank ping-pong per size, next to the LogGOPS formula (Bacon et al. eq. (2))");
  add_platform_option(*cmd, o->platform, "Platform YAML file (with models: loggops: for the formula)");
  add_model_option(*cmd, o->model,
                   "Model of the simulated column (the formula is there when the platform has models: loggops:)");
  cmd->add_option("--sizes", o->sizes, "Message sizes: A:B (powers of two), or a comma list (e.g. 1:1K,3000)")
      ->capture_default_str();
  cmd->add_option("--datatype", o->datatype, "contiguous | vector:COUNT,BLOCKLENGTH,STRIDE:BASE")
      ->capture_default_str();
  add_mapping_option(*cmd, o->mapping, "Where the two ranks run: block | cyclic | socket | FILE");
  add_progress_option(*cmd, o->progress);
  cmd->add_option("--measured", o->measured,
                  "Measured round trips, CSV with bytes,seconds[,datatype]: adds measured_s and relative_error");
  set_example(*cmd, {"contend pingpong --platform tests/data/loggops/4core.yaml --model loggops --sizes 1000,4096"});
  return [o] { return run_pingpong(*o); };
}

}  // namespace contend::cli
