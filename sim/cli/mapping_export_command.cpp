// contend mapping export: any mapping --mapping takes (a search's MAPFILE,
// a launcher's policy, a rankfile) as one launcher's files and command line.
#include <fmt/format.h>

#include "sim/cli/mapping_commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/platform.hpp"

namespace contend::cli {
namespace {

struct ExportOptions {
  std::string platform, mapping, hosts, launcher = "ompi4", output, program = "./app";
  int ranks = 0;
  bool oversubscribe = false;
  bool quiet = false;
};

int run_export(const ExportOptions& o) {
  const Platform platform = read_platform(o.platform);
  const Machine machine = machine_of(platform, o.hosts);
  const Launcher launcher = launcher_by_name(o.launcher);
  const Mapping mapping = make_mapping(o.mapping, o.ranks, machine, o.oversubscribe);
  const LaunchPlan plan = launch_plan(launcher, mapping, machine, o.output, o.program);
  write_launch_files(plan);
  if (o.quiet) return 0;
  fmt::print("contend mapping export: {} ranks on {}, mapping {}\n", o.ranks, platform.name, o.mapping);
  print_launch_plan(o.launcher, plan);
  return 0;
}

}  // namespace

Action add_mapping_export_command(CLI::App& mapping) {
  auto o = std::make_shared<ExportOptions>();
  auto* cmd = mapping.add_subcommand("export", "A mapping as a launcher's files and the command line that uses them");
  add_platform_option(*cmd, o->platform);
  add_mapping_option(*cmd, o->mapping)->required();
  cmd->add_option("--ranks", o->ranks, "Number of ranks")->required()->check(CLI::Range(1, 1 << 24));
  cmd->add_option("--launcher", o->launcher, "ompi4 | ompi5 | slurm | mpich")->capture_default_str();
  cmd->add_option("-o,--output", o->output, "The launcher's main file (companions are written beside it)")->required();
  add_program_option(*cmd, o->program);
  add_hosts_option(*cmd, o->hosts);
  add_oversubscribe_flag(*cmd, o->oversubscribe);
  add_quiet_flag(*cmd, o->quiet);
  set_example(*cmd, {"contend mapping export --platform platforms/epyc-rome-2node.yaml --mapping ompi:default "
                     "--ranks 256 --launcher ompi4 -o job.rankfile"});
  return [o] { return run_export(*o); };
}

}  // namespace contend::cli
