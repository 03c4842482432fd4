#pragma once
// OTF2 traces of MPI programs (as Score-P records them), read with Debian's
// libotf2: definitions once, then each rank's events lazily, turned into
// the actions of formats/ti_trace.hpp so the replay (replay/rank_replay.hpp)
// is shared with TI traces.
//
// Mapping (Score-P's conventions for MPI events):
//   - ranks: the members of the MPI COMM_LOCATIONS group, in order (rank i
//     is location members[i]); without one, locations in definition order;
//   - computation: the time between leaving one MPI region and entering the
//     next (from the location's first event to MPI_Init), replayed as that
//     many seconds at the core's speed;
//   - MpiSend / MpiRecv: a message posted and waited for when its MPI region
//     is left (so MPI_Sendrecv cannot deadlock); MpiIsend + MpiIsendComplete,
//     MpiIrecvRequest + MpiIrecv: isend/irecv and wait (an irecv's sender,
//     tag and size are those of its completion event, found by reading
//     ahead); a completion inside MPI_Test* counts as a wait (the program
//     polled until then); MpiRequestTest: an unsuccessful test;
//   - MpiCollectiveEnd: the collective with Score-P's byte counts per rank
//     (bcast: received; reduce, gather: sent; allreduce, allgather, alltoall:
//     sent / N). OTF2 records only each rank's totals of a v-collective:
//     allgatherv blocks are taken equal (total / N), a rank's alltoallv and
//     root scatterv sends are split equally among the peers, and receives
//     of v-collectives accept any size;
//   - communicators: their definitions (group members) give their world
//     ranks; MPI_COMM_WORLD is the one holding every rank in order.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/formats/ti_trace.hpp"

namespace contend {

// Receive counts of v-collectives that OTF2 does not record: any size.
inline constexpr std::int64_t kOtf2AnySize = std::int64_t{1} << 40;

struct Otf2Definitions {
  std::string path;                           // the anchor file (traces.otf2)
  std::vector<std::uint64_t> rank_locations;  // rank -> OTF2 location
  double ticks_per_second = 1;
  std::map<std::uint32_t, std::string> mpi_regions;  // region -> name, MPI regions only
  std::map<std::uint32_t, int> comm_ids;             // OTF2 comm -> contend comm id (world = 0)
  std::map<int, std::vector<int>> communicators;     // contend comm id (not world) -> world ranks
  int ranks() const { return static_cast<int>(rank_locations.size()); }
};

// Reads the global definitions; throws contend::Error naming the archive.
Otf2Definitions read_otf2_definitions(const std::string& anchor);

// Decodes every rank's events (without converting them): a truncated or
// corrupt event file is an error naming the archive and the rank. The replay
// checks this before it starts: read lazily, the error would reach a rank
// only after its last good event, and a rank blocked before that (its peers
// waiting for what the lost events held) would show it as a deadlock.
void check_otf2_events(const Otf2Definitions& defs);

// One rank's events as actions, read lazily.
class Otf2RankReader {
 public:
  Otf2RankReader(const Otf2Definitions& defs, int rank);
  ~Otf2RankReader();
  Otf2RankReader(const Otf2RankReader&) = delete;
  Otf2RankReader& operator=(const Otf2RankReader&) = delete;

  std::optional<TiAction> next();
  // "traces.otf2 (rank R)" and the number of the event being converted.
  SourceLocation where() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace contend
