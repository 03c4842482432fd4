#pragma once
// Records which resource bounded each message, interval by interval
// (sim/core/attribution.hpp has the resource names; docs/explain.md).
//
// Optional: the engine and the models hold a null pointer unless the run
// asks for attribution (SimulationOptions::attribution), and then each
// event costs a branch. When it is on:
//  - the engine calls posted() when a send is posted, bound() while a
//    rendezvous waits for the matching side, and delivered() when the last
//    byte arrives;
//  - whoever decides the message's progress next calls bound() whenever
//    what bounds it changes: FluidModel for the latency phase, the model
//    for its sharing (its rate, the group, link or conflict that set it).
// bound() closes the message's open interval at `at` and opens the next;
// the same resource, rate and detail again keeps the open interval.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/core/attribution.hpp"
#include "sim/engine/transfer.hpp"

namespace contend {

class AttributionRecorder {
 public:
  // A message is posted (t.message is its id, t.post_time its time).
  void posted(const Transfer& t);
  // From `at` on, `resource` bounds `t` at `rate` B/s (0: its data does not move).
  void bound(const Transfer& t, double at, std::string resource, double rate, std::string detail);
  // The last byte of `t` arrived at `end`; `contention_free` is the time
  // from t.start to the end the model gives it alone.
  void delivered(const Transfer& t, double end, double contention_free);

  // The delivered messages, by id.
  std::vector<MessageAttribution> take_delivered();

 private:
  struct Log {
    MessageAttribution message;
    AttributionInterval open;
    bool is_open = false;
    bool delivered = false;
  };
  void close(Log& log, double at);

  std::vector<Log> logs_;                                          // by message id
  std::unordered_map<std::uint64_t, std::uint32_t> sent_between_;  // (src, dst) -> messages posted
};

}  // namespace contend
