#pragma once
// The command line of the sample applications: positional whole numbers
// (each at least 1) with defaults, e.g. `cg [N=40] [ITERATIONS=40]`. Read
// before MPI_Init, so that --help and a bad argument end every rank at once;
// only the launcher's rank 0 prints (docs/commands.md, "Exit status").
// (The sample applications link MPI only, hence no CLI11 here.)
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace contend_examples {

struct Argument {
  const char* name;  // as in the usage line
  int* value;        // holds the default; replaced when given
};

inline bool launcher_rank_zero() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* value = std::getenv(name)) return std::strcmp(value, "0") == 0;
  }
  return true;
}

// Returns -1 when the program should run; else the status to exit with:
// 0 after -h/--help (usage and defaults on standard output), 2 after a bad
// argument (what was wrong and the usage on standard error).
inline int read_arguments(int argc, char** argv, const char* usage, std::initializer_list<Argument> arguments) {
  const bool prints = launcher_rank_zero();
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
      if (prints) std::printf("%s\n", usage);
      return 0;
    }
  }
  const char* problem = nullptr;
  if (argc - 1 > static_cast<int>(arguments.size())) problem = "too many arguments";
  int i = 1;
  for (const auto& argument : arguments) {
    if (problem != nullptr || i >= argc) break;
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(argv[i], &end, 10);
    if (end == argv[i] || *end != '\0' || errno != 0 || value < 1 || value > INT_MAX) {
      if (prints) std::fprintf(stderr, "%s: expected a whole number >= 1, got '%s'\n", argument.name, argv[i]);
      problem = "";
      break;
    }
    *argument.value = static_cast<int>(value);
    ++i;
  }
  if (problem == nullptr) return -1;
  if (prints) {
    if (*problem != '\0') std::fprintf(stderr, "%s\n", problem);
    std::fprintf(stderr, "%s\n", usage);
  }
  return 2;
}

}  // namespace contend_examples
