// contend fit-loggops: fits netgauge_bench's PRTT(n, d, s) timings
// (calibrate/netgauge) into LogGOPS parameters per protocol range and
// datatype, and writes them into a platform file's models.loggops.<level>.
#include <fmt/format.h>

#include <iostream>

#include "calibrate/netgauge/fit/loggops_platform_update.hpp"
#include "calibrate/netgauge/fit/netgauge_fit.hpp"
#include "models/registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/platform_rewrite.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend::cli {
namespace {

struct FitOptions : RawFitOptions {
  std::string level = "intra_socket";
  std::string section;
  std::string switch_choice = "auto";
  std::string statistic = "median";
  std::string sizes;
};

Level parse_level_option(const std::string& text) {
  std::vector<std::string> names;
  for (Level l : kAllLevels) {
    names.emplace_back(level_name(l));
    if (text == level_name(l)) return l;
  }
  throw Error("--level: unknown level '" + text + "'" + did_you_mean(text, names) + "; expected " + join(names));
}

// --switch auto | none | platform | SIZE ("platform": the level's eager_threshold).
calibrate::SwitchChoice parse_switch(const FitOptions& o, Level level) {
  calibrate::SwitchChoice c;
  if (o.switch_choice == "auto") return c;
  if (o.switch_choice == "none") {
    c.mode = calibrate::SwitchChoice::Mode::None;
    return c;
  }
  c.mode = calibrate::SwitchChoice::Mode::Given;
  if (o.switch_choice == "platform") {
    if (o.rewrite.platform.empty()) throw Error("--switch platform needs --platform");
    c.bytes = parse_platform(YamlField::load_file(o.rewrite.platform)).level(level).eager_threshold;
    return c;
  }
  const auto bytes = units::parse_size(o.switch_choice);
  if (!bytes || *bytes == 0) {
    throw Error("--switch: expected auto, none, platform or " + std::string(units::kSizeHelp) + ", got '" +
                o.switch_choice + "'");
  }
  c.bytes = *bytes;
  return c;
}

void print_range(const char* name, const calibrate::ProtocolFit& r) {
  fmt::print("{} ({} contiguous sizes, {} .. {} B): L {}  g {}  G {}/B{}\n", name, r.sizes, r.first_bytes, r.last_bytes,
             units::format_duration(r.L), units::format_duration(r.gap.intercept), units::format_duration(r.gap.slope),
             r.L_clamped ? "  (L: negative residual, set to 0)" : "");
  for (const auto& [datatype, o] : r.datatypes) {
    fmt::print("  {:<22} o_s {:>10} O_s {:>12}/B  o_r {:>10} O_r {:>12}/B{}\n", datatype,
               units::format_duration(o.send.intercept), units::format_duration(o.send.slope),
               units::format_duration(o.receive.intercept), units::format_duration(o.receive.slope),
               o.borrowed ? "  (not measured here: other range's)" : "");
  }
}

void print_fit(const calibrate::LogGopsFit& fit) {
  std::vector<std::string> changes;
  for (std::size_t i = 0; i < fit.changepoints.size(); ++i) {
    changes.push_back(fmt::format("{} B (step {:+.0f}%)", fit.changepoint_bytes[i], 100 * fit.changepoints[i].jump));
  }
  fmt::print("changepoints of PRTT(1,0,s): {}\n", changes.empty() ? "none" : join(changes));
  fmt::print("protocol switch: {}\n",
             fit.switch_bytes ? std::to_string(*fit.switch_bytes) + " B (first rendezvous size)" : "none");
  fmt::print("Netgauge's L = PRTT(1,0,s_min)/2: {}\n", units::format_duration(fit.netgauge_L));
  print_range("eager", fit.eager);
  if (fit.switch_bytes) print_range("rendezvous", fit.rendezvous);
}

int run_fit(const FitOptions& o) {
  const Level level = parse_level_option(o.level);
  if (!o.section.empty() && o.section != "default" && o.section != o.level) {
    throw Error("--section: expected 'default' or the level '" + o.level + "', got '" + o.section + "'");
  }
  const auto estimates =
      calibrate::estimate_sizes(calibrate::read_netgauge_csvs(o.raw),
                                o.statistic == "min" ? calibrate::Statistic::Minimum : calibrate::Statistic::Median);
  const auto fit = calibrate::fit_loggops(estimates, parse_switch(o, level));
  print_fit(fit);
  if (!o.fits.empty()) write_file_atomically(o.fits, [&](std::ostream& out) { out << calibrate::fits_csv(fit); });
  if (!o.sizes.empty())
    write_file_atomically(o.sizes, [&](std::ostream& out) { out << calibrate::sizes_csv(estimates, fit); });
  const std::string& platform = o.rewrite.platform;
  if (platform.empty()) return 0;
  calibrate::LoggopsUpdate update{level, file_names(o.raw), o.switch_choice != "platform", o.section};
  const std::string original = read_text(platform);
  const Platform before = parse_platform(YamlField::load_string(original, platform));
  if (o.section.empty() && !calibrate::covers_other_levels(before, level)) {
    update.section = "default";
    fmt::print("models.loggops has no 'default' and not every other level: writing the fit as 'default'\n");
  }
  const std::uint64_t threshold = before.level(level).eager_threshold;
  const bool threshold_changed = update.set_threshold && fit.switch_bytes && *fit.switch_bytes != threshold;
  const std::string updated = calibrate::update_platform_loggops(original, platform, fit, update);
  if (!write_platform_rewrite(o.rewrite, updated)) return 0;
  fmt::print("updated models.loggops.{}{} of {}\n", update.section_name(),
             threshold_changed ? " and levels." + o.level + ".eager_threshold" : "", o.rewrite.target());
  return 0;
}

}  // namespace

Action add_fit_loggops_command(CLI::App& app) {
  auto o = std::make_shared<FitOptions>();
  auto* cmd = app.add_subcommand(
      "fit-loggops", "Fit LogGOPS parameters from netgauge_bench CSVs (Netgauge PRTT method) into a platform file");
  cmd->add_option("raw", o->raw, "Raw CSVs written by netgauge_bench (one must hold contiguous data)")->required();
  add_platform_rewrite_options(*cmd, o->rewrite, "models.loggops.LEVEL and the level's eager_threshold are", false);
  cmd->add_option("--level", o->level, "The level the ranks were placed on")->capture_default_str();
  cmd->add_option("--section", o->section,
                  "Write under models.loggops.default instead of the level's own key (covers levels without one)");
  cmd->add_option(
         "--switch", o->switch_choice,
         "Protocol switch: auto (detected), none (one range), platform (the level's eager_threshold) or a size")
      ->capture_default_str();
  cmd->add_option("--statistic", o->statistic,
                  "Per quantity and size, the median of the repetitions (Netgauge) or their minimum (a loaded machine)")
      ->check(CLI::IsMember({"median", "min"}))
      ->capture_default_str();
  cmd->add_option(
      "--fits", o->fits,
      "Write the fitted parameters as CSV (range,datatype,L,g,G,o_s,O_s,o_r,O_r,...; '-': standard output)");
  cmd->add_option("--sizes", o->sizes,
                  "Write the per-size estimates, ping-pong and model round trip as CSV ('-': standard output)");
  set_example(*cmd, {"contend fit-loggops tests/data/netgauge/exact.csv --platform tests/data/netgauge/small.yaml "
                     "--dry-run"});
  return [o] { return run_fit(*o); };
}

}  // namespace contend::cli
