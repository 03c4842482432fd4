#pragma once
// contend's pattern files (README "Pattern files") read for a real MPI run.
// The simulator's reader (traces/formats/pattern.cpp) builds steps bound to
// the SimGrid engine, and SimGrid's library exports MPI_* symbols of its own,
// so a program running under Open MPI cannot link it: this reader accepts the
// same grammar (ranks N, `src dst bytes [@start]`, `---`, '#' comments, the
// same units through sim/util/units) into plain data, with the collective
// steps the real runner executes as MPI calls (`bcast ROOT BYTES`,
// `barrier`). Another step keyword is an error naming file:line:col.
#include <cstdint>
#include <istream>
#include <string>
#include <variant>
#include <vector>

namespace contend::testbed {

struct Message {
  int src = 0;
  int dst = 0;
  std::uint64_t bytes = 0;
  double start = 0;  // seconds after the step began on the sender
};

// One many-pair exchange (Thune et al.'s Algorithm 2), messages in file order.
using Exchange = std::vector<Message>;

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

RealPattern read_real_pattern(std::istream& in, const std::string& name);
RealPattern read_real_pattern(const std::string& path);

}  // namespace contend::testbed
