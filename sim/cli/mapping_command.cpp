// contend mapping: the parent of compare, search and export.
#include <fmt/format.h>
#include <sched.h>

#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include "sim/cli/mapping_commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/file_io.hpp"

namespace contend::cli {

int default_jobs() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

CLI::Option* add_jobs_option(CLI::App& cmd, int& jobs) {
  return cmd.add_option("--jobs", jobs, "Simulations run at a time, each in a child process (default: the CPUs here)")
      ->check(CLI::PositiveNumber);
}

CLI::Option* add_program_option(CLI::App& cmd, std::string& program) {
  return cmd.add_option("--program", program, "The application and its arguments, ending the printed launch command")
      ->capture_default_str();
}

void write_launch_files(const LaunchPlan& plan) {
  for (const auto& file : plan.files) write_file_atomically(file.path, [&](std::ostream& out) { out << file.content; });
}

void print_launch_plan(const std::string& label, const LaunchPlan& plan) {
  std::vector<std::string> paths;
  for (const auto& file : plan.files) paths.push_back(file.path);
  fmt::print("  {:<15} {}\n", label, fmt::join(paths, ", "));
  fmt::print("  {:<15} {}\n", "", plan.command);
  for (const auto& note : plan.notes) fmt::print("  {:<15} ({})\n", "", note);
}

std::string launcher_path(const std::string& mapfile, Launcher launcher) {
  std::filesystem::path path(mapfile);
  switch (launcher) {
    case Launcher::Ompi4:
      return path.replace_extension(".rankfile").string();
    case Launcher::Ompi5:
      return path.replace_extension(".ompi5.rankfile").string();
    case Launcher::Slurm:
      return path.replace_extension(".slurm-hosts").string();
    case Launcher::Mpich:
      return path.replace_extension(".machinefile").string();
  }
  return mapfile;
}

Action add_mapping_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("mapping", "What-if mappings: compare them, search one by simulation, hand it to a launcher");
  cmd->require_subcommand(1);
  auto actions = std::make_shared<std::map<std::string, Action>>();
  (*actions)["compare"] = add_mapping_compare_command(*cmd);
  (*actions)["search"] = add_mapping_search_command(*cmd);
  (*actions)["export"] = add_mapping_export_command(*cmd);
  set_example(*cmd,
              {"contend mapping compare --platform platforms/epyc-rome-2node.yaml "
               "--pattern traces/samples/halo-256.pattern --model staircase --mappings block,cyclic,ompi:default"});
  return [cmd, actions] {
    for (const auto* sub : cmd->get_subcommands()) return actions->at(sub->get_name())();
    return 2;
  };
}

}  // namespace contend::cli
