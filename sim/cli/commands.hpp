#pragma once
// Subcommands of the `contend` executable. Each registers its options on the
// CLI11 app and returns the action to run once parsing succeeded.
#include <CLI/CLI.hpp>
#include <functional>

namespace contend::cli {

using Action = std::function<int()>;

Action add_simulate_command(CLI::App& app);
Action add_explain_command(CLI::App& app);
Action add_generate_pattern_command(CLI::App& app);
Action add_models_command(CLI::App& app);
Action add_platform_command(CLI::App& app);
Action add_analyze_command(CLI::App& app);
Action add_compare_command(CLI::App& app);
Action add_fit_multipair_command(CLI::App& app);
Action add_fit_transport_command(CLI::App& app);
Action add_fit_loggops_command(CLI::App& app);
Action add_pingpong_command(CLI::App& app);
Action add_progress_command(CLI::App& app);
Action add_fit_taulop_command(CLI::App& app);
Action add_fit_flowcut_command(CLI::App& app);
Action add_select_command(CLI::App& app);
Action add_convert_trace_command(CLI::App& app);
Action add_mapping_command(CLI::App& app);
Action add_sweep_command(CLI::App& app);

// Peak resident memory of this process, bytes.
long long peak_memory_bytes();

}  // namespace contend::cli
