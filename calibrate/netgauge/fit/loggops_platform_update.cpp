#include "calibrate/netgauge/fit/loggops_platform_update.hpp"

#include <fmt/format.h>

#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"
#include "sim/core/yaml_edit.hpp"

namespace contend::calibrate {
namespace {

// "o_s: negative intercept, fitted through 0" and the like, for the comment.
void note_clamps(const LineFit& f, const char* intercept, const char* slope, std::vector<std::string>& notes) {
  if (f.intercept_clamped)
    notes.push_back(std::string(intercept) + " 0: negative intercept, line refitted through the origin");
  if (f.slope_clamped) notes.push_back(std::string(slope) + " 0: falling line, refitted as a constant");
}

std::string comment(const std::vector<std::string>& notes) { return notes.empty() ? "" : "  # " + join(notes, "; "); }

std::string overheads_line(const std::string& datatype, const OverheadFit& o) {
  const std::string key = datatype == "contiguous" ? datatype : "\"" + datatype + "\"";
  std::vector<std::string> notes;
  if (o.borrowed) notes.emplace_back("not measured in this range: the other range's values");
  note_clamps(o.send, "o_s", "O_s", notes);
  note_clamps(o.receive, "o_r", "O_r", notes);
  return fmt::format("{}: {{o_s: {}, O_s: {}, o_r: {}, O_r: {}}}{}", key, units::format_duration(o.send.intercept),
                     units::format_duration(o.send.slope), units::format_duration(o.receive.intercept),
                     units::format_duration(o.receive.slope), comment(notes));
}

std::vector<std::string> protocol_lines(const char* name, const ProtocolFit& range) {
  std::vector<std::string> out;
  out.push_back(fmt::format("{}:  # {} contiguous sizes, {} .. {}", name, range.sizes,
                            units::format_size(range.first_bytes), units::format_size(range.last_bytes)));
  out.push_back(fmt::format("  L: {}{}", units::format_duration(range.L),
                            range.L_clamped ? "  # negative residual: set to 0" : ""));
  std::vector<std::string> notes;
  note_clamps(range.gap, "g", "G", notes);
  out.push_back(fmt::format("  g: {}{}", units::format_duration(range.gap.intercept), comment(notes)));
  out.push_back(fmt::format("  G: {}", units::format_duration(range.gap.slope)));
  out.emplace_back("  datatypes:");
  // contiguous first, then the others in name order
  out.push_back("    " + overheads_line("contiguous", range.datatypes.at("contiguous")));
  for (const auto& [datatype, o] : range.datatypes) {
    if (datatype != "contiguous") out.push_back("    " + overheads_line(datatype, o));
  }
  return out;
}

}  // namespace

std::vector<std::string> loggops_level_lines(const LogGopsFit& fit, const LoggopsUpdate& update) {
  std::vector<std::string> out{update.section_name() + ":"};
  std::string switch_text = "no protocol switch found: one range (eager and rendezvous alike)";
  if (fit.switch_bytes) switch_text = "protocol switch at " + units::format_size(*fit.switch_bytes);
  out.push_back("  # LogGOPS, Netgauge PRTT(n, d, s) method, fitted by contend fit-loggops from " + update.source +
                " (" + std::string(level_name(update.level)) + "); " + switch_text);
  out.emplace_back("  # per-byte values (G, O_s, O_r) are durations per byte");
  for (const auto& l : protocol_lines("eager", fit.eager)) out.push_back("  " + l);
  for (const auto& l : protocol_lines("rendezvous", fit.rendezvous)) out.push_back("  " + l);
  return out;
}

bool covers_other_levels(const Platform& platform, Level level) {
  const YamlField loggops = platform.models.child("loggops");
  if (loggops.child("default").present()) return true;
  for (Level l : kAllLevels) {
    if (l != level && !loggops.child(level_name(l)).present()) return false;
  }
  return true;
}

std::string update_platform_loggops(const std::string& text, const std::string& name, const LogGopsFit& fit,
                                    const LoggopsUpdate& update) {
  const Platform before = parse_platform(YamlField::load_string(text, name));
  YamlText yaml(text, name);
  yaml.set_entry("models.loggops." + update.section_name(), loggops_level_lines(fit, update));
  if (update.set_threshold && fit.switch_bytes && *fit.switch_bytes != before.level(update.level).eager_threshold) {
    yaml.set_scalar("levels." + std::string(level_name(update.level)) + ".eager_threshold",
                    units::format_size(*fit.switch_bytes), "protocol switch measured by contend fit-loggops");
  }
  const Platform after = parse_platform(yaml.root());
  if (!after.models.child("loggops").child(update.section_name()).present()) {
    throw Error(name + ": internal error: models.loggops." + update.section_name() + " not written");
  }
  return yaml.text();
}

}  // namespace contend::calibrate
