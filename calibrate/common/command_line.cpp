#include "calibrate/common/command_line.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

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

}  // namespace contend::mpi_support
