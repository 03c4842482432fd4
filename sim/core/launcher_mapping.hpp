#pragma once
// Mappings as launchers make them, so that "what does mpirun do by default?"
// and "what would srun --distribution=plane=4 give?" can be simulated and
// compared (docs/mappings.md). Each follows the launcher's own code, cited
// at the function; slots are the hosts' (Machine), one CPU per rank.
//
// ompi:POLICY  Open MPI 4.1's mpirun --map-by POLICY (orte/mca/rmaps):
//              core, slot, socket, node, ppr:N:node, ppr:N:socket, with an
//              optional :PE=n (n cores per rank), or `default` (no --map-by:
//              by core for 2 ranks or fewer, else by NUMA domain, which
//              contend's platforms have one of per socket). Then Open MPI's
//              ranking (by the mapped object, by slot when none was given)
//              and default binding (core for 2 ranks or fewer or with :PE,
//              else the mapped object, else the socket).
// slurm:DIST   srun --distribution=DIST over every node of the platform
//              (src/common/slurm_step_layout.c, task/affinity dist_tasks.c):
//              block, cyclic or plane=N across nodes; block, cyclic (the
//              default) or fcyclic across a node's sockets (not with plane,
//              which Slurm lays out in blocks).
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/hosts.hpp"
#include "sim/core/mapping.hpp"

namespace contend {

Mapping ompi_mapping(std::string_view policy, int rank_count, const Machine& machine, bool oversubscribe);
Mapping slurm_mapping(std::string_view distribution, int rank_count, const Machine& machine, bool oversubscribe);

// The forms accepted, for messages and --help.
inline const std::vector<std::string>& ompi_policy_forms() {
  static const std::vector<std::string> forms = {"default", "core",       "slot",        "socket",
                                                 "node",    "ppr:N:node", "ppr:N:socket"};
  return forms;
}
inline const std::vector<std::string>& slurm_distribution_forms() {
  static const std::vector<std::string> forms = {"block",        "cyclic",        "plane=N",
                                                 "block:block",  "block:cyclic",  "block:fcyclic",
                                                 "cyclic:block", "cyclic:cyclic", "cyclic:fcyclic"};
  return forms;
}

}  // namespace contend
