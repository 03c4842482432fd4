#pragma once
// SimGrid time-independent (TI) traces, as SimGrid 3.32's `smpirun -trace-ti`
// writes them and `smpirun -replay` reads them (src/smpi/internals/smpi_replay.cpp).
//
// A trace is either an index file naming one file per rank (line i: rank i's
// file; SimGrid writes INDEX and INDEX_files/<stamp>_rank-<i+1>.txt), or one
// file holding every rank's lines. A line is `RANK ACTION ARGS...`:
//
//   0 init                          0 finalize
//   0 send PEER TAG COUNT [DT]      0 isend PEER TAG COUNT [DT]
//   0 recv PEER TAG COUNT [DT]      0 irecv PEER TAG COUNT [DT]   (COUNT -1: any size)
//   0 test SRC DST TAG              0 wait SRC DST TAG          0 waitall [N]
//   0 compute FLOPS                 0 sleep SECONDS
//   0 barrier                       0 bcast COUNT [ROOT [DT]]
//   0 reduce COUNT FLOPS [ROOT [DT]]              0 allreduce COUNT FLOPS [DT]
//   0 alltoall SCOUNT RCOUNT [DT1 [DT2]]          0 allgather SCOUNT RCOUNT [DT1 [DT2]]
//   0 gather SCOUNT RCOUNT [ROOT [DT1 [DT2]]]     0 scatter SCOUNT RCOUNT [ROOT [DT1 [DT2]]]
//   0 gatherv SCOUNT RCOUNT*n [ROOT [DT1 [DT2]]]  0 allgatherv SCOUNT RCOUNT*n [DT1 [DT2]]
//   0 scatterv SCOUNT*n RCOUNT [ROOT [DT1 [DT2]]] 0 reducescatter RCOUNT*n FLOPS [DT]
//   0 alltoallv SSUM SCOUNT*n RSUM RCOUNT*n [DT1 [DT2]]
//   0 scan COUNT FLOPS [DT]         0 exscan COUNT FLOPS [DT]
//   0 comm_size [N]                 0 comm_split [PARENT COLOR KEY]   0 comm_dup [PARENT]
//   0 location FILE LINE            (where the call was made: nothing to replay)
//   0 sendRecv SCOUNT DST RCOUNT SRC [DT1 [DT2]]   (MPI_Sendrecv; tags are not recorded: 0)
//   0 Ssend / bsend ... as send     0 ISsend / ibsend ... as isend
//   0 waitAny N                     0 testany / testall / testsome   (no request named)
//
// Optional fields as SimGrid 3.32's parsers take them (smpi_replay.cpp):
// fields beyond those read are ignored, allgatherv may end with
// displacements (and datatypes). SimGrid before 3.20 wrote other names
// (Isend, Irecv, waitAll, allReduce, allToAll, allToAllV, gatherV, scatterV,
// allGather, allGatherV, reduceScatter), point-to-point lines without a
// tag (`send PEER COUNT [DT]`, TiDialect::before_3_20, recognised by
// open_ti_trace) and `wait`/`test` without arguments (the last request
// posted); datatype -1 is the default type.
//
// n is the size of MPI_COMM_WORLD (SimGrid's replay uses it for every
// collective). Counts are in elements of the SimGrid datatype id DT (0 double,
// 1 int, 2 char, 6 byte, ...; simgrid_datatype_size); without DT, the
// default type is MPI_BYTE, or MPI_DOUBLE when `init` has an argument
// (SimGrid's rule, from the MPE/TAU conventions). COMPUTE amounts are flops at
// the platform's core speed (SimGrid's tracer records seconds x smpi/host-speed);
// contend's tracer and convert-trace write the speed they assumed as a
// comment line `# contend-trace compute-speed SPEED` (TiTraceFiles::recorded_speed).
//
// contend extensions (SimGrid ignores extra trailing fields and treats
// comm_split/comm_dup as no-ops): comm_split and comm_dup carry their parent
// communicator, colour and key; a communicator is numbered on each rank in
// creation order (world is 0); a point-to-point or collective line on another
// communicator ends with `comm=ID`. Peers and roots are ranks within that
// communicator. A point-to-point message of a vector datatype carries its
// layout as `type=vector:C,B,S:BASE` before `comm=` (its COUNT is then in
// bytes, DT 6), for models that charge per-datatype costs (LogGOPS).
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"

