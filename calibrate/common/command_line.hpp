#pragma once
// The command line of contend's MPI programs (docs/commands.md, "Exit
// status"): parsed before MPI_Init, so that --help and a bad argument end the
// program at once, however many ranks the launcher started.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace contend::mpi_support {

// Parses argv into `app`. Returns nothing when the program should run; else
// the status to exit with: 0 after --help (usage on standard output), 2 after
// a bad argument (the error and the usage on standard error). Only the
// launcher's rank 0 prints (from its environment, as MPI is not started), so
// that `mpirun -np 8 PROGRAM --help` prints once.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

// The launcher's rank of this process (Open MPI, MPICH/Hydra, PMIx, Slurm),
// 0 when started alone. For printing before MPI_Init only.
int launcher_rank();

// A size option's value ("64KiB"), at least 1 byte; else contend::Error
// "--min-size: expected a size in bytes such as ..., got 'x'".
std::uint64_t size_option(const std::string& text, const char* name);

// The message sizes of a benchmark's --min-size, --max-size and --factor:
// min, min * factor, ... up to max inclusive (at most 2 GiB - 1, MPI's int
// count of bytes). Throws contend::Error on a bad range.
std::vector<std::uint64_t> geometric_sizes(const std::string& min_size, const std::string& max_size, double factor);

}  // namespace contend::mpi_support
