#pragma once
// What the running Open MPI was told, read back through the MPI tool
// interface (MPI_T control variables), so that a benchmark can refuse to
// measure when mpirun did not force what the driver meant to force.
#include <optional>
#include <string>

namespace contend::calibrate {

// The value of an integer (or boolean) control variable, e.g.
// "coll_tuned_bcast_algorithm"; nothing if this MPI has no such variable.
// Call between MPI_Init and MPI_Finalize.
std::optional<long long> read_int_cvar(const std::string& name);
// A string control variable, e.g. "btl".
std::optional<std::string> read_string_cvar(const std::string& name);

// Whether an Open MPI component list such as "self,tcp" or "^vader,sm"
// (the value of the "btl" variable; empty = every component) allows `component`.
bool component_allowed(const std::string& list, const std::string& component);

}  // namespace contend::calibrate
