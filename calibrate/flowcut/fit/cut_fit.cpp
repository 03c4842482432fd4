#include "calibrate/flowcut/fit/cut_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "calibrate/flowcut/conflicts.hpp"
#include "sim/core/csv.hpp"
#include "sim/core/error.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/yaml_edit.hpp"

namespace contend::calibrate {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double clamp_cut(double cut) { return std::clamp(cut, 0.0, kMaxCut); }

std::string cut_text(double cut) { return fmt::format("{:.3f}", cut); }

// Median data time (seconds less the latency) of each flow of each conflict.
using FlowTimes = std::map<std::string, std::map<int, double>>;

FlowTimes median_times(const std::vector<RawTime>& raw, double latency) {
  std::map<std::string, std::map<int, std::vector<double>>> samples;
  for (const auto& r : raw) samples[r.conflict][r.flow].push_back(r.seconds);
  FlowTimes out;
  for (const auto& [conflict, flows] : samples) {
    for (const auto& [flow, seconds] : flows) out[conflict][flow] = median(seconds) - latency;
  }
  return out;
}

const std::map<int, double>& flows_of(const FlowTimes& times, const std::string& conflict) {
  const auto& runs = conflict_runs();
  const auto run = std::find_if(runs.begin(), runs.end(), [&](const ConflictRun& r) { return r.name == conflict; });
  auto it = times.find(conflict);
  if (it == times.end() || run == runs.end() || it->second.size() != run->flows.size()) {
    throw Error("flowcut calibration: the raw times lack conflict '" + conflict + "' (or some of its flows)");
  }
  return it->second;
}

// Cuts of flows x and y (data times) that started together, in that order.
std::pair<double, double> ordered_cuts(double x, double y, double tau) {
  if (x <= y) return cuts_of_two(x, y, tau);
  const auto [fast, slow] = cuts_of_two(y, x, tau);
  return {slow, fast};
}

}  // namespace

std::vector<RawTime> read_raw_csv(const std::string& path) {
  const CsvFile csv =
      CsvFile::read(path, CsvColumns{.required = {"conflict", "repetition", "flow", "src", "dst", "bytes", "seconds"}});
  std::vector<RawTime> out;
  for (const auto& row : csv.rows()) {
    RawTime r;
    r.conflict = row.text("conflict");
    r.repetition = static_cast<int>(row.count("repetition"));
    r.flow = static_cast<int>(row.count("flow"));
    row.count("src");
    row.count("dst");
    r.bytes = static_cast<double>(row.size("bytes"));
    r.seconds = row.seconds("seconds");
    out.push_back(r);
  }
  return out;
}

std::pair<double, double> cuts_of_two(double fast, double slow, double tau) {
  const double a = fast / tau - 1;
  const double left = tau - (slow - fast);  // data time the slower flow had left when the faster ended
  const double b = left > 0 ? fast / left - 1 : kMaxCut;
  return {clamp_cut(a), clamp_cut(b)};
}

