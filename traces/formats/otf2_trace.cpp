#include "traces/formats/otf2_trace.hpp"

#include <fmt/format.h>
#include <malloc.h>
#include <otf2/otf2.h>

#include <algorithm>
#include <deque>
#include <limits>

#include "sim/core/file_io.hpp"

namespace contend {

namespace {

void check(OTF2_ErrorCode code, const std::string& path, const char* what) {
  if (code != OTF2_SUCCESS) throw Error(fmt::format("{}: {}: {}", path, what, OTF2_Error_GetDescription(code)));
}

// OTF2 prints every error it meets on stderr, a trail of its own source
// lines; contend reports the failure itself, in one line (check above).
OTF2_ErrorCode keep_otf2_quiet(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char*, va_list) {
  return code;
}

// The archive's anchor file, opened by OTF2: a missing path, a directory or
// a file OTF2 cannot read is one clear error.
OTF2_Reader* open_archive(const std::string& anchor) {
  static const bool quiet = (OTF2_Error_RegisterCallback(keep_otf2_quiet, nullptr), true);
  (void)quiet;
  // libotf2 (3.0) reads past the data of a truncated definition or event
  // file into the rest of its chunk buffer (uninitialised memory, valgrind:
  // OTF2_Buffer_ReadGetNextChunk). glibc serves a freed chunk buffer again
  // once its dynamic mmap threshold has grown, and what the previous reader
  // left there could then decide the outcome, even loop. A fixed threshold
  // keeps every chunk buffer (256 KiB at least) a fresh zero-filled mapping:
  // a broken archive reads the same, to the same error, every time.
  static const bool fresh_chunks = mallopt(M_MMAP_THRESHOLD, 128 * 1024) == 1;
  (void)fresh_chunks;
  open_input(anchor, "cannot open OTF2 anchor file '" + anchor + "'");  // exists, readable, not a directory
  OTF2_Reader* reader = OTF2_Reader_Open(anchor.c_str());
  if (!reader) throw Error(anchor + ": not an OTF2 archive (its anchor file cannot be read)");
  return reader;
}

// An archive open for reading, closed (with its event readers and files)
// when it goes out of scope, an exception included.
class OpenArchive {
 public:
  explicit OpenArchive(const std::string& anchor) : reader_(open_archive(anchor)) {}
  ~OpenArchive() { OTF2_Reader_Close(reader_); }
  OpenArchive(const OpenArchive&) = delete;
  OpenArchive& operator=(const OpenArchive&) = delete;
  OTF2_Reader* get() const { return reader_; }

