// contend fit-flowcut: turns flowcut_bench's raw CSV (calibrate/flowcut) into
// a flow-cut table (Martinasso & Mehaut RR-5910, Sec. 6.1) and writes it into
// a platform file's models.flowcut section; optionally the table as CSV too.
#include <fmt/format.h>

#include <iostream>

#include "calibrate/flowcut/fit/cut_fit.hpp"
#include "sim/cli/commands.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/units.hpp"

namespace contend::cli {
namespace {

struct FitOptions {
  std::string raw;
  std::string platform;
  std::string output;
  std::string cuts;
  std::string source;
  bool dry_run = false;
};

int run_fit(const FitOptions& o) {
  const std::string output = o.output.empty() ? o.platform : o.output;
  const calibrate::Calibration c = calibrate::fit_calibration(calibrate::read_raw_csv(o.raw));
  const std::string source = o.source.empty() ? calibrate::default_source(c, o.raw) : o.source;
  const std::string updated = calibrate::update_platform_flowcut(read_text(o.platform), o.platform, c, source);
  if (!o.cuts.empty()) write_file_atomically(o.cuts, [&](std::ostream& out) { out << calibrate::cuts_csv(c); });
  const std::string summary = fmt::format("contend fit-flowcut: L = {} us, T(NC) data time {} ms",
                                          units::in_microseconds(c.latency, 3), units::in_milliseconds(c.tau));
  if (o.dry_run) {
    std::cout << summary << "\n" << updated;
    return 0;
  }
  write_file_atomically(output, [&](std::ostream& out) { out << updated; });
  std::cout << summary << "; wrote " << output << "\n" << calibrate::flowcut_section(c, source);
  return 0;
}

}  // namespace

Action add_fit_flowcut_command(CLI::App& app) {
  auto o = std::make_shared<FitOptions>();
  auto* cmd = app.add_subcommand(
      "fit-flowcut", "Derive the flowcut model's flow cuts (RR-5910 Sec. 6.1) from a flowcut_bench CSV into a platform file");
  cmd->add_option("raw", o->raw, "Raw CSV written by flowcut_bench")->required();
  cmd->add_option("--platform", o->platform, "Platform YAML whose models.flowcut section is rewritten (nothing else changes)")
      ->required();
  cmd->add_option("-o,--output", o->output, "Write the updated platform here instead of over --platform");
  cmd->add_option("--cuts", o->cuts, "Also write the table as CSV (entry,value)");
  cmd->add_option("--source", o->source, "Text for the section's source key (default: names the raw file)");
  cmd->add_flag("--dry-run", o->dry_run, "Print the updated platform file instead of writing it");
  return [o] { return run_fit(*o); };
}

}  // namespace contend::cli