namespace contend {

enum class TiKind : std::uint8_t {
  Init,
  Finalize,
  Send,
  Isend,
  Recv,
  Irecv,
  Test,
  Wait,
  Waitall,
  Compute,
  Sleep,
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  Alltoall,
  Alltoallv,
  Gather,
  Gatherv,
  Scatter,
  Scatterv,
  Allgather,
  Allgatherv,
  ReduceScatter,
  CommSize,
  CommSplit,
  CommDup,
  SendRecv,
  WaitAny,
  TestAny,
  TestAll,
  TestSome,
  Location,
  Scan,
  Exscan,
};

// Which SimGrid's tracer wrote a trace: point-to-point lines with a tag
// (3.20 and later), or without (`send PEER COUNT [DT]`, before 3.20).
enum class TiDialect { simgrid_3_20, before_3_20 };

// A receive's count of -1: the size is not known (SimGrid probes for it);
// it accepts whatever the matching send carries.
inline constexpr std::int64_t kTiUnknownCount = -1;

// The action's name in traces, e.g. "reducescatter" (the one contend writes).
std::string_view ti_kind_name(TiKind kind);
// The name `action` was read with (or its kind's).
std::string_view ti_action_name(const struct TiAction& action);
const std::vector<std::string>& ti_action_names();

struct TiAction {
  TiKind kind = TiKind::Init;
  std::string_view name;  // as written (Ssend and send are both TiKind::Send); empty: the kind's name
  int rank = 0;
  // send/isend/recv/irecv: the peer (-1: any source); test/wait: src and dst.
  int peer = 0;
  int src = 0, dst = 0;
  int tag = 0;
  // Element counts: p2p, bcast, reduce, allreduce use `count`; the rooted and
  // all-to-all collectives use send_count/recv_count or the per-rank vectors.
  std::int64_t count = 0;
  std::int64_t send_count = 0, recv_count = 0;
  std::vector<std::int64_t> send_counts, recv_counts;
  double amount = 0;        // compute and reduction flops, sleep seconds, waitall N
  bool in_seconds = false;  // compute: `amount` is seconds at the core's speed (OTF2 gaps), not flops
  // OTF2 v-collectives: receive counts OTF2 does not know are kOtf2AnySize
  // (accept any size); this is the rank's total received bytes, their bound.
  std::int64_t receive_bound = 0;
  int root = 0;
  std::string datatype1, datatype2;    // SimGrid ids as written ("" = absent)
  int comm = 0;                        // contend extension; 0 = MPI_COMM_WORLD
  std::string layout;                  // contend extension: `type=vector:C,B,S:BASE` of a p2p message
  int color = 0, key = 0, parent = 0;  // comm_split / comm_dup
  bool init_has_argument = false;      // init: `0 init 1` selects MPI_DOUBLE as default type
  bool latest_request = false;         // wait/test naming no request (before 3.20): the last one posted
};

// Bytes of one element of SimGrid datatype `id` (smpi_datatype.cpp's table);
// nothing for ids SimGrid does not predefine.
std::optional<int> simgrid_datatype_size(std::string_view id);

// The size of communicator `id` on this rank (the length of the count arrays
// of a v-collective on it), or nothing if it is unknown.
using CommSizeLookup = std::function<std::optional<int>(int id)>;

// Parses one line. `world` is the number of ranks (the length of the count
// arrays on MPI_COMM_WORLD). Throws contend::Error naming file:line:col and
// what was expected. Returns nothing for blank and '#' comment lines.
std::optional<TiAction> parse_ti_line(std::string_view text, const std::string& file, int line, int world,
                                      const CommSizeLookup& comm_size = {},
                                      TiDialect dialect = TiDialect::simgrid_3_20);
// The same with the caller's buffer for the line's fields (a reader of many
// lines keeps one: no allocation per line).
std::optional<TiAction> parse_ti_line(std::string_view text, const std::string& file, int line, int world,
                                      std::vector<std::string_view>& fields, const CommSizeLookup& comm_size = {},
                                      TiDialect dialect = TiDialect::simgrid_3_20);

// The speed in a `# contend-trace compute-speed SPEED` comment line, if
// `text` is one (an error at file:line if its speed is not one).
std::optional<double> ti_recorded_speed(std::string_view text, const std::string& file, int line);
// That line, for a speed in flop/s.
std::string ti_speed_comment(double flops_per_second);

// The line SimGrid writes for `action` (without the newline).
std::string format_ti_action(const TiAction& action);

// Where each rank's actions are.
struct TiTraceFiles {
  std::string path;                     // what the user named
  bool single_file = false;             // every rank's lines in `path`
  std::vector<std::string> rank_files;  // one per rank (all `path` if single_file)
  TiDialect dialect = TiDialect::simgrid_3_20;
  std::optional<double> recorded_speed;  // flop/s the tracer turned seconds into flops at, if it says
  int ranks() const { return static_cast<int>(rank_files.size()); }
};

// Resolves an index file (relative names are tried against the current
// directory, the index's directory, and INDEX_files/ next to it) or a single
// trace file (ranks = highest rank named + 1, found by one streaming pass).
// At most limits::kMaxRanks ranks. The dialect and the recorded speed come
// from one pass over the first rank's file: a name only SimGrid before 3.20
// wrote (Isend, waitAll, ...), or a `wait`/`test` without arguments, marks
// the older dialect.
TiTraceFiles open_ti_trace(const std::string& path);

// Reads one rank's actions lazily, one line at a time: memory does not grow
// with the trace. In a single-file trace, other ranks' lines are skipped.
// A rank's file read through its own descriptor (see ti_files.cpp).
class TiFileBuffer;

class TiRankReader {
 public:
  TiRankReader(const TiTraceFiles& files, int rank);
  ~TiRankReader();
  TiRankReader(const TiRankReader&) = delete;
  TiRankReader& operator=(const TiRankReader&) = delete;
  // The next action of this rank; nothing at the end of its file.
  std::optional<TiAction> next();
  SourceLocation where() const { return {file_, line_, 0}; }
  // Communicators created by the replay, for the count arrays on them.
  void set_comm_size(int id, int size) { comm_sizes_[id] = size; }

 private:
  std::map<int, int> comm_sizes_;
  std::string file_;
  std::unique_ptr<TiFileBuffer> buffer_;
  std::istream in_;
  int rank_;
  int world_;
  bool single_file_;
  TiDialect dialect_;
  int line_ = 0;
  std::string text_;
  std::vector<std::string_view> fields_;  // the line's fields, reused from line to line
};

// Bytes of `count` elements of type `datatype` (or the default type), at
// most limits::kMaxMessageBytes (an error at `where` beyond); an unknown
// count (kTiUnknownCount) is that limit: a receive that takes any size.
std::uint64_t ti_bytes(std::int64_t count, const std::string& datatype, bool default_is_double,
                       const SourceLocation& where);
std::uint64_t ti_element_bytes(std::int64_t count, std::uint32_t element_bytes, const SourceLocation& where);
// The same, or nothing where ti_bytes would throw: for callers that build
// the location only for the error (once per message otherwise).
std::optional<std::uint64_t> ti_bytes_within_limits(std::int64_t count, const std::string& datatype,
                                                    bool default_is_double);

// Writes one rank's actions in SimGrid's format (used by the tracer and tests).
void write_ti_index(std::ostream& out, const std::vector<std::string>& rank_files);

}  // namespace contend
