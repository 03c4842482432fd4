#include "models/flowcut/cut_table.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "sim/core/limits.hpp"

namespace contend {
namespace {

constexpr const char* kCutHelp = "a flow cut: a number >= 0 or a fraction such as 3/4";

std::optional<double> parse_number(std::string_view text) {
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::vector<double> parse_sequence(const YamlField& field) {
  if (!field.is_sequence()) field.fail("a list of flow cuts such as [1/2, 2]");
  std::vector<double> cuts;
  for (const auto& item : field.items()) cuts.push_back(parse_cut(item));
  if (cuts.empty()) field.fail("a non-empty list of flow cuts such as [1/2, 2]");
  return cuts;
}

}  // namespace

double parse_cut(const YamlField& field) {
  if (!field.is_scalar()) field.fail(kCutHelp);
  const std::string text = field.as_string();
  const auto slash = text.find('/');
  std::optional<double> value;
  if (slash == std::string::npos) {
    value = parse_number(text);
  } else {
    const auto num = parse_number(std::string_view(text).substr(0, slash));
    const auto den = parse_number(std::string_view(text).substr(slash + 1));
    if (num && den && *den > 0) value = *num / *den;
  }
  if (!value || *value < 0) field.fail(kCutHelp);
  // A cut multiplies a flow's time: a huge one would make it infinite.
  if (*value > limits::kMaxPlainNumber) {
    field.refuse(limits::exceeds("the flow cut '" + text + "'", limits::kMaxPlainNumberText));
  }
  return *value;
}

FlowCutTable parse_flowcut_table(const YamlField& section) {
  if (!section.present()) {
    section.fail_with(
        "the flowcut model needs the flow-cut table of the network (Martinasso & Mehaut Table 2) "
        "under models: flowcut: in the platform file (see models/flowcut/README.md)");
  }
  if (!section.is_map()) section.fail("a mapping with same_direction, outgo_income and alone");
  section.allow_only({"source", "same_direction", "outgo_income", "alone"});
  FlowCutTable table;
  if (const auto source = section.child("source"); source.present()) table.source = source.as_string();

  const auto same = section.require("same_direction", "the cuts of outgo and income chains");
  same.allow_only({"odd_conflicts", "even_conflicts"});
  table.odd_conflicts = parse_sequence(same.require("odd_conflicts", "a list of flow cuts"));
  table.even_conflicts = parse_sequence(same.require("even_conflicts", "a list of flow cuts"));

  const auto mixed = section.require("outgo_income", "the cuts of the C->X-> conflict");
  mixed.allow_only({"incoming", "outgoing"});
  table.incoming = parse_cut(mixed.require("incoming", "a flow cut"));
  table.outgoing = parse_cut(mixed.require("outgoing", "a flow cut"));

  const auto alone = section.require("alone", "the cuts of 1-communication conflicts");
  alone.allow_only({"include", "start_end"});
  table.include = parse_cut(alone.require("include", "a flow cut"));
  table.start_end = parse_cut(alone.require("start_end", "a flow cut"));
  return table;
}

}  // namespace contend
