// contend convert-trace: an OTF2 archive as a SimGrid time-independent trace.
#include <fmt/format.h>

#include <filesystem>

#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "traces/convert/otf2_to_ti.hpp"

namespace contend::cli {
namespace {

struct ConvertOptions {
  std::string trace, output, speed = "1Gf";
};

// The output is a folder of files (trace.txt and rank-R.txt): made here, so
// that a path that cannot be one is a clear error.
void make_output_folder(const std::string& path) {
  if (path == "-") throw Error("-o/--output: convert-trace writes a folder (trace.txt, rank-R.txt), not '-'");
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error) throw Error("cannot create the folder '" + path + "': " + error.message());
}

int run_convert(const ConvertOptions& o) {
  if (!o.trace.ends_with(".otf2")) throw Error(o.trace + ": expected an OTF2 anchor file (*.otf2)");
  const auto speed = units::parse_speed(o.speed);
  if (!speed || *speed <= 0) throw Error("--speed: expected a speed such as 1Gf or 2.5e9, got '" + o.speed + "'");
  make_output_folder(o.output);
  const auto summary = convert_otf2_to_ti(o.trace, o.output, *speed);
  fmt::print("wrote {}/trace.txt: {} ranks, {} actions (computation at {:.4g} flop/s)\n", o.output, summary.ranks,
             summary.actions, *speed);
  return 0;
}

}  // namespace

Action add_convert_trace_command(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  auto* cmd = app.add_subcommand("convert-trace", "Write an OTF2 archive as a SimGrid time-independent trace");
  cmd->add_option("--trace", o->trace, "OTF2 anchor file (traces.otf2)")->required();
  cmd->add_option("-o,--output", o->output, "Folder for trace.txt (index) and rank-R.txt")->required();
  cmd->add_option("--speed", o->speed, "Flop/s that turn computation seconds into TI flops (the replay's core speed)")
      ->capture_default_str();
  set_example(*cmd, {"contend convert-trace --trace scorep-run/traces.otf2 -o ti --speed 1Gf"});
  return [o] { return run_convert(*o); };
}

}  // namespace contend::cli
