#pragma once
// `contend mapping compare | search | export` (docs/mappings.md): what the
// three subcommands share.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/core/hosts.hpp"
#include "sim/core/launcher_files.hpp"
#include "sim/core/mapping.hpp"

namespace contend::cli {

Action add_mapping_compare_command(CLI::App& mapping);
Action add_mapping_search_command(CLI::App& mapping);
Action add_mapping_export_command(CLI::App& mapping);

// --jobs: simulations at a time (default: the CPUs this process may use).
CLI::Option* add_jobs_option(CLI::App& cmd, int& jobs);
int default_jobs();

// --program: what ends the printed launcher command lines.
CLI::Option* add_program_option(CLI::App& cmd, std::string& program);

// Writes the plan's files, each complete or absent.
void write_launch_files(const LaunchPlan& plan);
// Prints, indented under `label`, the files and the command line that uses them.
void print_launch_plan(const std::string& label, const LaunchPlan& plan);

// The default path of a launcher's main file beside MAPFILE.
std::string launcher_path(const std::string& mapfile, Launcher launcher);

}  // namespace contend::cli
