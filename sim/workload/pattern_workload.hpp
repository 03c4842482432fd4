#pragma once
// Pattern workloads: a sequence of steps that every rank takes in turn (each
// rank starts a step when it has finished the previous one; no implicit
// barrier). The basic step is Thune et al.'s Algorithm 2, a many-pair
// exchange; other issues add collective and compute steps.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/datatype.hpp"
#include "workload/workload.hpp"

namespace contend {

struct PatternMessage {
  int src = 0;
  int dst = 0;
  std::uint64_t bytes = 0;
  double start = 0;  // seconds after the step began on the sender (0: at once)
  std::uint16_t datatype = 0;  // index into the pattern's datatypes (0: contiguous)
};

// The plain data of one exchange, as the generator makes and the writer writes.
struct ManyPairPattern {
  std::string name;
  int ranks = 0;
  std::vector<PatternMessage> messages;  // in file order
  std::vector<Datatype> datatypes;       // PatternMessage::datatype indexes it; empty: all contiguous
};

class PatternStep {
 public:
  virtual ~PatternStep() = default;
  virtual void run(Mpi& mpi) const = 0;
  virtual std::string summary() const = 0;  // e.g. "exchange of 4078 messages"
  // A step that runs inside the exchange written just before it, between
  // its posts and its waits (`compute ... overlap`), instead of after it.
  virtual bool overlaps_exchange() const { return false; }
};

// Computation: `amount` seconds (at the core's nominal speed) or flops, on
// the listed ranks (all if none). Overlapping: runs between the posts and
// the waits of the exchange before it.
class ComputeStep final : public PatternStep {
 public:
  enum class Unit { Seconds, Flops };
  ComputeStep(double amount, Unit unit, std::vector<int> ranks, bool overlap);
  void run(Mpi& mpi) const override;
  std::string summary() const override;
  bool overlaps_exchange() const override { return overlap_; }
  double amount() const { return amount_; }
  Unit unit() const { return unit_; }
  const std::vector<int>& ranks() const { return ranks_; }

 private:
  double amount_;
  Unit unit_;
  std::vector<int> ranks_;  // sorted; empty: every rank
  bool overlap_;
};

// Many-pair exchange, Algorithm 2: every rank posts MPI_Isend for its
// outgoing messages (file order), then MPI_Irecv for its incoming ones, then
// waits for the sends, then for the receives. A message with a start offset
// is sent that long after the step began (after the receives are posted),
// as in Martinasso's staggered patterns. Overlapping steps (compute) run
// after the last post and before the waits.
class ExchangeStep final : public PatternStep {
 public:
  ExchangeStep(int ranks, std::vector<PatternMessage> messages, std::vector<Datatype> datatypes = {},
               std::vector<std::unique_ptr<PatternStep>> overlapped = {});
  void run(Mpi& mpi) const override;
  std::string summary() const override;
  const std::vector<PatternMessage>& messages() const { return messages_; }
  const std::vector<Datatype>& datatypes() const { return datatypes_; }
  const std::vector<std::unique_ptr<PatternStep>>& overlapped() const { return overlapped_; }

 private:
  std::vector<PatternMessage> messages_;
  std::vector<Datatype> datatypes_;  // index 0 is contiguous
  std::vector<std::unique_ptr<PatternStep>> overlapped_;
  // Per rank, indices into messages_ (compressed rows: offsets, indices).
  std::vector<std::uint32_t> out_offsets_, out_index_, in_offsets_, in_index_;
};

class PatternWorkload final : public Workload {
 public:
  PatternWorkload(std::string name, int ranks, std::vector<std::unique_ptr<PatternStep>> steps);
  // A workload of one exchange.
  explicit PatternWorkload(const ManyPairPattern& pattern);

  int rank_count() const override { return ranks_; }
  std::string description() const override;
  void run(Mpi& mpi) override;
  const std::vector<std::unique_ptr<PatternStep>>& steps() const { return steps_; }

 private:
  std::string name_;
  int ranks_;
  std::vector<std::unique_ptr<PatternStep>> steps_;
};

}  // namespace contend
