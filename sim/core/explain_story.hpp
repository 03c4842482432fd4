#pragma once
// The story `contend explain` tells from an attributed run (docs/explain.md):
// when a rank finished, which of its messages ended last, and what bounded
// each of them, interval by interval, with the numbers behind the rates.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include "sim/core/results.hpp"

namespace contend {

// A message named as on the command line: SRC:DST[:K], the K-th (from 0)
// message from SRC to DST in posting order.
struct MessageKey {
  int src = 0, dst = 0;
  std::uint32_t seq = 0;
};
// Throws contend::Error naming what was expected.
MessageKey parse_message_key(std::string_view text);

struct StoryRequest {
  std::optional<int> rank = {};            // default: the slowest rank
  std::optional<MessageKey> message = {};  // one message instead of a rank
  int last = 3;                            // messages of the rank to tell, latest first
};

// `results` must be attributed. Throws contend::Error for a rank or message
// the run does not have.
void write_story(std::ostream& out, const Results& results, const StoryRequest& request);

}  // namespace contend
