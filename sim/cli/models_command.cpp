#include <fmt/format.h>

#include "models/registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/options.hpp"
#include "sim/engine/model_composition.hpp"

namespace contend::cli {

Action add_models_command(CLI::App& app) {
  auto names_only = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand(
      "models", "List the bandwidth-sharing models (--model NAME), with their papers, and how to compose them");
  cmd->add_flag("--names", *names_only, "Print only the names, one per line (for scripts)");
  set_example(*cmd, {"contend models --names"});
  return [names_only] {
    for (const auto& m : all_models().all()) {
      if (*names_only) {
        fmt::print("{}\n", m.name);
      } else {
        fmt::print("{:<12} {}\n{:<12} {}\n", m.name, m.description, "", m.citation);
      }
    }
    if (!*names_only) fmt::print("\n{}", model_composition_help());
    return 0;
  };
}

}  // namespace contend::cli
