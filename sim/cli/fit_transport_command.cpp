// contend fit-transport: turns transport_bench's raw CSVs (calibrate/transport)
// into the bytes the transport buffers per level, and writes them into a
// platform file as `levels.<level>.transport_buffer`.
#include <fmt/format.h>

#include <iostream>

#include "calibrate/transport/fit/transport_fit.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/platform_rewrite.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"

namespace contend::cli {
namespace {

void print_fits(const std::map<Level, calibrate::TransportFit>& fits) {
  for (const auto& [level, fit] : fits) {
    fmt::print("{}: transport_buffer {}{} (spread {} .. {} over {} size{}), bw_eff {}, latency {}\n", level_name(level),
               fit.lower_bound ? "at least " : "", units::format_size(fit.buffer_bytes()),
               units::human_size(fit.spread_low), units::human_size(fit.spread_high), fit.informative_sizes,
               fit.informative_sizes == 1 ? "" : "s", units::format_bandwidth(fit.bandwidth),
               units::format_duration(fit.latency));
    fmt::print("  {:>10} {:>7} {:>12} {:>12} {:>14} {:>11}\n", "size", "samples", "send", "recv", "undelivered",
               "informative");
    for (const auto& e : fit.sizes) {
      fmt::print("  {:>10} {:>7} {:>12} {:>12} {:>14} {:>11}\n", units::format_size(e.size), e.samples,
                 units::format_duration(e.send_s), units::format_duration(e.recv_s), units::human_size(e.undelivered),
                 e.informative ? "yes" : "no");
    }
  }
}

int run_fit(const RawFitOptions& o) {
  const auto data = calibrate::read_transport_csvs(o.raw);
  const auto fits = calibrate::fit_transport(data.samples);
  // The update is made (and may fail) before anything is printed. The input is
  // read as YAML only, so that a file fitted before can be fitted again: its
  // transport_buffer keys are the engine's, which the platform reader of this
  // build does not know yet (issue 16's buffering branch parses them).
  const std::string& platform = o.rewrite.platform;
  const std::string updated =
      platform.empty() ? "" : calibrate::update_platform_transport(read_text(platform), platform, fits, data.sources);
  print_fits(fits);
  if (!write_fit_results(o, calibrate::transport_fits_csv(fits), [&] { return updated; })) return 0;
  std::vector<std::string> levels;
  for (const auto& [level, fit] : fits) levels.emplace_back(level_name(level));
  fmt::print("updated levels.{{{}}}.transport_buffer of {}\n", join(levels), o.rewrite.target());
  return 0;
}

}  // namespace

Action add_fit_transport_command(CLI::App& app) {
  auto o = std::make_shared<RawFitOptions>();
  auto* cmd = app.add_subcommand(
      "fit-transport",
      "Fit the bytes the transport buffers (send against receive completion, transport_bench CSVs) into a platform");
  add_raw_fit_options(
      *cmd, *o,
      {.raw = "Raw CSVs written by transport_bench (one or more levels)",
       .rewritten = "levels' transport_buffer keys are",
       .fits = "Write the per-size estimates as CSV (level,size,samples,send_s,recv_s,undelivered_bytes,"
               "informative; '-': standard output)"});
  set_example(*cmd, {"contend fit-transport tests/data/transport/two-levels.csv --platform "
                     "tests/data/transport/small.yaml --dry-run"});
  return [o] { return run_fit(*o); };
}

}  // namespace contend::cli