Calibration fit_calibration(const std::vector<RawTime>& raw) {
  Calibration c;
  const auto latency = std::find_if(raw.begin(), raw.end(), [](const RawTime& r) { return r.conflict == "latency"; });
  if (latency == raw.end()) throw Error("flowcut calibration: the raw times lack the 1-byte latency");
  c.latency = latency->seconds;
  std::vector<RawTime> timed;
  std::copy_if(raw.begin(), raw.end(), std::back_inserter(timed),
               [](const RawTime& r) { return r.conflict != "latency"; });
  const FlowTimes t = median_times(timed, c.latency);
  c.tau = flows_of(t, "reference").at(0);
  if (c.tau <= 0) throw Error("flowcut calibration: the contention-free time is not above the latency");
  c.bytes = timed.front().bytes;
  for (const auto& r : timed) c.repetitions = std::max(c.repetitions, r.repetition + 1);

  // Outgo and income: one conflict (odd); the faster and the slower flow.
  const auto& outgo = flows_of(t, "outgo");
  const auto& income = flows_of(t, "income");
  const auto [oa, ob] = cuts_of_two(std::min(outgo.at(0), outgo.at(1)), std::max(outgo.at(0), outgo.at(1)), c.tau);
  const auto [ia, ib] = cuts_of_two(std::min(income.at(0), income.at(1)), std::max(income.at(0), income.at(1)), c.tau);
  const double fast = (oa + ia) / 2, slow = (ob + ib) / 2;
  // Within 5%, the flows are taken as equal (the paper's (1, ..., 1)).
  c.table.odd_conflicts =
      slow - fast <= 0.05 * (1 + slow) ? std::vector<double>{(fast + slow) / 2} : std::vector<double>{fast, slow};
  // Even chain 0 <- 1 -> 2 <- 3: the two ends, then the middle flow.
  const auto& even = flows_of(t, "even_chain");
  const auto [end_cut, middle_cut] = ordered_cuts((even.at(0) + even.at(2)) / 2, even.at(1), c.tau);
  c.table.even_conflicts = {end_cut, middle_cut};
  // C->X->: flow 0 enters X, flow 1 leaves it.
  const auto& mixed = flows_of(t, "outgo_income");
  std::tie(c.table.incoming, c.table.outgoing) = ordered_cuts(mixed.at(0), mixed.at(1), c.tau);
  // Alone: 2 -> 3 (flow 2) against the conflicts around it; at the end of a chain.
  const auto& include = flows_of(t, "include");
  const double around = (include.at(0) + include.at(1) + include.at(3) + include.at(4)) / 4;
  c.table.include = ordered_cuts(include.at(2), around, c.tau).first;
  c.table.start_end = clamp_cut(flows_of(t, "start_end").at(2) / c.tau - 1);
  return c;
}

std::string flowcut_section(const Calibration& c, const std::string& source) {
  auto list = [](const std::vector<double>& cuts) {
    std::string out;
    for (double x : cuts) out += (out.empty() ? "" : ", ") + cut_text(x);
    return "[" + out + "]";
  };
  const FlowCutTable& t = c.table;
  return fmt::format(
      "  flowcut:\n"
      "    source: \"{}\"\n"
      "    same_direction: {{odd_conflicts: {}, even_conflicts: {}}}\n"
      "    outgo_income: {{incoming: {}, outgoing: {}}}\n"
      "    alone: {{include: {}, start_end: {}}}\n",
      source, list(t.odd_conflicts), list(t.even_conflicts), cut_text(t.incoming), cut_text(t.outgoing),
      cut_text(t.include), cut_text(t.start_end));
}

std::string replace_flowcut_section(const std::string& yaml, const std::string& section, const std::string& name) {
  YamlText text(yaml, name);
  text.set_entry("models.flowcut", section, "model");
  return text.text();
}

std::string default_source(const Calibration& c, const std::string& raw_path) {
  return fmt::format("calibrate/flowcut, {:.0f} B x {} repetitions, raw times {}", c.bytes, c.repetitions, raw_path);
}

std::string update_platform_flowcut(const std::string& text, const std::string& name, const Calibration& c,
                                    const std::string& source) {
  const std::string updated = replace_flowcut_section(text, flowcut_section(c, source), name);
  // The result must be a valid platform with a valid table before it replaces anything.
  const Platform p = parse_platform(YamlField::load_string(updated, name));
  parse_flowcut_table(p.model_section("flowcut"));
  return updated;
}

std::string cuts_csv(const Calibration& c) {
  const FlowCutTable& t = c.table;
  std::string out = "entry,value\n" + fmt::format("latency_s,{:.9g}\ntau_s,{:.9g}\n", c.latency, c.tau);
  for (std::size_t i = 0; i < t.odd_conflicts.size(); ++i)
    out += fmt::format("odd_conflicts.{},{:.6g}\n", i, t.odd_conflicts[i]);
  for (std::size_t i = 0; i < t.even_conflicts.size(); ++i)
    out += fmt::format("even_conflicts.{},{:.6g}\n", i, t.even_conflicts[i]);
  out += fmt::format("incoming,{:.6g}\noutgoing,{:.6g}\ninclude,{:.6g}\nstart_end,{:.6g}\n", t.incoming, t.outgoing,
                     t.include, t.start_end);
  return out;
}

}  // namespace contend::calibrate
