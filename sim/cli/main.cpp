// contend: predicts how long MPI communication takes on a cluster, rank by
// rank, with contention. This file only dispatches to the subcommands and
// turns how a run ended into its exit status (docs/commands.md, "Exit
// status"): 0 done, 1 bad input, 2 usage, 3 a limit reached (one of
// contend's, docs/limits.md, or --time-limit), 4 internal error; 128 + the
// signal when interrupted.
#include <algorithm>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/interruption.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text.hpp"

namespace {

constexpr int kBadInput = 1;
constexpr int kUsage = 2;
// 3 too when the simulation gives up at --time-limit (sim/engine/simulation.cpp).
constexpr int kLimitReached = 3;
constexpr int kInternal = 4;

// CLI11 only says which arguments it did not expect; name the first unknown
// option and suggest the closest known one, as Ninja does.
// The subcommand the words name (`contend mapping search ...`: search), and
// the index of the first word after its name.
std::pair<CLI::App*, int> named_subcommand(CLI::App& app, int argc, char** argv) {
  CLI::App* sub = &app;
  int next = 1;
  while (next < argc) {
    try {
      sub = sub->get_subcommand(argv[next]);
    } catch (const CLI::OptionNotFound&) {
      break;
    }
    ++next;
  }
  return {sub, next};
}

std::string command_path(const CLI::App* sub) {
  std::string path = sub->get_name();
  for (const CLI::App* p = sub->get_parent(); p != nullptr && p->get_parent() != nullptr; p = p->get_parent())
    path = p->get_name() + " " + path;
  return path;
}

std::optional<std::string> explain_extras(CLI::App& app, int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  auto [sub, first] = named_subcommand(app, argc, argv);
  if (sub == &app) return std::nullopt;
  // A word where a subcommand of this one was expected.
  const auto children = sub->get_subcommands([](CLI::App*) { return true; });
  if (!children.empty() && first < argc && argv[first][0] != '-') {
    std::vector<std::string> names;
    for (const auto* s : children) names.push_back(s->get_name());
    return "unknown command '" + std::string(argv[first]) + "' for 'contend " + command_path(sub) + "'" +
           contend::did_you_mean(argv[first], names) + "; commands: " + contend::join(names);
  }
  std::vector<std::string> known;
  for (const auto* option : sub->get_options()) {
    for (const auto& name : option->get_lnames()) known.push_back("--" + name);
  }
  for (int i = first; i < argc; ++i) {
    std::string word = argv[i];
    if (word.rfind("--", 0) != 0) continue;
    word = word.substr(0, word.find('='));
    if (std::find(known.begin(), known.end(), word) != known.end()) continue;
    return "unknown option '" + word + "' for 'contend " + command_path(sub) + "'" + contend::did_you_mean(word, known);
  }
  return std::nullopt;
}

// An error contend did not foresee: one line and what to report, never a dump.
int internal_error(const std::string& what) {
  // The first line, then what to do; any details (e.g. which ranks wait) after.
  const auto end_of_line = what.find('\n');
  std::string first = what.substr(0, end_of_line);
  while (!first.empty() && (first.back() == ':' || first.back() == ' ')) first.pop_back();
  std::cerr << "contend: internal error: " << first << " (please report it with the command line and input files)"
            << (end_of_line == std::string::npos ? "" : what.substr(end_of_line)) << "\n";
  return kInternal;
}

int run(const contend::cli::Action& action) {
  const std::string internal = "internal error: ";
  try {
    return action();
  } catch (const contend::LimitError& e) {
    std::cerr << "contend: error: " << e.what() << "\n";
    return kLimitReached;
  } catch (const contend::Error& e) {
    const std::string what = e.what();
    if (what.starts_with(internal)) return internal_error(what.substr(internal.size()));
    std::cerr << "contend: error: " << what << "\n";
    return kBadInput;
  } catch (const std::bad_alloc&) {
    return internal_error("out of memory");
  } catch (const std::exception& e) {
    return internal_error(e.what());
  } catch (...) {
    return internal_error("an unknown exception");
  }
}

}  // namespace

int main(int argc, char** argv) {
  contend::cli::report_interruptions();
  CLI::App app{"contend: predicts the time of MPI communication on clusters, rank by rank, with contention", "contend"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "contend " + contend::cli::contend_version());
  std::map<std::string, contend::cli::Action> actions;
  actions["simulate"] = contend::cli::add_simulate_command(app);
  actions["explain"] = contend::cli::add_explain_command(app);
  actions["generate-pattern"] = contend::cli::add_generate_pattern_command(app);
  actions["models"] = contend::cli::add_models_command(app);
  actions["platform"] = contend::cli::add_platform_command(app);
  actions["analyze"] = contend::cli::add_analyze_command(app);
  actions["compare"] = contend::cli::add_compare_command(app);
  actions["fit-multipair"] = contend::cli::add_fit_multipair_command(app);
  actions["fit-loggops"] = contend::cli::add_fit_loggops_command(app);
  actions["pingpong"] = contend::cli::add_pingpong_command(app);
  actions["progress"] = contend::cli::add_progress_command(app);
  actions["fit-taulop"] = contend::cli::add_fit_taulop_command(app);
  actions["fit-flowcut"] = contend::cli::add_fit_flowcut_command(app);
  actions["fit-transport"] = contend::cli::add_fit_transport_command(app);
  actions["select"] = contend::cli::add_select_command(app);
  actions["convert-trace"] = contend::cli::add_convert_trace_command(app);
  actions["mapping"] = contend::cli::add_mapping_command(app);
  actions["sweep"] = contend::cli::add_sweep_command(app);
  contend::cli::set_example(app, {"contend simulate --platform platforms/epyc-rome-2node.yaml "
                                  "--pattern traces/samples/halo-256.pattern"});

  // An unknown subcommand gets a "did you mean" rather than CLI11's generic message.
  if (argc > 1 && argv[1][0] != '-' && actions.find(argv[1]) == actions.end()) {
    std::vector<std::string> names;
    for (const auto& [name, action] : actions) names.push_back(name);
    std::cerr << "contend: error: unknown command '" << argv[1] << "'" << contend::did_you_mean(argv[1], names)
              << "; commands: " << contend::join(names) << "\n";
    return kUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    std::cerr << "contend: error: " << explain_extras(app, argc, argv).value_or(e.what())
              << "\n(run 'contend --help' or 'contend COMMAND --help')\n";
    return kUsage;
  } catch (const CLI::ParseError& e) {
    // A missing or misspelt sub-subcommand (`contend mapping`, `contend mapping serch`).
    const auto explained = explain_extras(app, argc, argv);
    std::cerr << "contend: error: " << (explained && explained->starts_with("unknown command") ? *explained : e.what())
              << "\n(run 'contend --help' or 'contend COMMAND --help')\n";
    return kUsage;
  }
  for (const auto* sub : app.get_subcommands()) return run(actions.at(sub->get_name()));
  return kUsage;
}
