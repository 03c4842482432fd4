#pragma once
// contend's pattern files (sim/core/pattern.hpp) as the real runner executes
// them under Open MPI: the simulator's reader, then the steps the runner can
// run as MPI calls: exchanges (Algorithm 2) of contiguous messages, `bcast
// ROOT BYTES` and `barrier`. Any other step is an error naming file:line:col,
// and so is a message beyond one MPI call's int count of bytes.
#include <cstdint>
#include <istream>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/pattern.hpp"

namespace contend::testbed {

// One many-pair exchange (Thune et al.'s Algorithm 2), messages in file order.
using Exchange = std::vector<PatternMessage>;

// MPI_Bcast of BYTES from ROOT: Open MPI picks the algorithm (its fixed
// decision rules unless the run forces one), as contend's bcast step does.
struct Bcast {
  int root = 0;
  std::uint64_t bytes = 0;
};
struct Barrier {};

using Step = std::variant<Exchange, Bcast, Barrier>;

struct RealPattern {
  int ranks = 0;
  std::vector<Step> steps;
};

// The runner's steps of a pattern; throws contend::Error at the first one it cannot run.
RealPattern runner_steps(const Pattern& pattern);

RealPattern read_real_pattern(std::istream& in, const std::string& name);
RealPattern read_real_pattern(const std::string& path);

}  // namespace contend::testbed
