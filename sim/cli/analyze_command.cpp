// contend analyze: Thune et al.'s closed forms for a many-pair exchange,
// computed directly (no simulation).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "models/registry.hpp"
#include "models/staircase/closed_form.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/hosts.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/pattern.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/results.hpp"

namespace contend::cli {
namespace {

struct AnalyzeOptions {
  std::string platform, pattern, mapping = "block", form = "staircase", per_rank, json, hosts;
  bool oversubscribe = false;
  bool quiet = false;
};

// The closed forms are for one exchange whose messages all start together.
const std::vector<PatternMessage>& single_exchange(const Pattern& w, const std::string& file) {
  const ExchangeSpec* exchange = nullptr;
  if (w.steps.size() == 1) exchange = std::get_if<ExchangeSpec>(&w.steps[0].content);
  if (exchange == nullptr) {
    throw Error(file + ": analyze needs a pattern of one many-pair exchange (Algorithm 2); this one has " +
                describe(w) + " (use 'contend simulate')");
  }
  for (const auto& m : exchange->messages) {
    if (m.start > 0) {
      throw Error(file + ": analyze needs all messages to start together; one from rank " + std::to_string(m.src) +
                  " to " + std::to_string(m.dst) + " starts at @" + fmt::format("{:g}", m.start) +
                  " s (use 'contend simulate')");
    }
  }
  return exchange->messages;
}

void write_csv(std::ostream& out, const Mapping& mapping, const std::vector<AnalyzedRank>& ranks) {
  out << "rank,node,socket,core,intra_node_time_s,inter_node_time_s,total_time_s\n";
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const auto& p = mapping[static_cast<int>(r)];
    fmt::print(out, "{},{},{},{},{:.12g},{:.12g},{:.12g}\n", r, p.node, p.socket, p.core, ranks[r].intra_node_time,
               ranks[r].inter_node_time, ranks[r].total_time);
  }
}

void print_summary(const AnalyzeOptions& o, const Pattern& w, const std::vector<AnalyzedRank>& ranks) {
  std::vector<std::size_t> order(ranks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return ranks[a].total_time > ranks[b].total_time; });
  fmt::print("contend analyze: {} ({} ranks, mapping {}), closed form {}\n", describe(w), ranks.size(), o.mapping,
             o.form);
  if (ranks.empty()) return;
  fmt::print("  makespan        {:.9g} s (rank {})\n", ranks[order.front()].total_time, order.front());
  fmt::print("  fastest rank    {} ({:.9g} s)\n", order.back(), ranks[order.back()].total_time);
  fmt::print("  {:>7} {:>16} {:>16} {:>16}\n", "rank", "intra_node[s]", "inter_node[s]", "total[s]");
  const std::size_t shown = std::min<std::size_t>(order.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& r = ranks[order[i]];
    fmt::print("  {:>7} {:>16.9f} {:>16.9f} {:>16.9f}\n", order[i], r.intra_node_time, r.inter_node_time, r.total_time);
  }
  if (order.size() > shown) fmt::print("  ...     ({} more ranks; --per-rank FILE has all)\n", order.size() - shown);
}

// The same conventions as simulate --json (docs/commands.md, "JSON output").
void write_json(std::ostream& out, const AnalyzeOptions& o, const Mapping& mapping,
                const std::vector<AnalyzedRank>& ranks) {
  const nlohmann::ordered_json units = {
      {"makespan", "s"}, {"intra_node_time", "s"}, {"inter_node_time", "s"}, {"total_time", "s"}};
  nlohmann::ordered_json options = {{"platform", o.platform},
                                    {"pattern", o.pattern},
                                    {"closed_form", o.form},
                                    {"mapping", o.mapping},
                                    {"oversubscribe", o.oversubscribe}};
  if (!o.hosts.empty()) options["hosts"] = o.hosts;  // as simulate --json records it
  auto j = json_head("analyze", contend_version(), units, options);
  double makespan = 0;
  for (const auto& r : ranks) makespan = std::max(makespan, r.total_time);
  j["makespan"] = makespan;
  auto& rows = j["ranks"] = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const auto& p = mapping[static_cast<int>(r)];
    rows.push_back({{"rank", r},
                    {"node", p.node},
                    {"socket", p.socket},
                    {"core", p.core},
                    {"intra_node_time", ranks[r].intra_node_time},
                    {"inter_node_time", ranks[r].inter_node_time},
                    {"total_time", ranks[r].total_time}});
  }
  out << j.dump(2) << "\n";
}

int run_analyze(const AnalyzeOptions& o) {
  const ClosedForm form = closed_form_by_name(o.form);
  const Platform platform = read_platform(o.platform);
  all_models().validate_platform(platform);
  const Pattern workload = read_pattern(o.pattern);
  const auto& messages = single_exchange(workload, o.pattern);
  const Mapping mapping = make_mapping(o.mapping, workload.ranks, machine_of(platform, o.hosts), o.oversubscribe);
  const auto ranks = analyze(platform, mapping, messages, form);
  if (!o.per_rank.empty())
    write_file_atomically(o.per_rank, [&](std::ostream& out) { write_csv(out, mapping, ranks); });
  if (!o.json.empty()) write_file_atomically(o.json, [&](std::ostream& out) { write_json(out, o, mapping, ranks); });
  if (!o.quiet) print_summary(o, workload, ranks);
  return 0;
}

}  // namespace

Action add_analyze_command(CLI::App& app) {
  auto o = std::make_shared<AnalyzeOptions>();
  auto* cmd = app.add_subcommand("analyze", "Thune et al.'s closed forms for a many-pair exchange, without simulation");
  add_platform_option(*cmd, o->platform);
  cmd->add_option("--pattern", o->pattern, "Pattern file of one exchange ('src dst bytes' lines)")->required();
  add_mapping_option(*cmd, o->mapping);
  cmd->add_option("--closed-form", o->form, "staircase | max-rate | extended-max-rate (Thune et al.'s eqs.)")
      ->capture_default_str();
  // The old spelling, kept out of the help: analyze's forms are not --model's
  // models. (No CLI11 `excludes`: it would print an empty name in the help.)
  cmd->add_option("--model", o->form)->group("");
  add_oversubscribe_flag(*cmd, o->oversubscribe);
  add_hosts_option(*cmd, o->hosts);
  cmd->add_option("--per-rank", o->per_rank,
                  "Write rank,node,socket,core,intra_node_time_s,inter_node_time_s,total_time_s CSV "
                  "('-': standard output)");
  cmd->add_option("--json", o->json,
                  "Write the options and per-rank times as JSON (schema contend.analyze, '-': standard output)");
  add_quiet_flag(*cmd, o->quiet);
  set_example(*cmd, {"contend analyze --platform platforms/epyc-rome-2node.yaml "
                     "--pattern traces/samples/halo-256.pattern --closed-form staircase --per-rank closed-form.csv"});
  return [o] { return run_analyze(*o); };
}

}  // namespace contend::cli