 private:
  OTF2_Reader* reader_;
};

// "traces.otf2 (rank R)": where a rank's events come from, in errors.
std::string rank_label(const Otf2Definitions& defs, int rank) { return fmt::format("{} (rank {})", defs.path, rank); }

// The event reader of `rank`'s location, after its local definitions (the
// location's id mappings, if the writer made any).
OTF2_EvtReader* open_rank_events(OTF2_Reader* reader, const Otf2Definitions& defs, int rank) {
  const std::string& path = defs.path;
  const OTF2_LocationRef location = defs.rank_locations.at(static_cast<std::size_t>(rank));
  check(OTF2_Reader_SetSerialCollectiveCallbacks(reader), path, "reader set-up");
  check(OTF2_Reader_SelectLocation(reader, location), path, "selecting a location");
  if (OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS) {
    if (OTF2_DefReader* local = OTF2_Reader_GetDefReader(reader, location)) {
      uint64_t read = 0;
      OTF2_Reader_ReadAllLocalDefinitions(reader, local, &read);
      OTF2_Reader_CloseDefReader(reader, local);
    }
    OTF2_Reader_CloseDefFiles(reader);
  }
  check(OTF2_Reader_OpenEvtFiles(reader), path, "opening event files");
  OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, location);
  if (!events) throw Error(fmt::format("{}: no events for rank {} (location {})", path, rank, location));
  return events;
}

// ------------------------------------------------------------ definitions

struct GroupDef {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  std::vector<std::uint64_t> members;
};

struct RegionDef {
  OTF2_StringRef name = 0;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
};

struct DefinitionsBuilder {
  double ticks_per_second = 1;
  std::map<OTF2_StringRef, std::string> strings;
  std::map<OTF2_RegionRef, RegionDef> regions;
  std::vector<OTF2_LocationRef> locations;  // definition order
  std::map<OTF2_GroupRef, GroupDef> groups;
  std::vector<std::pair<OTF2_CommRef, OTF2_GroupRef>> comms;
};

OTF2_CallbackCode on_clock(void* data, uint64_t resolution, uint64_t, uint64_t, uint64_t) {
  static_cast<DefinitionsBuilder*>(data)->ticks_per_second = static_cast<double>(resolution);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void* data, OTF2_StringRef self, const char* text) {
  static_cast<DefinitionsBuilder*>(data)->strings[self] = text;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* data, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t,
                            uint32_t) {
  static_cast<DefinitionsBuilder*>(data)->regions[self] = RegionDef{name, paradigm};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* data, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, uint64_t,
                              OTF2_LocationGroupRef) {
  static_cast<DefinitionsBuilder*>(data)->locations.push_back(self);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* data, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm,
                           OTF2_GroupFlag, uint32_t count, const uint64_t* members) {
  static_cast<DefinitionsBuilder*>(data)->groups[self] = GroupDef{type, paradigm, {members, members + count}};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* data, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef,
                          OTF2_CommFlag) {
  static_cast<DefinitionsBuilder*>(data)->comms.emplace_back(self, group);
  return OTF2_CALLBACK_SUCCESS;
}

Otf2Definitions finish(const DefinitionsBuilder& b, const std::string& path) {
  Otf2Definitions d;
  d.path = path;
  d.ticks_per_second = b.ticks_per_second;
  for (const auto& [ref, g] : b.groups) {
    if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && g.paradigm == OTF2_PARADIGM_MPI) d.rank_locations = g.members;
  }
  if (d.rank_locations.empty()) d.rank_locations.assign(b.locations.begin(), b.locations.end());
  if (d.rank_locations.empty()) throw Error(path + ": no locations: not a trace of an MPI program");
  for (const auto& [ref, r] : b.regions) {
    auto name = b.strings.count(r.name) ? b.strings.at(r.name) : std::string();
    if (r.paradigm == OTF2_PARADIGM_MPI || name.starts_with("MPI_")) d.mpi_regions[ref] = name;
  }
  const int n = d.ranks();
  bool world_seen = false;
  for (const auto& [comm, group] : b.comms) {
    auto g = b.groups.find(group);
    if (g == b.groups.end() || g->second.type != OTF2_GROUP_TYPE_COMM_GROUP) continue;  // e.g. MPI_COMM_SELF
    std::vector<int> members;
    for (auto m : g->second.members) {
      if (m >= static_cast<std::uint64_t>(n)) {
        throw Error(fmt::format("{}: communicator {} names rank {} of {}", path, comm, m, n));
      }
      members.push_back(static_cast<int>(m));
    }
    bool is_world = static_cast<int>(members.size()) == n;
    for (int i = 0; is_world && i < n; ++i) is_world = members[static_cast<std::size_t>(i)] == i;
    if (is_world && !world_seen) {
      world_seen = true;
      d.comm_ids[comm] = 0;
    } else {
      const int id = static_cast<int>(comm) + 1;
      d.comm_ids[comm] = id;
      d.communicators[id] = members;
    }
  }
  return d;
}

}  // namespace

