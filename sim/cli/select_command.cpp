// contend select bcast: the analytical broadcast models of Nuriyev et al.
// (JPDC 2022, eqs. 1-13) for every algorithm and message size, the
// model-based choice, and Open MPI's fixed-decision choice with its
// predicted penalty (docs/commands.md, "select").
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "models/registry.hpp"
#include "models/taulop/bcast_models.hpp"
#include "models/taulop/parameters.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/collectives/collectives.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/hosts.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/size_list.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/engine/worker_pool.hpp"
#include "sim/workload/collective_workload.hpp"

namespace contend::cli {
namespace {

struct SelectOptions {
  std::string collective;
  std::string platform;
  int procs = 0;
  std::string sizes = "16K:4M";
  std::string mapping = "block";
  std::string ompi = "4.1";
  bool simulate = false;
  std::string model;  // empty unless --model (choose_model)
  std::string output;
};

// Open MPI's fixed decision for a broadcast, named as the models name it
// when they have it ("split_binary seg 1K"), else by Open MPI's name.
struct OmpiChoice {
  std::string label;
  std::string csv_name;  // the paper's name, or Open MPI's
  std::uint64_t segment_bytes = 0;
  std::optional<std::size_t> modelled;  // index in taulop::kBcastAlgorithms
};

OmpiChoice ompi_choice(const coll::CollectiveSettings& settings, int procs, std::uint64_t bytes, int kchain_fanout) {
  const coll::AlgorithmChoice c =
      coll::choose_algorithm(coll::make_call(coll::CollectiveOp::bcast, bytes), procs, settings);
  OmpiChoice out;
  out.segment_bytes = c.segment_bytes;
  const auto modelled = taulop::modelled_bcast(c.algorithm, c.fanout);
  std::string name = c.algorithm;
  if (modelled) {
    name = std::string(taulop::bcast_algorithm_name(*modelled));
    const auto& all = taulop::kBcastAlgorithms;
    out.modelled = static_cast<std::size_t>(std::find(all.begin(), all.end(), *modelled) - all.begin());
  }
  out.csv_name = name;
  const std::uint64_t seg = c.segment_bytes;
  const std::string seg_text = seg >= 1024 && seg % 1024 == 0 ? fmt::format("{}K", seg / 1024) : fmt::format("{}", seg);
  out.label = seg > 0 ? fmt::format("{} seg {}", name, seg_text) : name;
  if (modelled && *modelled == taulop::BcastAlgorithm::KChain && c.fanout != kchain_fanout) {
    out.label += fmt::format(" K={}", c.fanout);
  }
  return out;
}

// The makespan of one broadcast algorithm forced as Open MPI's
// coll_tuned_bcast_algorithm forces it, simulated in a child process (one
// SimGrid engine per process).
double simulate_bcast(const Platform& platform, const SelectOptions& o, const taulop::Parameters& parameters,
                      taulop::BcastAlgorithm algorithm, std::uint64_t bytes) {
  coll::CollectiveSettings settings;
  coll::ForcedAlgorithm forced;
  forced.algorithm = taulop::bcast_algorithm_info(algorithm).ompi_name;
  // The linear tree is never segmented (Nuriyev Sec. 3); the others use m_s.
  forced.segment_bytes = algorithm == taulop::BcastAlgorithm::Linear ? 0 : parameters.segment_size;
  settings.forced[coll::CollectiveOp::bcast] = forced;
  settings.chain_fanout = parameters.kchain_fanout;
  const auto results = WorkerPool(1).run(1, [&](std::size_t) {
    const Mapping mapping = make_mapping(o.mapping, o.procs, machine_of(platform), false);
    CollectiveWorkload workload(o.procs, coll::make_call(coll::CollectiveOp::bcast, bytes), settings);
    SimulationOptions options;
    options.model = choose_model(o.model, platform).name;
    options.mapping_name = o.mapping;
    return fmt::format("{:.17g}", simulate(platform, mapping, workload, all_models(), options).makespan());
  });
  if (!results[0].ok) {
    throw_job_failure(results[0], fmt::format("simulating {} of {} B on {} ranks",
                                              taulop::bcast_algorithm_name(algorithm), bytes, o.procs));
  }
  return std::stod(results[0].answer);
}

int run_select(const SelectOptions& o) {
  if (o.collective != "bcast") {
    throw Error("select: unknown collective '" + o.collective + "'" + did_you_mean(o.collective, {"bcast"}) +
                "; the analytical models cover: bcast");
  }
  const Platform platform = read_platform(o.platform);
  all_models().validate_platform(platform);
  const taulop::Parameters parameters = taulop::parse_parameters(platform.model_section("taulop"));
  const Mapping mapping = make_mapping(o.mapping, o.procs, machine_of(platform), false);
  const std::vector<std::uint64_t> sizes = parse_size_list(o.sizes, "--sizes");
  coll::CollectiveSettings ompi;
  ompi.version = coll::parse_ompi_version(o.ompi);
  const ModelChoice model = choose_model(o.model, platform);
  if (o.simulate) all_models().get(model.name);  // an unknown name fails now, with "did you mean"

  const taulop::BcastModels models(parameters, mapping);
  fmt::print("bcast on {} ranks of {} ({} mapping), segments {} B, K = {}; predicted times in ms{}\n", o.procs,
             platform.name, o.mapping, parameters.segment_size, parameters.kchain_fanout,
             !o.simulate ? ""
             : model.source == ModelChoice::Source::PlatformDefault
                 ? fmt::format(" (sim: {})", model.described(platform))
                 : fmt::format(" (sim: --model {})", model.name));
  std::string header = fmt::format("{:>6}", "size");
  for (const auto& name : taulop::bcast_algorithm_names()) header += fmt::format(" {:>12}", name);
  header +=
      fmt::format("  {:<12} {:<24} {:>8}", "model", fmt::format("ompi-{}", coll::to_string(ompi.version)), "penalty");
  if (o.simulate) header += "  sim-best";
  fmt::print("{}\n", header);

  std::ostringstream csv;
  csv << "bytes,algorithm,model_time_s" << (o.simulate ? ",simulated_time_s" : "")
      << ",model_choice,ompi_choice,ompi_segment_bytes,ompi_penalty\n";
  for (const std::uint64_t m : sizes) {
    const double bytes = static_cast<double>(m);
    std::vector<double> predicted, simulated;
    for (auto a : taulop::kBcastAlgorithms) predicted.push_back(models.predict(a, bytes));
    if (o.simulate) {
      for (auto a : taulop::kBcastAlgorithms) simulated.push_back(simulate_bcast(platform, o, parameters, a, m));
    }
    const auto best =
        static_cast<std::size_t>(std::min_element(predicted.begin(), predicted.end()) - predicted.begin());
    const OmpiChoice choice = ompi_choice(ompi, o.procs, m, parameters.kchain_fanout);
    std::string penalty = "-";
    double penalty_value = std::numeric_limits<double>::quiet_NaN();
    if (choice.modelled) {
      const double chosen = predicted[*choice.modelled];
      penalty_value = predicted[best] > 0 ? chosen / predicted[best] - 1 : 0;  // one rank: nothing to send
      penalty = fmt::format("{:.0f}%", 100 * penalty_value);
    }
    std::string line = fmt::format("{:>6}", units::format_size(m, units::SizeSuffix::letter));
    for (double t : predicted) line += fmt::format(" {:>12}", units::in_milliseconds(t));
    const std::string model_choice(taulop::bcast_algorithm_name(taulop::kBcastAlgorithms[best]));
    line += fmt::format("  {:<12} {:<24} {:>8}", model_choice, choice.label, penalty);
    if (o.simulate) {
      const auto sim_best =
          static_cast<std::size_t>(std::min_element(simulated.begin(), simulated.end()) - simulated.begin());
      line += fmt::format("  {}", taulop::bcast_algorithm_name(taulop::kBcastAlgorithms[sim_best]));
    }
    fmt::print("{}\n", line);
    if (o.simulate) {
      std::string sim_line = fmt::format("{:>6}", "sim");
      for (double t : simulated) sim_line += fmt::format(" {:>12}", units::in_milliseconds(t));
      fmt::print("{}\n", sim_line);
    }
    for (std::size_t i = 0; i < predicted.size(); ++i) {
      csv << m << ',' << taulop::bcast_algorithm_name(taulop::kBcastAlgorithms[i]) << ','
          << fmt::format("{:.9g}", predicted[i]);
      if (o.simulate) csv << ',' << fmt::format("{:.9g}", simulated[i]);
      csv << ',' << model_choice << ',' << choice.csv_name << ',' << choice.segment_bytes << ','
          << (choice.modelled ? fmt::format("{:.6g}", penalty_value) : "") << '\n';
    }
  }
  // Say where gamma was extrapolated (models/taulop/README.md: beyond its last point).
  for (const auto c : {taulop::kSharedMemory, taulop::kNetwork}) {
    const auto& points = parameters.channels[c].gamma.points();
    const int last = points.rbegin()->first;
    if (models.largest_nbft(c) > last) {
      fmt::print("note: gamma^{}(P) extrapolated beyond P = {} for NBFTs of up to {} nodes\n", static_cast<int>(c),
                 last, models.largest_nbft(c));
    }
  }
  if (!o.output.empty()) write_file_atomically(o.output, [&](std::ostream& out) { out << csv.str(); });
  return 0;
}

}  // namespace

Action add_select_command(CLI::App& app) {
  auto o = std::make_shared<SelectOptions>();
  auto* cmd = app.add_subcommand(
      "select", "Predict every broadcast algorithm's time (Nuriyev et al. models) and pick the fastest");
  cmd->add_option("collective", o->collective, "The collective: bcast")->required();
  add_platform_option(*cmd, o->platform, "Platform YAML file with a models: taulop: section");
  cmd->add_option("--procs", o->procs, "Number of MPI processes")->required()->check(CLI::Range(1, 1 << 24));
  cmd->add_option("--sizes", o->sizes, "Message sizes: FIRST:LAST (doubling) or A,B,C (default 16K:4M)");
  add_mapping_option(*cmd, o->mapping);
  cmd->add_option("--ompi", o->ompi, "Open MPI version whose fixed decision to compare: 3.1 or 4.1 (default 4.1)");
  cmd->add_flag("--simulate", o->simulate, "Also simulate each algorithm (Open MPI's code, forced) with --model");
  add_model_option(*cmd, o->model, "Model for --simulate");
  add_output_option(*cmd, o->output, "Write bytes,algorithm,model_time_s,...,choices CSV per row");
  // The old spelling, kept out of the help (no CLI11 `excludes`: it would
  // print an empty name there).
  cmd->add_option("--csv", o->output)->group("");
  set_example(*cmd, {"contend select bcast --platform platforms/marenostrum4.yaml --procs 96 --sizes 16K:4M --ompi 3.1 "
                     "-o bcast-96.csv"});
  return [o] { return run_select(*o); };
}

}  // namespace contend::cli
