#include "sim/cli/options.hpp"

#include "sim/core/text.hpp"

namespace contend::cli {

std::string contend_version() { return CONTEND_VERSION; }

CLI::Option* add_platform_option(CLI::App& cmd, std::string& path, const std::string& help) {
  return cmd.add_option("--platform", path, help)->required();
}

CLI::Option* add_mapping_option(CLI::App& cmd, std::string& mapping, const std::string& help) {
  return cmd.add_option("--mapping", mapping, help)->capture_default_str();
}

CLI::Option* add_model_option(CLI::App& cmd, std::string& model, const std::string& help) {
  return cmd.add_option("--model", model, help);
}

std::string ModelChoice::source_text(const Platform& platform) const {
  switch (source) {
    case Source::CommandLine:
      return "--model";
    case Source::PlatformDefault:
      return "default_model of " + platform.file;
    case Source::BuiltIn:
      break;
  }
  return "built-in default";
}

std::string ModelChoice::described(const Platform& platform) const {
  return source == Source::PlatformDefault ? name + " (" + source_text(platform) + ")" : name;
}

ModelChoice choose_model(const std::string& given, const Platform& platform) {
  if (!given.empty()) return {given, ModelChoice::Source::CommandLine};
  if (!platform.default_model.empty()) return {platform.default_model, ModelChoice::Source::PlatformDefault};
  return {kDefaultModel, ModelChoice::Source::BuiltIn};
}

CLI::Option* add_progress_option(CLI::App& cmd, std::string& progress) {
  return cmd.add_option(
      "--progress", progress,
      "none | thread | dedicated-core: how nonblocking communication progresses (default: the platform's)");
}

CLI::Option* add_oversubscribe_flag(CLI::App& cmd, bool& oversubscribe) {
  return cmd.add_flag("--oversubscribe", oversubscribe, "Allow more ranks than cores (ranks then share cores)");
}

CLI::Option* add_quiet_flag(CLI::App& cmd, bool& quiet) {
  return cmd.add_flag("--quiet", quiet, "Do not print the summary (warnings and errors are still printed)");
}

CLI::Option* add_output_option(CLI::App& cmd, std::string& path, const std::string& help) {
  return cmd.add_option("-o,--output", path, help + " ('-': standard output)");
}

const CLI::Validator& finite_number() {
  static const CLI::Validator validator(finite_number_problem, "", "finite");
  return validator;
}

const CLI::Validator& non_negative_number() {
  static const CLI::Validator validator(negative_number_problem, "", "non-negative");
  return validator;
}

void set_example(CLI::App& cmd, const std::vector<std::string>& command_lines) {
  std::string footer = "Example:";
  for (const auto& line : command_lines) footer += "\n  " + line;
  cmd.footer(footer);
}

CLI::Option* add_hosts_option(CLI::App& cmd, std::string& path) {
  return cmd.add_option("--hosts", path,
                        "Host names of the platform's nodes, one per line in node order ('host slots=N' allowed): "
                        "what rankfiles and launcher files name (default: the platform's nodes.hosts)");
}

}  // namespace contend::cli
