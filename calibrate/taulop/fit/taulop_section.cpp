#include "calibrate/taulop/fit/taulop_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "sim/core/platform.hpp"
#include "sim/core/yaml_edit.hpp"

namespace contend::calibrate {
namespace {

std::string number(double x) { return fmt::format("{:.6g}", x); }  // six digits: rounding stays below the noise

std::string count_table(const std::map<int, double>& table) {
  std::string out;
  for (const auto& [p, g] : table) out += fmt::format("{}{}: {}", out.empty() ? "" : ", ", p, number(g));
  return "{" + out + "}";
}

// An existing field as one line of flow YAML.
std::string flow(const YamlField& field) {
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << field.node();
  return e.c_str();
}

std::string proportional(double at_segment, std::uint64_t segment) {
  return fmt::format("{{intercept: 0, per_byte: {}}}", number(at_segment / static_cast<double>(segment)));
}

std::string channel_lines(const TaulopCalibration& c, const YamlField& existing, int channel) {
  const char* name = channel == 0 ? "shared_memory" : "network";
  const auto old = existing.child("channels").child(name);
  const auto& gamma = channel == 0 ? c.nbft.parameters.gamma_shared : c.nbft.parameters.gamma_network;
  std::string o, l;
  if (old.child("o").present() && old.child("L").present()) {
    o = flow(old.child("o"));
    l = flow(old.child("L"));
  } else {
    const double t0 = c.nbft.time_shared.at(2);
    const double t1 = c.nbft.time_network.count(2) ? c.nbft.time_network.at(2) : c.nbft.parameters.q * t0;
    o = "0";
    l = proportional(channel == 0 ? t0 / 2 : std::max(0.0, t1 - t0), c.segment);
  }
  std::string out = fmt::format("      {}:\n        o: {}\n        L: {}\n", name, o, l);
  // gamma^1 unmeasured (Q given): 1, the lower bound of eq. (7).
  out += fmt::format("        gamma: {}\n", gamma.empty() ? std::string("{2: 1}") : count_table(gamma));
  if (old.child("concurrency").present()) out += "        concurrency: " + flow(old.child("concurrency")) + "\n";
  return out;
}

std::string algorithm_line(const AlgorithmFit& f, std::uint64_t segment) {
  const bool whole_message = f.algorithm == BcastAlgorithm::Linear || f.algorithm == BcastAlgorithm::SplitBinary;
  auto value = [&](double x) { return whole_message ? proportional(x, segment) : number(x); };
  return fmt::format("      {}: {{o0: {}, o1: {}, L0: {}, L1: {}}}\n", bcast_algorithm_info(f.algorithm).name,
                     value(f.o0), value(f.o1), value(f.l0), value(f.l1));
}

}  // namespace

std::string taulop_section(const TaulopCalibration& c, const YamlField& existing, const std::string& source) {
  int fanout = 4;
  for (const auto& f : c.algorithms) {
    if (f.algorithm == BcastAlgorithm::KChain) fanout = f.fanout;
  }
  if (existing.child("kchain_fanout").present() &&
      std::none_of(c.algorithms.begin(), c.algorithms.end(),
                   [](const auto& f) { return f.algorithm == BcastAlgorithm::KChain; })) {
    fanout = static_cast<int>(existing.child("kchain_fanout").as_int(1, 32));
  }
  std::string out = "  taulop:\n";
  out += "    # Nuriyev et al. JPDC 2022 Sec. 5: gamma and Q from NBFT runs (eqs. 14-15), bcast from\n";
  out += "    # broadcast + flat gather runs by Huber regression (eqs. 16-20); calibrate/taulop/README.md\n";
  out += "    source: " + source + "\n";
  out += fmt::format("    segment_size: {}\n", c.segment);
  out += fmt::format("    kchain_fanout: {}\n", fanout);
  out += "    Q: " + number(c.nbft.parameters.q) + "\n";
  out += "    channels:\n";
  out += channel_lines(c, existing, 0);
  out += channel_lines(c, existing, 1);
  out += "    bcast:\n";
  for (const auto& f : c.algorithms) out += algorithm_line(f, c.segment);
  // Algorithms calibrated before and not measured now stay.
  const auto old_bcast = existing.child("bcast");
  for (const auto& [key, value] :
       old_bcast.is_map() ? old_bcast.entries() : std::vector<std::pair<YamlField, YamlField>>{}) {
    const auto a = taulop::bcast_algorithm_by_name(key.as_string());
    if (a && std::none_of(c.algorithms.begin(), c.algorithms.end(), [&](const auto& f) { return f.algorithm == *a; })) {
      out += "      " + key.as_string() + ": " + flow(value) + "\n";
    }
  }
  return out;
}

std::string replace_model_section(const std::string& yaml, std::string_view model, const std::string& section,
                                  const std::string& name) {
  YamlText text(yaml, name);
  text.set_entry("models." + std::string(model), section, "model");
  return text.text();
}

std::string update_platform_taulop(const std::string& text, const std::string& name, const TaulopCalibration& c,
                                   const std::string& source) {
  const Platform old = parse_platform(YamlField::load_string(text, name));
  return replace_model_section(text, "taulop", taulop_section(c, old.model_section("taulop"), source), name);
}

}  // namespace contend::calibrate
