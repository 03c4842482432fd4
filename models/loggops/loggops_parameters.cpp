#include "models/loggops/loggops_parameters.hpp"

#include <fmt/format.h>

#include "sim/core/text.hpp"

namespace contend {
namespace {

const std::vector<std::string> kLevelKeys = {"default", "intra_socket", "inter_socket", "inter_node"};

LogGopsOverheads parse_overheads(const YamlField& f) {
  if (!f.is_map()) f.fail("a map {o_s: DURATION, O_s: DURATION, o_r: DURATION, O_r: DURATION}");
  f.allow_only({"o_s", "O_s", "o_r", "O_r"});
  LogGopsOverheads o;
  // O_s and O_r are seconds per byte, written as durations (e.g. 0.05ns).
  o.o_s = f.require("o_s", "the sender's per-message CPU overhead (a duration)").as_duration();
  o.O_s = f.require("O_s", "the sender's per-byte CPU overhead (a duration per byte)").as_duration();
  o.o_r = f.require("o_r", "the receiver's per-message CPU overhead (a duration)").as_duration();
  o.O_r = f.require("O_r", "the receiver's per-byte CPU overhead (a duration per byte)").as_duration();
  return o;
}

LogGopsProtocol parse_protocol(const YamlField& f) {
  if (!f.is_map()) f.fail("a map with L, g, G and datatypes");
  f.allow_only({"L", "g", "G", "datatypes"});
  LogGopsProtocol p;
  p.path = f.path();
  p.where = f.where();
  p.L = f.require("L", "the latency L (a duration)").as_duration();
  p.g = f.require("g", "the NIC gap per message g (a duration)").as_duration();
  p.G = f.require("G", "the NIC gap per byte G (a duration per byte, e.g. 0.08ns)").as_duration();
  const YamlField types = f.require("datatypes", "a map of datatype -> {o_s, O_s, o_r, O_r}, with 'contiguous'");
  if (!types.is_map()) types.fail("a map of datatype -> {o_s, O_s, o_r, O_r}, with 'contiguous'");
  for (const auto& [key, value] : types.entries()) {
    std::string error;
    const auto type = parse_datatype(key.as_string(), error);
    if (!type) key.fail(error);
    const std::string name = type->name();
    if (p.datatypes.count(name)) key.fail_with("datatype '" + name + "' given twice");
    p.datatypes[name] = parse_overheads(value);
  }
  if (!p.datatypes.count("contiguous")) types.fail_with("needs an entry for 'contiguous'");
  return p;
}

LogGopsLevel parse_level(const YamlField& f) {
  if (!f.is_map()) f.fail("a map with 'eager' and 'rendezvous'");
  f.allow_only({"eager", "rendezvous"});
  return LogGopsLevel{parse_protocol(f.require("eager", "the eager range (messages below the eager_threshold)")),
                      parse_protocol(f.require("rendezvous", "the rendezvous range (from the eager_threshold)"))};
}

}  // namespace

const LogGopsOverheads& LogGopsProtocol::overheads(const Datatype& type) const {
  const auto it = datatypes.find(type.name());
  if (it == datatypes.end()) {
    std::vector<std::string> names;
    for (const auto& [name, o] : datatypes) names.push_back(name);
    throw Error(where, fmt::format("{}.datatypes: no overheads for datatype '{}' (has: {}); add an entry", path,
                                   type.name(), join(names)));
  }
  return it->second;
}

double LogGopsProtocol::one_way(const Datatype& type, double k) const {
  const auto& o = overheads(type);
  return std::max(o.send(k), g + G * k) + L + o.receive(k);
}

LogGopsParameters::LogGopsParameters(const Platform& platform, const YamlField& section) {
  for (Level l : kAllLevels) thresholds_[static_cast<std::size_t>(l)] = platform.level(l).eager_threshold;
  if (!section.present()) {
    throw Error(SourceLocation{platform.file, 0, 0},
                "the loggops model needs a 'models: loggops:' section (see models/loggops/README.md)");
  }
  if (!section.is_map()) section.fail("a map of levels (default, intra_socket, inter_socket, inter_node)");
  section.allow_only(kLevelKeys);
  std::optional<LogGopsLevel> fallback;
  if (section.child("default").present()) fallback = parse_level(section.child("default"));
  for (Level l : kAllLevels) {
    const YamlField f = section.child(level_name(l));
    if (f.present()) {
      levels_[static_cast<std::size_t>(l)] = parse_level(f);
    } else if (fallback) {
      levels_[static_cast<std::size_t>(l)] = *fallback;
    } else {
      section.fail_with(
          fmt::format("no parameters for level {}: add '{}:' or 'default:'", level_name(l), level_name(l)));
    }
  }
}

const LogGopsProtocol& LogGopsParameters::protocol(Level level, bool eager) const {
  const auto& l = levels_[static_cast<std::size_t>(level)];
  return eager ? l.eager : l.rendezvous;
}

const LogGopsProtocol& LogGopsParameters::protocol_for(Level level, std::uint64_t bytes) const {
  return protocol(level, bytes < thresholds_[static_cast<std::size_t>(level)]);
}

}  // namespace contend
