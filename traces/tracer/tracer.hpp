#pragma once
// libcontend-trace.so: state of one traced MPI rank. The wrappers in
// mpi_wrappers.cpp call Tracer around every PMPI call; Tracer turns calls into
// SimGrid time-independent trace lines (traces/formats/ti_trace.hpp), times
// them, and writes the rank's files at MPI_Finalize.
//
// Memory stays bounded: lines go to a 1 MiB buffer flushed to the rank's
// part file; requests and communicators are tracked only while alive.
// Any failure to write is reported on stderr and aborts the job
// (MPI_Abort with code 1): a trace must not be silently incomplete.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace contend::tracer {

// Denis et al.'s call categories (dedicated-core model profile, docs/workloads.md,
// "Progression profiles").
enum class CallKind { Nonblocking, Test, Wait, Blocking, Other };

struct Stats {
  long long count = 0;
  double total = 0;
  double min = 0;
  void add(double seconds) {
    min = count == 0 ? seconds : std::min(min, seconds);
    ++count;
    total += seconds;
  }
};

// A file written in chunks: appended text stays in a buffer of at most
// `kChunk` bytes, flushed to PATH.part; close() renames it to PATH.
class ChunkedFile {
 public:
  static constexpr std::size_t kChunk = 1 << 20;
  void open(const std::string& path);
  void append(std::string_view text) {
    buffer_ += text;
    if (buffer_.size() >= kChunk) flush();
  }
  void close();

 private:
  void flush();
  std::string path_, part_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
};

struct RequestInfo {
  int src = 0, dst = 0, tag = 0, comm = 0;
};

// Requests still pending, by handle. One handle may stand for several
// requests: Open MPI hands out one shared, already complete request object
// for small sends that completed at once. Such a handle's requests are taken
// in posting order.
class PendingRequests {
 public:
  void add(MPI_Request r, const RequestInfo& info) {
    map_[r].push_back(info);
    ++count_;
  }
  const RequestInfo* peek(MPI_Request r) const {
    auto it = map_.find(r);
    return it == map_.end() ? nullptr : &it->second.front();
  }
  std::optional<RequestInfo> take(MPI_Request r) {
    auto it = map_.find(r);
    if (it == map_.end()) return std::nullopt;
    RequestInfo info = it->second.front();
    it->second.pop_front();
    if (it->second.empty()) map_.erase(it);
    --count_;
    return info;
  }
  std::size_t size() const { return count_; }

 private:
  std::unordered_map<MPI_Request, std::deque<RequestInfo>> map_;
  std::size_t count_ = 0;
};

// One element count and SimGrid datatype id as a TI line states them:
// predefined types keep their id; derived types become bytes (id 6, MPI_BYTE).
struct Elements {
  long long count = 0;
  int id = 6;
  std::string layout;  // contend extension "type=vector:C,B,S:BASE", or ""
};

class Tracer {
 public:
  static Tracer& get();
  bool active() const { return active_; }

  void start(int world_rank);  // after PMPI_Init
  void finish();               // before PMPI_Finalize

  // Around one MPI call: begin() notes the computation since the last call,
  // end() its duration (written to calls-R.csv as `call,start,duration,compute_before`).
  void begin();
  void end(const char* call, CallKind kind);

  void line(const std::string& text);  // "ACTION ARGS" (the rank is prepended)
  Elements elements(long long count, MPI_Datatype type) const;
  std::string comm_suffix(MPI_Comm comm) const;  // "" or " comm=ID" (of a recorded communicator)
  // Whether calls on `comm` are recorded: MPI_COMM_WORLD and the
  // communicators split or duplicated from recorded ones. Calls on
  // MPI_COMM_SELF (local copies) are left out; calls on communicators made
  // otherwise (MPI_Comm_create, topologies, intercommunicators) too, with one
  // warning on stderr: the program runs on unchanged, the trace lacks them.
  bool records(MPI_Comm comm);
  int comm_id(MPI_Comm comm) const;
  int add_comm(MPI_Comm comm);  // a new communicator; returns its id
  void forget_comm(MPI_Comm comm) { comms_.erase(comm); }
  PendingRequests& requests() { return requests_; }
  int rank() const { return rank_; }

  [[noreturn]] void die(const std::string& what) const;

 private:
  void write_rank_outputs();
  double now() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_).count(); }

  bool active_ = false;
  int rank_ = 0, world_ = 1;
  double speed_ = 1e9;  // flop/s: compute lines hold seconds x speed
  std::string dir_;
  ChunkedFile trace_, calls_;
  std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
  double init_end_ = 0, last_exit_ = 0, call_begin_ = 0;
  double comp_ = 0, mpi_ = 0;
  double pending_compute_ = 0;  // seconds of computation not yet written
  double gap_before_ = 0;       // seconds of computation before the current call
  Stats nonblocking_, test_, wait_, blocking_, other_;
  std::unordered_map<MPI_Comm, int> comms_;
  int next_comm_ = 1;
  bool warned_unknown_comm_ = false;
  PendingRequests requests_;
};

}  // namespace contend::tracer
