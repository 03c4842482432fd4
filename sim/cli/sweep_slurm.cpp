#include "sim/cli/sweep_slurm.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "sim/core/file_io.hpp"
#include "sim/core/launcher_files.hpp"
#include "sim/core/sweep_output.hpp"
#include "sim/core/sweep_rows.hpp"
#include "sim/core/text.hpp"

namespace contend::cli {
namespace {

namespace fs = std::filesystem;

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

std::string this_executable() {
  std::error_code ec;
  const auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("cannot find the contend executable (/proc/self/exe): " + ec.message());
  return exe.string();
}

std::string manifest_path(const std::string& dir) { return (fs::path(dir) / "sweep.json").string(); }

}  // namespace

std::string shard_file(const std::string& dir, std::size_t k, std::size_t n) {
  return (fs::path(dir) / fmt::format("shard-{}-of-{}.csv", k, n)).string();
}

void write_slurm_array(const std::string& sweep_file, const SweepSpec& spec, std::size_t shards, int jobs,
                       const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("cannot create the folder '" + dir + "': " + ec.message());
  const std::string folder = absolute(dir);
  const std::string script = (fs::path(folder) / "sweep.sbatch").string();
  write_file_atomically(script, [&](std::ostream& out) {
    out << "#!/bin/bash\n"
        << fmt::format("# Written by `contend sweep --slurm-array {}`: array task K runs shard K/{} of\n", shards,
                       shards)
        << "# " << absolute(sweep_file)
        << fmt::format(" ({} cases), into shard-K-of-{}.csv.\n", spec.cases.size(), shards)
        << "# Submit it with `sbatch " << script << "`; once every task is done,\n"
        << "#   contend sweep --merge " << folder << " --output results.csv\n"
        << "# joins the shards. A task run again resumes its shard (finished cases are kept).\n"
        << "# Add your site's directives (--partition, --account, --time) below.\n"
        << "#SBATCH --job-name=contend-sweep\n"
        << fmt::format("#SBATCH --array=1-{}\n", shards) << "#SBATCH --ntasks=1\n"
        << fmt::format("#SBATCH --cpus-per-task={}\n", jobs) << "#SBATCH --output=" << folder << "/slurm-%A_%a.out\n"
        << "set -euo pipefail\n"
        << "task=${SLURM_ARRAY_TASK_ID:?'run it with sbatch, or set SLURM_ARRAY_TASK_ID to the shard (1 to " << shards
        << ")'}\n"
        << "exec " << shell_quote(this_executable()) << " sweep " << shell_quote(absolute(sweep_file))
        << " --jobs \"${SLURM_CPUS_PER_TASK:-" << jobs << "}\" --shard \"$task/" << shards << "\" --quiet --output "
        << shell_quote(folder) << "/shard-\"$task\"-of-" << shards << ".csv\n";
  });
  fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add, ec);
  nlohmann::ordered_json manifest;
  manifest["schema"] = "contend.sweep-array";
  manifest["sweep"] = absolute(sweep_file);
  manifest["shards"] = shards;
  manifest["cases"] = spec.cases.size();
  write_file_atomically(manifest_path(folder), [&](std::ostream& out) { out << manifest.dump(2) << "\n"; });
}

void merge_shards(const std::string& dir, const std::string& output, bool quiet) {
  const std::string manifest_file = manifest_path(dir);
  nlohmann::json manifest;
  try {
    manifest = nlohmann::json::parse(read_text(manifest_file));
    if (manifest.at("schema") != "contend.sweep-array") throw Error("not a sweep array's manifest");
  } catch (const nlohmann::json::exception& e) {
    throw Error(manifest_file + ": expected the manifest `contend sweep --slurm-array` writes: " + e.what());
  }
  const std::string sweep_file = manifest.at("sweep").get<std::string>();
  const auto shards = manifest.at("shards").get<std::size_t>();
  const SweepSpec spec = read_sweep(sweep_file);
  if (spec.cases.size() != manifest.at("cases").get<std::size_t>())
    throw Error(fmt::format("{}: {} has {} cases now, {} when the array was written: write the array again",
                            manifest_file, sweep_file, spec.cases.size(), manifest.at("cases").get<std::size_t>()));
  std::map<std::size_t, SweepRow> rows;
  std::vector<std::string> problems;
  for (std::size_t k = 1; k <= shards; ++k) {
    const std::string file = shard_file(dir, k, shards);
    std::error_code ec;
    if (!fs::exists(file, ec)) {
      problems.push_back(fmt::format("{}: missing (array task {} has not run)", file, k));
      continue;
    }
    const auto shard_rows = read_sweep_rows(file, spec);
    const auto expected = shard_cases(spec.cases.size(), Shard{k, shards});
    std::size_t missing = 0;
    for (const auto index : expected) {
      const auto it = shard_rows.find(index);
      if (it == shard_rows.end()) {
        ++missing;
      } else {
        rows.insert(*it);
      }
    }
    if (missing > 0)
      problems.push_back(fmt::format("{}: {} of its {} cases missing (array task {} did not finish)", file, missing,
                                     expected.size(), k));
  }
  if (!problems.empty())
    throw Error("cannot merge " + dir + ": " + join(problems, "; ") + "; run those tasks again (sbatch --array=K " +
                (fs::path(dir) / "sweep.sbatch").string() + ")");
  write_file_atomically(output, [&](std::ostream& out) { write_sweep_csv(out, spec, rows); });
  if (!quiet) std::cout << fmt::format("merged {} shards: {} cases -> {}\n", shards, rows.size(), output);
}

}  // namespace contend::cli
