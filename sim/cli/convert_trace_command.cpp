// contend convert-trace: an OTF2 archive as a SimGrid time-independent trace.
#include <fmt/format.h>

#include "sim/cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "traces/convert/otf2_to_ti.hpp"

namespace contend::cli {
namespace {

struct ConvertOptions {
  std::string trace, output, speed = "1Gf";
};

int run_convert(const ConvertOptions& o) {
  if (!o.trace.ends_with(".otf2")) throw Error(o.trace + ": expected an OTF2 anchor file (*.otf2)");
  const auto speed = units::parse_speed(o.speed);
  if (!speed || *speed <= 0) throw Error("--speed: expected a speed such as 1Gf or 2.5e9, got '" + o.speed + "'");
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
  cmd->add_option("--output", o->output, "Directory for trace.txt (index) and rank-R.txt")->required();
  cmd->add_option("--speed", o->speed, "Flop/s that turn computation seconds into TI flops (the replay's core speed)")
      ->capture_default_str();
  return [o] { return run_convert(*o); };
}

}  // namespace contend::cli
