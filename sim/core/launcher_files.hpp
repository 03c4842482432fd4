#pragma once
// A mapping handed to a launcher: the files it reads and the exact command
// line that uses them (docs/mappings.md, "Launching a mapping").
//
//   ompi4  Open MPI 4.x rankfile (`rank R=HOST slot=S:C`), mpirun --rankfile
//   ompi5  Open MPI 5 / PRRTE rankfile (`slot=N`, the node's logical core)
//          and a hostfile, mpirun --map-by rankfile:file=
//   slurm  SLURM_HOSTFILE (one host per rank) for srun --distribution=arbitrary,
//          cores by --cpu-bind=map_cpu (mask_cpu for several cores per rank)
//          when one list fits every node, else each rank's cores in a file
//          read by taskset through $SLURM_PROCID
//   mpich  a Hydra machinefile (`HOST:COUNT binding=user:CPUS`) and
//          mpiexec -rankmap (MPICH 4.1 and later)
// Core numbers in Slurm's and Hydra's lists are the operating system's CPU
// numbers; contend writes socket * cores_per_socket + core, which is what
// Linux numbers when CPUs are numbered socket by socket without hardware
// threads (check with `lstopo -p`). Open MPI's rankfiles use hwloc's logical
// indexes, which are those.
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/hosts.hpp"
#include "sim/core/mapping.hpp"

namespace contend {

enum class Launcher { Ompi4, Ompi5, Slurm, Mpich };
const std::vector<std::string>& launcher_names();  // ompi4, ompi5, slurm, mpich
Launcher launcher_by_name(std::string_view name);  // throws with the valid names

struct LauncherFile {
  std::string path;
  std::string content;
};

struct LaunchPlan {
  std::vector<LauncherFile> files;  // the first one at the path asked for, companions beside it
  std::string command;              // the exact command line that uses them
  std::vector<std::string> notes;   // what the command assumes
};

// `program` ends the command line (the application and its arguments).
LaunchPlan launch_plan(Launcher launcher, const Mapping& mapping, const Machine& machine, const std::string& path,
                       const std::string& program = "./app");

// A word for a POSIX shell: as is when safe, else single-quoted.
std::string shell_quote(std::string_view word);

}  // namespace contend
