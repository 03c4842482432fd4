// contend fit-flowcut: turns flowcut_bench's raw CSV (calibrate/flowcut) into
// a flow-cut table (Martinasso & Mehaut RR-5910, Sec. 6.1) and writes it into
// a platform file's models.flowcut section; optionally the table as CSV too.
#include <fmt/format.h>

#include <iostream>

#include "calibrate/flowcut/fit/cut_fit.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/cli/platform_rewrite.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/units.hpp"

namespace contend::cli {
namespace {

struct FitOptions {
  std::string raw;
  PlatformRewrite rewrite;
  std::string cuts;
  std::string source;
};

int run_fit(const FitOptions& o) {
  const calibrate::Calibration c = calibrate::fit_calibration(calibrate::read_raw_csv(o.raw));
  const std::string source = o.source.empty() ? calibrate::default_source(c, o.raw) : o.source;
  const std::string& platform = o.rewrite.platform;
  const std::string updated = calibrate::update_platform_flowcut(read_text(platform), platform, c, source);
  if (!o.cuts.empty()) write_file_atomically(o.cuts, [&](std::ostream& out) { out << calibrate::cuts_csv(c); });
  const std::string summary = fmt::format("contend fit-flowcut: L = {} us, T(NC) data time {} ms",
                                          units::in_microseconds(c.latency, 3), units::in_milliseconds(c.tau));
  if (o.rewrite.dry_run) std::cout << summary << "\n";
  if (write_platform_rewrite(o.rewrite, updated)) {
    std::cout << summary << "; wrote " << o.rewrite.target() << "\n" << calibrate::flowcut_section(c, source);
  }
  return 0;
}

}  // namespace

Action add_fit_flowcut_command(CLI::App& app) {
  auto o = std::make_shared<FitOptions>();
  auto* cmd = app.add_subcommand(
      "fit-flowcut",
      "Derive the flowcut model's flow cuts (RR-5910 Sec. 6.1) from a flowcut_bench CSV into a platform file");
  cmd->add_option("raw", o->raw, "Raw CSV written by flowcut_bench")->required();
  add_platform_rewrite_options(*cmd, o->rewrite, "models.flowcut section is", true);
  cmd->add_option("--cuts", o->cuts, "Also write the table as CSV (entry,value; '-': standard output)");
  cmd->add_option("--source", o->source, "Text for the section's source key (default: names the raw file)");
  set_example(*cmd, {"contend fit-flowcut tests/data/flowcut/raw.csv --platform tests/data/flowcut/small.yaml "
                     "-o flowcut.yaml --cuts cuts.csv"});
  return [o] { return run_fit(*o); };
}

}  // namespace contend::cli
