#pragma once
// The options several subcommands share, each spelled and explained once
// (docs/commands.md): where the simulation runs (--platform, --mapping,
// --oversubscribe), how (--model, --progress), and --quiet.
#include <CLI/CLI.hpp>
#include <string>

namespace contend::cli {

CLI::Option* add_platform_option(CLI::App& cmd, std::string& path,
                                 const std::string& help = "Platform YAML file (platforms/*.yaml)");
CLI::Option* add_mapping_option(
    CLI::App& cmd, std::string& mapping,
    const std::string& help =
        "block | cyclic | socket | ompi:POLICY | slurm:DIST | rankfile:FILE | FILE ('rank node "
        "socket core' lines); docs/mappings.md");
CLI::Option* add_model_option(CLI::App& cmd, std::string& model,
                              const std::string& help = "Bandwidth-sharing model ('contend models' lists them)");
CLI::Option* add_progress_option(CLI::App& cmd, std::string& progress);
CLI::Option* add_oversubscribe_flag(CLI::App& cmd, bool& oversubscribe);
CLI::Option* add_quiet_flag(CLI::App& cmd, bool& quiet);
CLI::Option* add_hosts_option(CLI::App& cmd, std::string& path);

}  // namespace contend::cli
