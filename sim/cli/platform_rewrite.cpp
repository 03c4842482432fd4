#include "sim/cli/platform_rewrite.hpp"

#include <iostream>

#include "models/registry.hpp"
#include "sim/cli/options.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/platform.hpp"

namespace contend::cli {

void add_platform_rewrite_options(CLI::App& cmd, PlatformRewrite& o, const std::string& rewritten, bool required) {
  auto* platform = cmd.add_option("--platform", o.platform,
                                  "Platform YAML whose " + rewritten + " rewritten (nothing else changes)");
  if (required) platform->required();
  add_output_option(cmd, o.output, "Write the updated platform here instead of over --platform");
  cmd.add_flag("--dry-run", o.dry_run, "Print the updated platform file instead of writing it");
}

namespace {

bool write_rewritten_text(const PlatformRewrite& o, const std::string& updated) {
  if (o.dry_run) {
    std::cout << updated;
    return false;
  }
  write_file_atomically(o.target(), [&](std::ostream& out) { out << updated; });
  return true;
}

}  // namespace

bool write_platform_rewrite(const PlatformRewrite& o, const std::string& updated) {
  all_models().validate_platform(parse_platform(YamlField::load_string(updated, o.platform)));
  return write_rewritten_text(o, updated);
}

void add_raw_fit_options(CLI::App& cmd, RawFitOptions& o, const RawFitHelp& help) {
  cmd.add_option("raw", o.raw, help.raw)->required();
  add_platform_rewrite_options(cmd, o.rewrite, help.rewritten, false);
  cmd.add_option("--fits", o.fits, help.fits);
}

bool write_fit_results(const RawFitOptions& o, const std::string& fits_csv,
                       const std::function<std::string()>& updated_platform) {
  if (!o.fits.empty()) write_file_atomically(o.fits, [&](std::ostream& out) { out << fits_csv; });
  return !o.rewrite.platform.empty() && write_platform_rewrite(o.rewrite, updated_platform());
}

}  // namespace contend::cli
