#pragma once
// What every `contend fit-<method>` shares: the platform file whose section
// it rewrites (every other byte stays), -o/--output to write the result
// elsewhere, and --dry-run to print it instead.
#include <CLI/CLI.hpp>
#include <string>

namespace contend::cli {

struct PlatformRewrite {
  std::string platform;
  std::string output;  // empty: over --platform
  bool dry_run = false;

  const std::string& target() const { return output.empty() ? platform : output; }
};

// --platform (described by `rewritten`: what of the file changes), -o/--output, --dry-run.
void add_platform_rewrite_options(CLI::App& cmd, PlatformRewrite& o, const std::string& rewritten, bool required);

// The updated text must parse as a platform whose model sections all
// validate; then it is printed (--dry-run: returns false) or written
// atomically over target() (returns true).
bool write_platform_rewrite(const PlatformRewrite& o, const std::string& updated);

}  // namespace contend::cli