Otf2Definitions read_otf2_definitions(const std::string& anchor) {
  OTF2_Reader* reader = open_archive(anchor);
  DefinitionsBuilder builder;
  try {
    check(OTF2_Reader_SetSerialCollectiveCallbacks(reader), anchor, "reader set-up");
    OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
    if (!defs) throw Error(anchor + ": no global definitions (is it an OTF2 anchor file?)");
    OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(callbacks, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(callbacks, on_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(callbacks, on_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, on_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(callbacks, on_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(callbacks, on_comm);
    const auto code = OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, callbacks, &builder);
    OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
    check(code, anchor, "definitions");
    uint64_t read = 0;
    check(OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read), anchor, "reading definitions");
  } catch (...) {
    OTF2_Reader_Close(reader);
    throw;
  }
  OTF2_Reader_Close(reader);
  return finish(builder, anchor);
}

// ------------------------------------------------------------ events

namespace {

enum class EventType {
  Enter,
  Leave,
  Send,
  Isend,
  IsendComplete,
  IrecvRequest,
  Recv,
  Irecv,
  Test,
  Cancelled,
  Collective
};

struct RawEvent {
  EventType type = EventType::Enter;
  std::uint64_t time = 0;
  std::uint32_t region = 0;
  std::uint32_t peer = 0;
  OTF2_CommRef comm = 0;
  std::uint32_t tag = 0;
  std::uint64_t length = 0;
  std::uint64_t request = 0;
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
  std::uint32_t root = 0;
  std::uint64_t sent = 0, received = 0;
  std::uint64_t number = 0;  // position in the location's event stream, from 1
};

}  // namespace

struct Otf2RankReader::Impl {
  const Otf2Definitions& defs;
  int rank;
  OpenArchive archive;
  OTF2_Reader* reader = nullptr;
  OTF2_EvtReader* events = nullptr;
  std::deque<RawEvent> ahead;  // read, not yet converted
  std::deque<TiAction> out;    // converted, not yet returned
  bool end_of_events = false;
  std::uint64_t current = 0;  // number of the event being converted
  // Conversion state.
  bool started = false;
  std::uint64_t last_leave = 0;
  int mpi_depth = 0;
  std::string region_name;
  struct Key {
    int src, dst, tag, comm;
  };
  std::vector<Key> region_waits;  // blocking sends/receives of the current MPI region
  std::map<std::uint64_t, Key> requests;

  Impl(const Otf2Definitions& d, int r) : defs(d), rank(r), archive(d.path) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw Error(SourceLocation{rank_label(defs, rank), static_cast<int>(current), 0},
                "event " + std::to_string(current) + ": " + message);
  }

  void push(RawEvent e) {
    e.number = ++read_count;
    ahead.push_back(e);
  }
  std::uint64_t read_count = 0;

  // Reads one more event into `ahead`; false at the end.
  bool read_one() {
    const auto before = ahead.size();
    while (ahead.size() == before && !end_of_events) {
      uint64_t n = 0;
      check(OTF2_Reader_ReadLocalEvents(reader, events, 1, &n), rank_label(defs, rank), "reading events");
      if (n == 0) end_of_events = true;
      // Events without a callback (metrics, ...) are skipped.
    }
    return ahead.size() > before;
  }

  int comm_id(OTF2_CommRef ref) const {
    auto it = defs.comm_ids.find(ref);
    if (it == defs.comm_ids.end()) fail(fmt::format("communicator {} is not defined (or is MPI_COMM_SELF)", ref));
    return it->second;
  }
  int comm_size(int id) const { return id == 0 ? defs.ranks() : static_cast<int>(defs.communicators.at(id).size()); }
  int local_rank(int id) const {
    if (id == 0) return rank;
    const auto& m = defs.communicators.at(id);
    auto it = std::find(m.begin(), m.end(), rank);
    if (it == m.end()) fail(fmt::format("rank {} is not a member of communicator {}", rank, id));
    return static_cast<int>(it - m.begin());
  }

  TiAction action(TiKind kind, int comm = 0) const {
    TiAction a;
    a.kind = kind;
    a.rank = rank;
    a.comm = comm;
    return a;
  }

  TiAction message(TiKind kind, std::uint32_t peer, OTF2_CommRef ref, std::uint32_t tag, std::uint64_t length) const {
    const int id = comm_id(ref);
    if (static_cast<int>(peer) >= comm_size(id)) fail(fmt::format("peer {} is not in communicator {}", peer, id));
    TiAction a = action(kind, id);
    a.peer = static_cast<int>(peer);
    a.tag = static_cast<int>(tag);
    a.count = static_cast<std::int64_t>(length);
    a.datatype1 = "6";  // OTF2 sizes are bytes
    return a;
  }

  void wait_for(const Key& k, TiKind kind = TiKind::Wait) {
    TiAction a = action(kind, k.comm);
    a.src = k.src;
    a.dst = k.dst;
    a.tag = k.tag;
    out.push_back(a);
  }

  Key take_request(std::uint64_t id) {
    auto it = requests.find(id);
    if (it == requests.end()) fail(fmt::format("request {} completes but was never started", id));
    Key k = it->second;
    requests.erase(it);
    return k;
  }

  void enter(const RawEvent& e) {
    auto region = defs.mpi_regions.find(e.region);
    if (region == defs.mpi_regions.end()) return;
    if (mpi_depth++ > 0) return;
    const double gap = static_cast<double>(e.time - last_leave) / defs.ticks_per_second;
    if (gap > 0) {
      TiAction c = action(TiKind::Compute);
      c.amount = gap;
      c.in_seconds = true;
      out.push_back(c);
    }
    region_name = region->second;
    if (region_name == "MPI_Finalize") out.push_back(action(TiKind::Finalize));
  }

  void leave(const RawEvent& e) {
    if (!defs.mpi_regions.count(e.region) || mpi_depth == 0) return;
    if (--mpi_depth > 0) return;
    last_leave = e.time;
    for (const auto& k : region_waits) wait_for(k);
    region_waits.clear();
    if (region_name == "MPI_Init" || region_name == "MPI_Init_thread") out.push_front(action(TiKind::Init));
  }

  void require_region(const char* event) const {
    if (mpi_depth == 0) fail(std::string(event) + " outside an MPI region");
  }

  // An irecv is posted before OTF2 says from whom: read ahead to its completion.
  void irecv_request(const RawEvent& e) {
    for (std::size_t i = 0;; ++i) {
      if (i == ahead.size() && !read_one()) fail(fmt::format("irecv request {} never completes", e.request));
      RawEvent& later = ahead[i];
      if (later.request != e.request) continue;
      if (later.type == EventType::Cancelled) return;
      if (later.type != EventType::Irecv) continue;
      const TiAction a = message(TiKind::Irecv, later.peer, later.comm, later.tag, later.length);
      out.push_back(a);
      requests[e.request] = Key{a.peer, local_rank(a.comm), a.tag, a.comm};
      return;
    }
  }

  void collective(const RawEvent& e) {
    if (e.op >= OTF2_COLLECTIVE_OP_CREATE_HANDLE) return;  // communicator/window management: no data
    const int id = comm_id(e.comm);
    const int n = comm_size(id);
    const auto N = static_cast<std::uint64_t>(n);
    const bool is_root = local_rank(id) == static_cast<int>(e.root);
    if (e.op != OTF2_COLLECTIVE_OP_BARRIER && e.op != OTF2_COLLECTIVE_OP_ALLREDUCE &&
        e.op != OTF2_COLLECTIVE_OP_ALLGATHER && e.op != OTF2_COLLECTIVE_OP_ALLGATHERV &&
        e.op != OTF2_COLLECTIVE_OP_ALLTOALL && e.op != OTF2_COLLECTIVE_OP_ALLTOALLV &&
        e.op != OTF2_COLLECTIVE_OP_REDUCE_SCATTER && e.op != OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK &&
        static_cast<int>(e.root) >= n) {
      fail(fmt::format("root {} is not in communicator {}", e.root, id));
    }
    auto each = [&](std::int64_t v) { return std::vector<std::int64_t>(static_cast<std::size_t>(n), v); };
    TiAction a = action(TiKind::Barrier, id);
    a.root = static_cast<int>(e.root);
    a.datatype1 = a.datatype2 = "6";
    a.receive_bound = static_cast<std::int64_t>(e.received);
    const auto sent = static_cast<std::int64_t>(e.sent), received = static_cast<std::int64_t>(e.received);
    const auto share = static_cast<std::int64_t>(e.sent / N);
    switch (e.op) {
      case OTF2_COLLECTIVE_OP_BARRIER:
        break;
      case OTF2_COLLECTIVE_OP_BCAST:
        a.kind = TiKind::Bcast;
        a.count = received;
        break;
      case OTF2_COLLECTIVE_OP_REDUCE:
        a.kind = TiKind::Reduce;
        a.count = sent;
        break;
      case OTF2_COLLECTIVE_OP_ALLREDUCE:
        a.kind = TiKind::Allreduce;
        a.count = share;
        break;
      case OTF2_COLLECTIVE_OP_ALLTOALL:
        a.kind = TiKind::Alltoall;
        a.send_count = share;
        a.recv_count = static_cast<std::int64_t>(e.received / N);
        break;
      case OTF2_COLLECTIVE_OP_ALLGATHER:
        a.kind = TiKind::Allgather;
        a.send_count = a.recv_count = share;
        break;
      case OTF2_COLLECTIVE_OP_GATHER:
        a.kind = TiKind::Gather;
        a.send_count = a.recv_count = sent;
        break;
      case OTF2_COLLECTIVE_OP_SCATTER:
        a.kind = TiKind::Scatter;
        a.send_count = a.recv_count = received;
        break;
      case OTF2_COLLECTIVE_OP_GATHERV:
        a.kind = TiKind::Gatherv;
        a.send_count = sent;
        a.recv_counts = is_root ? each(kOtf2AnySize) : each(0);
        break;
      case OTF2_COLLECTIVE_OP_SCATTERV:
        a.kind = TiKind::Scatterv;
        a.send_counts = is_root ? each(sent / n) : each(0);
        a.recv_count = is_root ? sent / n : kOtf2AnySize;
        break;
      case OTF2_COLLECTIVE_OP_ALLGATHERV:
        // Equal blocks on every rank (the total received is the same on all).
        a.kind = TiKind::Allgatherv;
        a.send_count = static_cast<std::int64_t>(e.received / N);
        a.recv_counts = each(a.send_count);
        break;
      case OTF2_COLLECTIVE_OP_ALLTOALLV:
        a.kind = TiKind::Alltoallv;
        a.send_count = sent;
        a.send_counts = each(share);
        a.recv_count = received;
        a.recv_counts = each(kOtf2AnySize);
        break;
      case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
      case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        a.kind = TiKind::ReduceScatter;
        a.recv_counts = each(share);
        break;
      default:
        fail(fmt::format("collective operation {} (scan, exscan, alltoallw) cannot be replayed",
                         static_cast<int>(e.op)));
    }
    out.push_back(a);
  }

  void convert(const RawEvent& e) {
    current = e.number;
    if (!started) {
      started = true;
      last_leave = e.time;  // computation counts from the rank's first event
    }
    switch (e.type) {
      case EventType::Enter:
        enter(e);
        break;
      case EventType::Leave:
        leave(e);
        break;
      case EventType::Send: {
        require_region("MpiSend");
        TiAction a = message(TiKind::Isend, e.peer, e.comm, e.tag, e.length);
        out.push_back(a);
        region_waits.push_back(Key{local_rank(a.comm), a.peer, a.tag, a.comm});
        break;
      }
      case EventType::Recv: {
        require_region("MpiRecv");
        TiAction a = message(TiKind::Irecv, e.peer, e.comm, e.tag, e.length);
        out.push_back(a);
        region_waits.push_back(Key{a.peer, local_rank(a.comm), a.tag, a.comm});
        break;
      }
      case EventType::Isend: {
        TiAction a = message(TiKind::Isend, e.peer, e.comm, e.tag, e.length);
        out.push_back(a);
        requests[e.request] = Key{local_rank(a.comm), a.peer, a.tag, a.comm};
        break;
      }
      case EventType::IrecvRequest:
        irecv_request(e);
        break;
      case EventType::IsendComplete:
      case EventType::Irecv:
        wait_for(take_request(e.request));
        break;
      case EventType::Test:
        if (auto it = requests.find(e.request); it != requests.end()) wait_for(it->second, TiKind::Test);
        break;
      case EventType::Cancelled:
        requests.erase(e.request);
        break;
      case EventType::Collective:
        collective(e);
        break;
    }
  }
};

namespace {

using Impl = Otf2RankReader::Impl;

Impl& self(void* data) { return *static_cast<Impl*>(data); }

// Enter and Leave.
template <EventType type>
OTF2_CallbackCode ev_region(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*,
                            OTF2_RegionRef r) {
  self(d).push(RawEvent{.type = type, .time = t, .region = r});
  return OTF2_CALLBACK_SUCCESS;
}

RawEvent message_event(EventType type, OTF2_TimeStamp t, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                       uint64_t length, uint64_t request) {
  return RawEvent{
      .type = type, .time = t, .peer = peer, .comm = comm, .tag = tag, .length = length, .request = request};
}

// MPI_Send and MPI_Recv.
template <EventType type>
OTF2_CallbackCode ev_blocking(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*, uint32_t peer,
                              OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  self(d).push(message_event(type, t, peer, comm, tag, length, 0));
  return OTF2_CALLBACK_SUCCESS;
}

// MPI_Isend and the completion of an MPI_Irecv.
template <EventType type>
OTF2_CallbackCode ev_nonblocking(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*,
                                 uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request) {
  self(d).push(message_event(type, t, peer, comm, tag, length, request));
  return OTF2_CALLBACK_SUCCESS;
}

template <EventType type>
OTF2_CallbackCode ev_request(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*,
                             uint64_t request) {
  self(d).push(message_event(type, t, 0, 0, 0, 0, request));
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode ev_collective(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*,
                                OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                uint64_t received) {
  self(d).push(RawEvent{.type = EventType::Collective,
                        .time = t,
                        .comm = comm,
                        .op = op,
                        .root = root,
                        .sent = sent,
                        .received = received});
  return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

Otf2RankReader::Otf2RankReader(const Otf2Definitions& defs, int rank) : impl_(std::make_unique<Impl>(defs, rank)) {
  Impl& m = *impl_;
  const std::string& path = defs.path;
  m.reader = m.archive.get();
  m.events = open_rank_events(m.reader, defs, rank);
  OTF2_EvtReaderCallbacks* callbacks = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(callbacks, ev_region<EventType::Enter>);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(callbacks, ev_region<EventType::Leave>);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(callbacks, ev_blocking<EventType::Send>);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(callbacks, ev_blocking<EventType::Recv>);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(callbacks, ev_nonblocking<EventType::Isend>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(callbacks, ev_nonblocking<EventType::Irecv>);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(callbacks, ev_request<EventType::IsendComplete>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(callbacks, ev_request<EventType::IrecvRequest>);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(callbacks, ev_request<EventType::Test>);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(callbacks, ev_request<EventType::Cancelled>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(callbacks, ev_collective);
  const auto code = OTF2_Reader_RegisterEvtCallbacks(m.reader, m.events, callbacks, &m);
  OTF2_EvtReaderCallbacks_Delete(callbacks);
  check(code, path, "event callbacks");
}

Otf2RankReader::~Otf2RankReader() = default;

void check_otf2_events(const Otf2Definitions& defs) {
  for (int rank = 0; rank < defs.ranks(); ++rank) {
    const OpenArchive archive(defs.path);
    OTF2_EvtReader* events = open_rank_events(archive.get(), defs, rank);
    uint64_t read = 0;  // no callbacks: the events are decoded and dropped
    check(OTF2_Reader_ReadAllLocalEvents(archive.get(), events, &read), rank_label(defs, rank), "reading events");
  }
}

std::optional<TiAction> Otf2RankReader::next() {
  Impl& m = *impl_;
  while (m.out.empty()) {
    if (m.ahead.empty() && !m.read_one()) return std::nullopt;
    const RawEvent e = m.ahead.front();
    m.ahead.pop_front();
    m.convert(e);
  }
  TiAction a = m.out.front();
  m.out.pop_front();
  return a;
}

SourceLocation Otf2RankReader::where() const {
  return SourceLocation{rank_label(impl_->defs, impl_->rank), static_cast<int>(impl_->current), 0};
}

}  // namespace contend
