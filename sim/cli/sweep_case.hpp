#pragma once
// One case of a sweep run as `contend simulate` runs it (simulate_run.hpp),
// and what the sweep file names that only the simulator knows (models).
#include <string>

#include "sim/core/sweep_spec.hpp"

namespace contend::cli {

// The case's outcome line (sweep_rows.hpp: encode_outcome): its figures, or
// the error that stopped it (a bad mapping, a deadlock, a limit). Runs a
// SimGrid engine: call it once per process (a worker pool's child, or
// `contend sweep --run-case`).
std::string run_sweep_case(const SweepCase& c);

// Every model the sweep file names is a registered one; else an error at
// its line with the valid names.
void check_sweep_models(const SweepSpec& spec);

}  // namespace contend::cli
