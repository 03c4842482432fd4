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
//                        `allreduce 64K`, `barrier` (pattern_collectives.hpp)
//
// Consecutive message lines form one exchange (Thune et al.'s Algorithm 2).
// Blank lines and text after '#' are ignored. Errors name file:line:col.
#include <functional>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"
#include "workload/pattern_workload.hpp"

namespace contend {

// Reads the fields of one line, with errors that point at the field.
class PatternLine {
 public:
  PatternLine(std::string_view text, std::vector<std::string_view> fields, const std::string& file, int line,
              int declared_ranks);
  std::size_t size() const { return fields_.size(); }
  std::string_view operator[](std::size_t i) const { return fields_[i]; }
  SourceLocation where(std::size_t field) const;
  [[noreturn]] void fail(std::size_t field, const std::string& message) const;

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
struct PatternKeyword {
  std::string keyword;
  std::string usage;  // e.g. "bcast ROOT BYTES"
  std::function<std::unique_ptr<PatternStep>(PatternLine& line)> parse;
};
const std::vector<PatternKeyword>& pattern_keywords();

PatternWorkload read_pattern(const std::string& path);
PatternWorkload read_pattern(std::istream& in, const std::string& name);
void write_pattern(std::ostream& out, const ManyPairPattern& pattern, const std::string& header_comment);

}  // namespace contend
