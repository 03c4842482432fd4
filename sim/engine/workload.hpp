#pragma once
// A workload gives every rank a program to run against the Mpi handle.
#include <cstdint>
#include <string>

namespace contend {

class Mpi;

class Workload {
 public:
  virtual ~Workload() = default;
  virtual int rank_count() const = 0;
  // One line for summaries, e.g. "pattern halo-256.pattern (1184 messages)".
  virtual std::string description() const = 0;
  // How many messages the run will post, if known (0: unknown). The engine
  // reserves its per-message tables for them once.
  virtual std::uint64_t expected_messages() const { return 0; }
  // Runs `mpi.rank()`'s program inside its actor; blocking calls block the actor.
  virtual void run(Mpi& mpi) = 0;
  // Whether a rank may post a receive from MPI_ANY_SOURCE. Without such
  // receives, which message a receive matches does not depend on when other
  // ranks post (MPI's order is per sender), so ranks may post their sends
  // ahead of SimGrid's clock (EngineCore::allow_posting_ahead).
  virtual bool receives_from_any_source() const { return true; }
};

}  // namespace contend
