#pragma once
// MPI collectives as Open MPI 4.1's coll/tuned + coll/base components run
// them: each collective is decomposed into the point-to-point messages
// (Isend/Irecv/Wait on the Mpi handle) of the algorithm Open MPI would pick,
// with its virtual trees, segmentation and request windows.
//
// Usage inside a rank's actor:
//   coll::Communicator world = coll::world_communicator(mpi);
//   coll::CollectiveCall call = coll::make_call(coll::CollectiveOp::bcast, 1 << 20, /*root=*/0);
//   coll::run_collective(mpi, world, call, settings);
//
// Every member of the communicator must make the same calls in the same
// order (MPI semantics); each call is blocking, like the MPI function. As in
// Open MPI's MPI layer, an empty bcast/reduce/allreduce/gather/scatter/
// allgather/alltoall (or a reduce_scatter of zero counts) sends nothing.
// Messages of collectives carry negative tags (as Open MPI's
// MCA_COLL_BASE_TAG_*), which MPI_ANY_TAG receives never match, so they never
// mix with user messages on the same communicator.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/collective_call.hpp"
#include "sim/engine/context_registry.hpp"

namespace contend {
class Mpi;
}

namespace contend::coll {

// ---------------------------------------------------------------- communicators

// One rank's view of a communicator. `context` is the `comm` integer used in
// message matching (0 = MPI_COMM_WORLD). Every member holds its own copy; the
// copies agree on context and world_ranks.
struct Communicator {
  int context = 0;
  std::vector<int> world_ranks;  // local rank -> world rank
  int local_rank = 0;            // this rank's index in world_ranks
  // How many communicators this rank has derived from this one (split/dup):
  // members derive in the same order, so the counter names a derivation
  // identically on all of them without communication.
  int derived_count = 0;

  int size() const { return static_cast<int>(world_ranks.size()); }
  int world_rank(int local) const { return world_ranks.at(static_cast<std::size_t>(local)); }
  int my_world_rank() const { return world_rank(local_rank); }
  // The local rank of a world rank, or nothing if it is not a member.
  std::optional<int> local_of_world(int world) const;
};

// MPI_COMM_WORLD for `mpi.rank()`: context 0, world_ranks 0..size-1.
Communicator world_communicator(const Mpi& mpi);

inline constexpr int kUndefinedColor = -32766;  // MPI_UNDEFINED (Open MPI's value)

struct ColorKey {
  int color = 0;
  int key = 0;
};

// MPI_Comm_split, given every member's (color, key) indexed by parent local
// rank (a trace records them; the allgather Open MPI runs to learn them is
// not simulated here — call run_collective(allgather) first if its cost
// matters). The new communicator holds the parent members with this rank's
// color, ordered by (key, parent local rank). Returns nothing for
// kUndefinedColor (MPI_COMM_NULL). Increments parent.derived_count, also for
// an undefined color, as every member must.
// The context id comes from the run's registry (`mpi.contexts()`), keyed by
// (parent context, derivation number, color): identical on all members,
// distinct from every other communicator's.
std::optional<Communicator> split_communicator(contend::ContextRegistry& contexts, Communicator& parent,
                                               const std::vector<ColorKey>& by_parent_rank);

// MPI_Comm_dup: same members and order, a new context.
Communicator dup_communicator(contend::ContextRegistry& contexts, Communicator& parent);

// ---------------------------------------------------------------- settings

enum class OmpiVersion { v3_1, v4_1 };
std::string_view to_string(OmpiVersion v);  // "3.1", "4.1"
// "3.1" or "4.1" (also "3", "4", "v4.1"); throws contend::Error otherwise.
OmpiVersion parse_ompi_version(std::string_view text);

// An algorithm forced for one operation, like Open MPI's
// coll_tuned_<op>_algorithm + coll_tuned_<op>_algorithm_segmentsize.
struct ForcedAlgorithm {
  std::string algorithm;            // canonical name, e.g. "chain"
  std::uint64_t segment_bytes = 0;  // 0: no segmentation
  int fanout = 0;                   // chain fanout / k-nomial radix; 0: the settings' default
};

struct CollectiveSettings {
  OmpiVersion version = OmpiVersion::v4_1;  // which fixed decision rules
  std::map<CollectiveOp, ForcedAlgorithm> forced;
  // Open MPI MCA defaults when an algorithm is forced:
  int chain_fanout = 4;   // coll_tuned_bcast_algorithm_chain_fanout
  int knomial_radix = 4;  // coll_tuned_bcast_algorithm_knomial_radix
};

// Parses one `--coll` value "OP=ALG[:SEGSIZE[:FANOUT]]" (ALG is a name or
// Open MPI's numeric id, SEGSIZE takes units like 8K, FANOUT is the chain
// fanout or k-nomial radix, like coll_tuned_bcast_algorithm_chain_fanout)
// into `settings`. Throws
// contend::Error naming the bad part, with "did you mean" for names.
void apply_coll_option(CollectiveSettings& settings, std::string_view option);
// Every `--coll` value in order (a later one overrides an earlier one for the
// same operation); more than limits::kMaxCollOptions is an error.
void apply_coll_options(CollectiveSettings& settings, const std::vector<std::string>& options);

// The algorithm names of one operation, in Open MPI id order (index 0 = id 1).
std::vector<std::string> algorithm_names(CollectiveOp op);

// What run_collective will execute for a call on a communicator of
// `comm_size` ranks: the forced algorithm if any, else the version's fixed
// decision rule. `fanout` is the chain fanout / knomial radix in use (0 when
// it does not apply).
struct AlgorithmChoice {
  std::string algorithm;
  std::uint64_t segment_bytes = 0;
  int fanout = 0;
  bool forced = false;
};
AlgorithmChoice choose_algorithm(const CollectiveCall& call, int comm_size, const CollectiveSettings& settings);
// "bcast 1048576 B on 16 ranks: binomial (Open MPI 4.1 fixed rule)"
std::string describe_choice(const CollectiveCall& call, int comm_size, const CollectiveSettings& settings);

// ---------------------------------------------------------------- execution

// Runs the collective for the calling rank (mpi.rank() must be
// comm.my_world_rank()). Blocking.
void run_collective(Mpi& mpi, const Communicator& comm, const CollectiveCall& call, const CollectiveSettings& settings);

// The internal (negative) tag of an operation's messages.
int collective_tag(CollectiveOp op);

}  // namespace contend::coll
