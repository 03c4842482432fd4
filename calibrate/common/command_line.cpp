#include "calibrate/common/command_line.hpp"

#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace contend::mpi_support {

int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::CallForHelp&) {
    if (launcher_rank() == 0) std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    if (launcher_rank() == 0) std::cerr << app.get_name() << ": error: " << e.what() << "\n\n" << app.help();
    return 2;
  }
}

std::uint64_t size_option(const std::string& text, const char* name) {
  const auto v = units::parse_size(text);
  if (!v || *v == 0)
    throw Error(std::string(name) + ": expected " + std::string(units::kSizeHelp) + ", got '" + text + "'");
  return *v;
}

std::vector<std::uint64_t> geometric_sizes(const std::string& min_size, const std::string& max_size, double factor) {
  const auto first = size_option(min_size, "--min-size");
  const auto last = size_option(max_size, "--max-size");
  if (last < first) throw Error("--max-size is smaller than --min-size");
  if (factor <= 1) throw Error("--factor must be above 1");
  if (last > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) throw Error("--max-size: at most 2 GiB - 1");
  std::vector<std::uint64_t> sizes;
  for (double s = static_cast<double>(first); s <= static_cast<double>(last) * (1 + 1e-12); s *= factor) {
    sizes.push_back(static_cast<std::uint64_t>(s));
  }
  return sizes;
}

}  // namespace contend::mpi_support
