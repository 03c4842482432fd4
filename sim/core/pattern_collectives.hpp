#pragma once
// Pattern steps for MPI collectives on MPI_COMM_WORLD (see pattern.hpp):
//
//   barrier
//   bcast ROOT BYTES            reduce ROOT BYTES        allreduce BYTES
//   gather ROOT BYTES           scatter ROOT BYTES       (BYTES: each rank's block)
//   allgather BYTES             alltoall BYTES           (BYTES: per rank / per pair)
//   reduce_scatter BYTES|LIST   (each rank's result block, or one per rank)
//   gatherv ROOT LIST           scatterv ROOT LIST       allgatherv LIST
//   alltoallv LIST              (LIST[i]: what rank i sends to every peer)
//
// LIST is comma-separated sizes, one per rank, `SIZE*N` repeating a size N
// times (e.g. 1K*8,4K*8); it needs a `ranks N` line before it. Reductions
// (reduce, allreduce, reduce_scatter) work on 8-byte elements (MPI_DOUBLE,
// MPI_SUM, commutative), so their sizes must be multiples of 8; the other
// collectives move bytes (MPI_BYTE).
#include <vector>

#include "sim/core/pattern.hpp"

namespace contend {

std::vector<PatternKeyword> collective_pattern_keywords();

}  // namespace contend
