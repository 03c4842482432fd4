#pragma once
// Open MPI's fixed decision rules (coll_tuned_decision_fixed.c): which
// algorithm (by Open MPI id, 1-based) and segment size each collective uses
// when nothing is forced.
#include <cstdint>

#include "sim/collectives/collectives.hpp"

namespace contend::coll {

struct FixedDecision {
  int algorithm_id = 0;             // Open MPI's id: index in algorithm_names(op) + 1
  std::uint64_t segment_bytes = 0;  // 0: none (all 4.1 rules)
};

// `bytes` is what the rule measures: the message for bcast/reduce/allreduce,
// the per-rank block for gather/scatter/allgather/alltoall, the mean block
// for allgatherv, the whole vector for reduce_scatter (sum of counts).
FixedDecision ompi41_fixed_decision(CollectiveOp op, int procs, std::uint64_t bytes, std::uint64_t count,
                                    bool commutative);
// Open MPI 3.1's bcast rule (Nuriyev et al. Listing 1, with the segment
// sizes of v3.1.6's source: split-binary 1 KiB / 8 KiB, pipeline 128/64/16/8 KiB).
FixedDecision ompi31_bcast_decision(int procs, std::uint64_t bytes, std::uint64_t count);

}  // namespace contend::coll
