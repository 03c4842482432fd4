#pragma once
// Which resource bounded each message, interval by interval (docs/explain.md):
// what `simulate --explain FILE` writes, what the `limited_by` and
// `slowdown` columns of `--messages` summarise, and what `contend explain`
// tells. Plain data: the engine's recorder (sim/engine/attribution_recorder.hpp)
// fills it during a run.
//
// A message lives from the posting of its send to the arrival of its last
// byte. Its intervals cover that life without gaps or overlaps; in each, one
// resource bounded its progress:
//   rendezvous                 waiting for the matching side (the engine)
//   latency                    its route's latency, before data moves
//   cpu:o_s, loggops:gap@rankR, loggops:g+Gk@rankR   LogGOPS CPU and NIC
//   staircase:nodeN(N=n), staircase:nodeN/socketS(N=n)   a staircase group
//   nic:nodeN/out, nic:nodeN/in, memory:nodeN/socketS, ingress:nodeN/socketS,
//   link:NAME                  the maxmin / simgrid-lmm constraint
//   flowcut:outgo-income@nodeN, flowcut:outgo@nodeN, flowcut:income@nodeN,
//   flowcut:include, flowcut:start-end, flowcut:bandwidth   flow cuts
//   taulop:channel@LEVEL(c=n)  a tau-Lop channel with n concurrent transfers
// The names are short and stable (the timeline's counter tracks and the HTML
// report key on them); `detail` gives the numbers behind the rate in words.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/platform.hpp"

namespace contend {

struct AttributionInterval {
  double begin = 0, end = 0;
  std::string resource;
  double rate = 0;  // B/s of the message during the interval; 0 when its data does not move
  std::string detail;
};

struct MessageAttribution {
  std::uint64_t id = 0;  // posting order in the run (0, 1, ...)
  int src = 0, dst = 0, tag = 0;
  std::uint32_t seq = 0;  // K-th message from src to dst (0, 1, ...), in posting order
  std::uint64_t bytes = 0;
  Level level = Level::IntraSocket;
  double post = 0;   // its send was posted
  double start = 0;  // the engine handed it to the model (matching time under rendezvous)
  double end = 0;    // its last byte arrived
  // The time from `start` to `end` the model gives it alone on the
  // platform, with the same protocol (each model's README, "Attribution").
  double contention_free = 0;
  std::vector<AttributionInterval> intervals;

  // The resource that bounded the message longest (summing its intervals);
  // ties go to the one met first.
  std::string limited_by() const;
  // (end - start) / contention_free; 1 when both are 0.
  double slowdown() const;
  // Seconds spent bounded by `resource`.
  double time_on(const std::string& resource) const;
};

// id,src,dst,tag,seq,begin_s,end_s,resource,rate_Bps,detail: every interval
// of every message, messages in id order (the detail in double quotes).
void write_explain_csv(std::ostream& out, const std::vector<MessageAttribution>& messages);

}  // namespace contend
