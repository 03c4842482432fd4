#pragma once
// Open MPI rankfiles, in and out (mpirun --rankfile, Open MPI 4.1's
// orte/mca/rmaps/rank_file): one line per rank,
//   rank R=HOST slot=S:C          socket S, core C of that socket (logical indexes)
//   rank R=HOST slot=S:C1-C2      cores C1..C2 of socket S (Open MPI's :PE=n)
//   rank R=HOST slot=C | C1-C2    the node's logical core(s) C, counted socket by socket
// HOST is a host of the machine or +nK (its K-th node); # and // start comments.
// contend runs a rank on the first of its cores.
#include <ostream>
#include <string>

#include "sim/core/hosts.hpp"
#include "sim/core/mapping.hpp"

namespace contend {

// Errors name file:line:col: an unknown host, a rank placed twice or never,
// a core the node does not have, more ranks on a node than its slots or two
// ranks on one core (unless oversubscribe).
Mapping read_rankfile(const std::string& path, int rank_count, const Machine& machine, bool oversubscribe);

enum class SlotStyle {
  SocketCore,  // slot=S:C (Open MPI 4.x)
  NodeCore,    // slot=N, the node's logical core (Open MPI 5 / PRRTE, whose S:C form was broken for a while)
};
void write_rankfile(std::ostream& out, const Mapping& mapping, const Machine& machine, SlotStyle style);

}  // namespace contend
