#pragma once
// Pattern files: a workload as a list of steps every rank takes in turn.
//
//   # comment
//   ranks 256            optional; otherwise the highest rank named + 1
//   0 1 65536            src dst bytes: a message of a many-pair exchange
//   1 0 64KiB @2ms       sizes may carry units; @TIME: sent that long after the step began
//   0 1 4KiB type=vector:4,1,4:float   the message's datatype (default contiguous)
//   ---                  ends the current exchange: the next messages form a new one
//   KEYWORD ...          a step of another kind (see pattern_keywords()):
//                        collectives on MPI_COMM_WORLD, e.g. `bcast 0 1MiB`,
//                        `allreduce 64K`, `barrier` (pattern_collectives.hpp);
//                        `compute AMOUNT [ranks=LIST] [overlap]`
//
// Consecutive message lines form one exchange (Thune et al.'s Algorithm 2).
// Blank lines and text after '#' are ignored. Errors name file:line:col.
//
// The reader produces plain data (Pattern): the simulator binds it to its
// MPI layer (sim/workload/pattern_workload.hpp), the real runner of the
// emulated cluster to MPI calls (validation/testbed/runner).
#include <cstdint>
#include <functional>
#include <istream>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/core/collective_call.hpp"
#include "sim/core/datatype.hpp"
#include "sim/core/error.hpp"

namespace contend {

struct PatternMessage {
  int src = 0;
  int dst = 0;
  std::uint64_t bytes = 0;
  double start = 0;            // seconds after the step began on the sender (0: at once)
  std::uint16_t datatype = 0;  // index into the pattern's datatypes (0: contiguous)
};

// Computation: `amount` seconds (at the core's nominal speed) or flops, on
// the listed ranks (all if none). Overlapping: runs between the posts and
// the waits of the exchange before it.
struct ComputeSpec {
  enum class Unit { Seconds, Flops };
  double amount = 0;
  Unit unit = Unit::Seconds;
  std::vector<int> ranks;  // sorted; empty: every rank
  bool overlap = false;
  SourceLocation where;
};

// A many-pair exchange (Algorithm 2), messages in file order, and the
// overlapping compute steps that run between its posts and its waits.
struct ExchangeSpec {
  std::vector<PatternMessage> messages;
  std::vector<ComputeSpec> overlapped;
};

struct StepSpec {
  SourceLocation where;  // the step's first line
  std::variant<ExchangeSpec, ComputeSpec, coll::CollectiveCall> content;
};

struct Pattern {
  std::string name;  // the file's name, without its folder
  int ranks = 0;
  std::vector<Datatype> datatypes{Datatype{}};  // PatternMessage::datatype indexes it; [0] is contiguous
  std::vector<StepSpec> steps;

  std::uint64_t message_count() const;
};

// The plain data of one exchange, as the generator makes and the writer writes.
struct ManyPairPattern {
  std::string name;
  int ranks = 0;
  std::vector<PatternMessage> messages;  // in file order
  std::vector<Datatype> datatypes;       // PatternMessage::datatype indexes it; empty: all contiguous
};
Pattern to_pattern(const ManyPairPattern& exchange);

// One line for summaries: "exchange of 4078 messages", "compute 0.002 s on
// 2 ranks" (collectives: coll::summary); and "pattern NAME (steps...)".
std::string summary(const ExchangeSpec& exchange);
std::string summary(const ComputeSpec& compute);
std::string summary(const StepSpec& step);
std::string describe(const Pattern& pattern);

// Reads the fields of one line, with errors that point at the field.
class PatternLine {
 public:
  PatternLine(std::string_view text, std::vector<std::string_view> fields, const std::string& file, int line,
              int declared_ranks);
  std::size_t size() const { return fields_.size(); }
  std::string_view operator[](std::size_t i) const { return fields_[i]; }
  SourceLocation where(std::size_t field) const;
  [[noreturn]] void fail(std::size_t field, const std::string& message) const;
  // Throws LimitError at the field (a limit of sim/core/limits.hpp).
  [[noreturn]] void refuse(std::size_t field, const std::string& limit_message) const;

  // A rank in range of the declared count (if any); remembered for inference.
  int rank(std::size_t field, const char* what);
  // The same for a rank written inside field `field` (e.g. in a list).
  int rank_in(std::size_t field, std::string_view text, const char* what);
  std::uint64_t size_field(std::size_t field, const char* what) const;
  double duration_field(std::size_t field, const char* what) const;
  int highest_rank() const { return highest_rank_; }
  int declared_ranks() const { return declared_ranks_; }  // -1 if no `ranks N` line came before

 private:
  std::string_view text_;
  std::vector<std::string_view> fields_;
  const std::string& file_;
  int line_;
  int declared_ranks_;
  int highest_rank_ = -1;
};

// A step kind other than messages: `keyword` starts its lines; `parse` turns
// one line into a step. The list is in pattern.cpp; each step kind adds one
// entry there.
using KeywordStep = std::variant<ComputeSpec, coll::CollectiveCall>;
struct PatternKeyword {
  std::string keyword;
  std::string usage;  // e.g. "bcast ROOT BYTES"
  std::function<KeywordStep(PatternLine& line)> parse;
};
const std::vector<PatternKeyword>& pattern_keywords();

// What a reader accepts beyond the grammar: the real runner passes an MPI
// call's limit (an int count of bytes).
struct PatternLimits {
  std::uint64_t max_message_bytes = std::numeric_limits<std::uint64_t>::max();
  std::string max_message_bytes_text;  // how the limit is explained, e.g. "2 GiB - 1 in one MPI call"
};

Pattern read_pattern(const std::string& path, const PatternLimits& limits = {});
Pattern read_pattern(std::istream& in, const std::string& name, const PatternLimits& limits = {});
void write_pattern(std::ostream& out, const ManyPairPattern& pattern, const std::string& header_comment);

}  // namespace contend
