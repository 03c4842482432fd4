#pragma once
// What a run did, in time: each rank's spans (computing, inside an MPI call,
// waiting inside it), each received message from its send's post to its
// receive's completion, and (when a model records them) the load of
// contended resources over time. Filled by the engine only when asked for
// (`contend simulate --timeline/--paje`), written out by the Chrome
// trace-event writer (timeline_chrome.cpp) and the Paje writer
// (timeline_paje.cpp). docs/timelines.md has the formats.
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"

namespace contend {

enum class RankActivity : std::uint8_t {
  Compute,  // outside MPI: computing or sleeping
  Mpi,      // inside an MPI call (its name: MPI_Isend, MPI_Waitall, MPI_Bcast, ...)
  Waiting,  // inside an MPI call, blocked on a message or a request
};
std::string_view activity_name(RankActivity a);  // "compute", "mpi", "waiting"

struct TimelineSpan {
  double begin = 0, end = 0;  // seconds
  std::uint64_t order = 0;    // Timeline::next_order() when the span began
  int rank = 0;
  std::uint16_t name = 0;  // index into Timeline::names()
  RankActivity activity = RankActivity::Compute;
};

struct TimelineMessage {
  int src = 0, dst = 0;
  std::uint64_t bytes = 0;
  Level level = Level::IntraSocket;
  bool eager = false;
  double post = 0;                  // the send was posted
  std::uint64_t post_order = 0;     // Timeline::next_order() then: inside the call that posted it
  double start = 0;                 // its data began to move
  double arrived = 0;               // its last byte arrived
  double received = 0;              // the receive completed (>= arrived: a late receive)
  std::uint64_t receive_order = 0;  // Timeline::next_order() then: inside the wait that completed it
};

// Resource `resource` has load `load` from `time` on (until its next sample).
// What a load means is the recording model's: the number of flows crossing a
// link, the fraction of a NIC's bandwidth in use, ... (`unit` says which).
struct ResourceLoadSample {
  std::uint32_t resource = 0;  // index into Timeline::resources()
  double time = 0;
  double load = 0;
};
struct TimelineResource {
  std::string name;  // "nic@node1", "staircase:node0/socket1"
  std::string unit;  // "flows", "fraction of bandwidth"
};

class Timeline {
 public:
  Timeline();

  // The index of a span name (MPI_Isend, MPI_Allreduce, compute, ...). The
  // common ones are fixed; others are added the first time they are seen.
  enum FixedName : std::uint16_t {
    kCompute,
    kSleep,
    kWaiting,
    kIsend,
    kIrecv,
    kSend,
    kRecv,
    kWait,
    kWaitall,
    kTest,
    kFixedNames
  };
  std::uint16_t name_index(std::string_view name);
  const std::vector<std::string>& names() const { return names_; }

  // Spans are recorded when they end; each takes a number when it begins,
  // which orders spans that begin at one instant: the call that holds a wait
  // before the wait, a zero-length MPI_Isend before the MPI_Waitall after it.
  std::uint64_t next_order() { return next_order_++; }
  void add_span(int rank, RankActivity activity, std::uint16_t name, double begin, std::uint64_t order, double end) {
    spans_.push_back(TimelineSpan{begin, end, order, rank, name, activity});
  }
  void add_message(const TimelineMessage& m) { messages_.push_back(m); }
  std::uint32_t add_resource(TimelineResource resource);
  void add_load(std::uint32_t resource, double time, double load) { loads_.push_back({resource, time, load}); }

  // Puts every list in the order the writers need: spans by rank, begin and
  // order (an enclosing span before what it encloses); messages by post time,
  // source, destination; loads by resource and time.
  void sort();

  const std::vector<TimelineSpan>& spans() const { return spans_; }
  const std::vector<TimelineMessage>& messages() const { return messages_; }
  const std::vector<TimelineResource>& resources() const { return resources_; }
  const std::vector<ResourceLoadSample>& loads() const { return loads_; }

 private:
  std::vector<std::string> names_;
  std::uint64_t next_order_ = 0;
  std::vector<TimelineSpan> spans_;
  std::vector<TimelineMessage> messages_;
  std::vector<TimelineResource> resources_;
  std::vector<ResourceLoadSample> loads_;
};

// Seconds as whole nanoseconds (rounded to the nearest): exact for times
// below 2^52 ns (52 days); the writers print every time from it.
std::int64_t to_nanoseconds(double seconds);

// The Chrome trace-event format (JSON object form; Perfetto, chrome://tracing):
// one process per node, one thread per rank (`placements[r]`), slices for
// spans, flow arrows for messages, a counter track per resource. `ts` and
// `dur` are microseconds with three decimals: whole nanoseconds, exactly.
// `sorted` must come from Timeline::sort().
void write_chrome_trace(std::ostream& out, const Timeline& sorted, const std::vector<Placement>& placements);

// The Paje trace format (ViTE, pajeng): rank containers under node
// containers, states for spans (pushed and popped: a wait nests in its
// call), links for messages, variables for resource loads.
void write_paje_trace(std::ostream& out, const Timeline& sorted, const std::vector<Placement>& placements);

}  // namespace contend
