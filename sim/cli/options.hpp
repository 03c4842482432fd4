#pragma once
// What every subcommand shares, spelled and explained once (docs/commands.md,
// "Conventions"): where the simulation runs (--platform, --mapping,
// --oversubscribe), how (--model, --progress), where the output goes
// (-o/--output), --quiet, the checks of numbers, and the example that ends
// every --help.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "sim/core/platform.hpp"

namespace contend::cli {

// The model of every command that simulates, unless --model or the
// platform's default_model says otherwise.
inline constexpr const char* kDefaultModel = "maxmin";

// The model a command simulates with, and where that choice came from:
// --model when given (not empty), else the platform's `default_model:`,
// else kDefaultModel.
struct ModelChoice {
  enum class Source { CommandLine, PlatformDefault, BuiltIn };
  std::string name;
  Source source = Source::BuiltIn;

  // "--model", "default_model of FILE", "built-in default".
  std::string source_text(const Platform& platform) const;
  // The name for a command's header: "staircase (default_model of FILE)"
  // when the platform chose it, else the name alone (as before default_model).
  std::string described(const Platform& platform) const;
};
ModelChoice choose_model(const std::string& given, const Platform& platform);

// contend's version (the project's, CMakeLists.txt), e.g. "0.1.0".
std::string contend_version();

CLI::Option* add_platform_option(CLI::App& cmd, std::string& path,
                                 const std::string& help = "Platform YAML file (platforms/*.yaml)");
CLI::Option* add_mapping_option(
    CLI::App& cmd, std::string& mapping,
    const std::string& help =
        "block | cyclic | socket | ompi:POLICY | slurm:DIST | rankfile:FILE | FILE ('rank node "
        "socket core' lines); docs/mappings.md");
// --model, empty unless given (then choose_model picks the platform's default_model or maxmin).
CLI::Option* add_model_option(CLI::App& cmd, std::string& model,
                              const std::string& help =
                                  "Bandwidth-sharing model ('contend models' lists them; "
                                  "default: the platform's default_model, else maxmin)");
CLI::Option* add_progress_option(CLI::App& cmd, std::string& progress);
CLI::Option* add_oversubscribe_flag(CLI::App& cmd, bool& oversubscribe);
CLI::Option* add_quiet_flag(CLI::App& cmd, bool& quiet);
// -o/--output: the command's main output file ("-": standard output).
CLI::Option* add_output_option(CLI::App& cmd, std::string& path, const std::string& help);

// Validators of numbers: NaN and infinities refused ("--alpha: expected a
// finite number, got 'nan'"); negative numbers refused where none makes sense
// (an unsigned option would wrap -1 to 2^64 - 1).
const CLI::Validator& finite_number();
const CLI::Validator& non_negative_number();

// Ends the command's --help with "Example:" and these command lines, each
// runnable from the repository root (tests/conventions/help.sh runs them).
void set_example(CLI::App& cmd, const std::vector<std::string>& command_lines);
CLI::Option* add_hosts_option(CLI::App& cmd, std::string& path);

}  // namespace contend::cli
