#include "calibrate/netgauge/fit/loggops_platform_update.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend::calibrate {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t indentation(const std::string& line) {
  const auto i = line.find_first_not_of(' ');
  return i == std::string::npos ? line.size() : i;
}

bool is_blank_or_comment(const std::string& line) {
  const auto t = trim(line);
  return t.empty() || t[0] == '#';
}

// Lines [first, last] of a block-style entry: its key line and the lines
// indented deeper that follow (trailing blank lines and comments excluded).
struct Span {
  std::size_t first, last, indent;
};

Span block_span(const std::vector<std::string>& lines, const YamlField& key) {
  const auto where = key.where();
  const auto first = static_cast<std::size_t>(where.line - 1);
  const auto indent = static_cast<std::size_t>(where.column - 1);
  if (first >= lines.size() || indentation(lines[first]) != indent) {
    key.fail_with("cannot rewrite '" + key.path() + "' in place: write it in block style (one key per line)");
  }
  std::size_t last = first;
  for (std::size_t i = first + 1; i < lines.size(); ++i) {
    if (is_blank_or_comment(lines[i])) continue;
    if (indentation(lines[i]) <= indent) break;
    last = i;
  }
  return Span{first, last, indent};
}

// The column of a block map's children (its first child's), or parent + 2.
std::size_t child_indent(const YamlField& value, const Span& parent) {
  const auto entries = value.entries();
  if (!entries.empty()) return static_cast<std::size_t>(entries.front().first.where().column - 1);
  return parent.indent + 2;
}

std::optional<std::pair<YamlField, YamlField>> entry(const YamlField& map, std::string_view key) {
  if (!map.is_map()) return std::nullopt;
  for (const auto& e : map.entries()) {
    if (e.first.as_string() == key) return e;
  }
  return std::nullopt;
}

std::vector<std::string> indented(const std::vector<std::string>& block, std::size_t indent) {
  std::vector<std::string> out;
  for (const auto& l : block) out.push_back(std::string(indent, ' ') + l);
  return out;
}

void insert_at(std::vector<std::string>& lines, std::size_t at, const std::vector<std::string>& block) {
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), block.begin(), block.end());
}

// models.loggops.<level>: replaced, or added under what exists.
void write_section(std::vector<std::string>& lines, const YamlField& root, const std::vector<std::string>& block,
                   std::string_view level) {
  const auto models = entry(root, "models");
  if (!models) {
    while (!lines.empty() && trim(lines.back()).empty()) lines.pop_back();
    lines.emplace_back("models:");
    lines.emplace_back("  loggops:");
    for (const auto& l : indented(block, 4)) lines.push_back(l);
    return;
  }
  const Span models_span = block_span(lines, models->first);
  if (models->second.present() && !models->second.is_map()) models->second.fail("a mapping from model name to its parameters");
  const std::size_t model_indent = child_indent(models->second, models_span);
  const auto loggops = entry(models->second, "loggops");
  if (!loggops) {
    std::vector<std::string> add{std::string(model_indent, ' ') + "loggops:"};
    for (const auto& l : indented(block, model_indent + 2)) add.push_back(l);
    insert_at(lines, models_span.last + 1, add);
    return;
  }
  const Span loggops_span = block_span(lines, loggops->first);
  if (loggops->second.present() && !loggops->second.is_map()) loggops->second.fail("a map of levels");
  const std::size_t level_indent = child_indent(loggops->second, loggops_span);
  const auto existing = entry(loggops->second, level);
  if (!existing) {
    insert_at(lines, loggops_span.last + 1, indented(block, level_indent));
    return;
  }
  const Span old = block_span(lines, existing->first);
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(old.first), lines.begin() + static_cast<std::ptrdiff_t>(old.last) + 1);
  insert_at(lines, old.first, indented(block, old.indent));
}

// levels.<level>.eager_threshold: on a line of its own (block style; the
// line is replaced, with a comment) or inside a one-line flow map (only the
// value up to the next ',' or '}' is replaced).
void write_threshold(std::vector<std::string>& lines, const YamlField& root, std::string_view level, std::uint64_t bytes) {
  const YamlField key_value = root.require("levels", "the levels section").require(level, "the measured level");
  const auto threshold = entry(key_value, "eager_threshold");
  if (!threshold) key_value.fail_with("has no eager_threshold to set");
  const auto where = threshold->first.where();
  auto& line = lines.at(static_cast<std::size_t>(where.line - 1));
  const auto column = static_cast<std::size_t>(where.column - 1);
  const std::string key = "eager_threshold:";
  if (line.compare(column, key.size(), key) != 0) threshold->first.fail_with("cannot rewrite eager_threshold in place");
  if (trim(line).rfind(key, 0) == 0) {
    line = std::string(indentation(line), ' ') + key + " " + format_bytes(bytes) +
           "  # protocol switch measured by contend fit-loggops";
    return;
  }
  const auto end = line.find_first_of(",}", column);
  if (end == std::string::npos) threshold->first.fail_with("cannot rewrite eager_threshold in place: write it on one line");
  line = line.substr(0, column) + key + " " + format_bytes(bytes) + line.substr(end);
}

