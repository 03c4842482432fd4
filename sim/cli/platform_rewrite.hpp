#pragma once
// What every `contend fit-<method>` shares: the platform file whose section
// it rewrites (every other byte stays), -o/--output to write the result
// elsewhere, and --dry-run to print it instead; and what the fits of a
// benchmark's raw CSVs share besides (the files, --fits and how they write).
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

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

// The options of the fits that read a benchmark's raw CSVs (fit-loggops,
// fit-multipair, fit-taulop, fit-transport): without --platform they only
// print the fit.
struct RawFitOptions {
  std::vector<std::string> raw;
  PlatformRewrite rewrite;
  std::string fits;
};

// What a command says of each of RawFitOptions' options.
struct RawFitHelp {
  std::string raw;        // the raw CSV files (positional, required)
  std::string rewritten;  // add_platform_rewrite_options's `rewritten`
  std::string fits;       // --fits
};

// `raw`, the platform options (--platform not required), then --fits.
void add_raw_fit_options(CLI::App& cmd, RawFitOptions& o, const RawFitHelp& help);

// What a fit writes, in this order: `fits_csv` to --fits when given ('-':
// standard output), then with --platform the text `updated_platform` returns
// (made only then; see write_platform_rewrite). Returns whether the platform
// file was written.
bool write_fit_results(const RawFitOptions& o, const std::string& fits_csv,
                       const std::function<std::string()>& updated_platform);

}  // namespace contend::cli
