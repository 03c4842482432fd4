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

// One message's story: its times, its slowdown and what bounded it, then
// every interval with its resource, rate and detail. `indent`: spaces before
// each line (a rank's messages are told under it). The HTML report
// (html_report.hpp) shows the same text for its most delayed messages.
void write_message_story(std::ostream& out, const MessageAttribution& m, int indent = 0);

// `results` must be attributed. Throws contend::Error for a rank or message
// the run does not have.
void write_story(std::ostream& out, const Results& results, const StoryRequest& request);

}  // namespace contend