// "o_s: negative intercept, fitted through 0" and the like, for the comment.
void note_clamps(const LineFit& f, const char* intercept, const char* slope, std::vector<std::string>& notes) {
  if (f.intercept_clamped) notes.push_back(std::string(intercept) + " 0: negative intercept, line refitted through the origin");
  if (f.slope_clamped) notes.push_back(std::string(slope) + " 0: falling line, refitted as a constant");
}

std::string comment(const std::vector<std::string>& notes) { return notes.empty() ? "" : "  # " + join(notes, "; "); }

std::string overheads_line(const std::string& datatype, const OverheadFit& o) {
  const std::string key = datatype == "contiguous" ? datatype : "\"" + datatype + "\"";
  std::vector<std::string> notes;
  if (o.borrowed) notes.emplace_back("not measured in this range: the other range's values");
  note_clamps(o.send, "o_s", "O_s", notes);
  note_clamps(o.receive, "o_r", "O_r", notes);
  return fmt::format("{}: {{o_s: {}, O_s: {}, o_r: {}, O_r: {}}}{}", key, format_seconds(o.send.intercept),
                     format_seconds(o.send.slope), format_seconds(o.receive.intercept), format_seconds(o.receive.slope),
                     comment(notes));
}

std::vector<std::string> protocol_lines(const char* name, const ProtocolFit& range) {
  std::vector<std::string> out;
  out.push_back(fmt::format("{}:  # {} contiguous sizes, {} .. {}", name, range.sizes, format_bytes(range.first_bytes),
                            format_bytes(range.last_bytes)));
  out.push_back(fmt::format("  L: {}{}", format_seconds(range.L), range.L_clamped ? "  # negative residual: set to 0" : ""));
  std::vector<std::string> notes;
  note_clamps(range.gap, "g", "G", notes);
  out.push_back(fmt::format("  g: {}{}", format_seconds(range.gap.intercept), comment(notes)));
  out.push_back(fmt::format("  G: {}", format_seconds(range.gap.slope)));
  out.emplace_back("  datatypes:");
  // contiguous first, then the others in name order
  out.push_back("    " + overheads_line("contiguous", range.datatypes.at("contiguous")));
  for (const auto& [datatype, o] : range.datatypes) {
    if (datatype != "contiguous") out.push_back("    " + overheads_line(datatype, o));
  }
  return out;
}

}  // namespace

std::string format_seconds(double raw) {
  const double s = std::stod(fmt::format("{:.4g}", raw));
  if (s == 0) return "0us";
  if (s >= 1) return fmt::format("{:.4g}s", s);
  if (s >= 1e-3) return fmt::format("{:.4g}ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:.4g}us", s * 1e6);
  return fmt::format("{:.4g}ns", s * 1e9);
}

std::string format_bytes(std::uint64_t bytes) {
  if (bytes >= (1ULL << 20) && bytes % (1ULL << 20) == 0) return fmt::format("{}MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{}KiB", bytes >> 10);
  return std::to_string(bytes);
}

std::vector<std::string> loggops_level_lines(const LogGopsFit& fit, const LoggopsUpdate& update) {
  std::vector<std::string> out{update.section_name() + ":"};
  std::string switch_text = "no protocol switch found: one range (eager and rendezvous alike)";
  if (fit.switch_bytes) switch_text = "protocol switch at " + format_bytes(*fit.switch_bytes);
  out.push_back("  # LogGOPS, Netgauge PRTT(n, d, s) method, fitted by contend fit-loggops from " + update.source + " (" +
                std::string(level_name(update.level)) + "); " + switch_text);
  out.emplace_back("  # per-byte values (G, O_s, O_r) are durations per byte");
  for (const auto& l : protocol_lines("eager", fit.eager)) out.push_back("  " + l);
  for (const auto& l : protocol_lines("rendezvous", fit.rendezvous)) out.push_back("  " + l);
  return out;
}

std::string update_platform_loggops(const std::string& text, const std::string& name, const LogGopsFit& fit,
                                    const LoggopsUpdate& update) {
  const Platform before = parse_platform(YamlField::load_string(text, name));
  const auto root = YamlField::load_string(text, name);
  const std::string_view level = level_name(update.level);
  auto lines = split_lines(text);
  // The threshold's line comes before models: in every shipped file, but
  // models may come first; so edit the section, then find the threshold again.
  write_section(lines, root, loggops_level_lines(fit, update), update.section_name());
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  if (update.set_threshold && fit.switch_bytes && *fit.switch_bytes != before.level(update.level).eager_threshold) {
    lines = split_lines(out);
    write_threshold(lines, YamlField::load_string(out, name), level, *fit.switch_bytes);
    out.clear();
    for (const auto& line : lines) out += line + "\n";
  }
  const Platform after = parse_platform(YamlField::load_string(out, name));
  if (!after.models.child("loggops").child(update.section_name()).present()) {
    throw Error(name + ": internal error: models.loggops." + update.section_name() + " not written");
  }
  return out;
}

}  // namespace contend::calibrate
