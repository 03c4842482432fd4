#include "sim/collectives/decision.hpp"

#include <climits>
#include <vector>

namespace contend::coll {
namespace {

// One row of a rule: "if bytes < below: use alg".
struct Below {
  std::uint64_t below;
  int alg;
};
// A band of communicator sizes [.., procs_below) with its rows and the
// algorithm for larger messages.
struct Band {
  int procs_below;
  std::vector<Below> rows;
  int otherwise;
};
using Table = std::vector<Band>;

int lookup(const Table& table, int procs, std::uint64_t bytes) {
  for (const Band& band : table) {
    if (procs >= band.procs_below) continue;
    for (const Below& row : band.rows) {
      if (bytes < row.below) return row.alg;
    }
    return band.otherwise;
  }
  return 0;  // unreachable: the last band is INT_MAX
}

// Tables transcribed from ompi/mca/coll/tuned/coll_tuned_decision_fixed.c,
// tag v4.1.6 (identical in v4.1.0..v4.1.8).
const Table kBcast = {
    {4, {{32, 3}, {256, 5}, {512, 3}, {1024, 7}, {32768, 1}, {131072, 5}, {262144, 2}, {524288, 1}, {1048576, 6}}, 5},
    {8, {{64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1}}, 2},
    {16, {{8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6}}, 1},
    {32, {{4096, 7}, {1048576, 6}}, 8},
    {64, {{2048, 6}}, 7},
    {128, {}, 7},
    {256, {{2, 6}, {16384, 5}, {32768, 1}, {65536, 5}}, 7},
    {1024, {{16384, 7}, {32768, 4}}, 7},
    {2048, {{524288, 7}}, 8},
    {4096, {{262144, 7}}, 8},
    {INT_MAX, {{8192, 7}, {16384, 5}, {262144, 7}}, 8},
};

const Table kBarrier = {{4, {}, 3},   {8, {}, 1},    {64, {}, 3},   {256, {}, 4},
                        {512, {}, 6}, {1024, {}, 4}, {4096, {}, 6}, {INT_MAX, {}, 4}};

const Table kAllreduceCommutative = {
    {4, {{8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5}}, 6},
    {8, {{16, 4}, {8192, 3}}, 6},
    {16, {{8192, 3}}, 6},
    {32, {{64, 5}, {4096, 3}}, 6},
    {64, {{128, 5}}, 6},
    {128, {{262144, 3}}, 6},
    {256, {{131072, 2}, {262144, 3}}, 6},
    {512, {{4096, 2}}, 6},
    {2048, {{2048, 2}, {16384, 3}}, 6},
    {4096, {{2048, 2}, {4096, 5}, {16384, 3}}, 6},
    {INT_MAX, {{2048, 2}, {16384, 5}, {32768, 3}}, 6},
};
const Table kAllreduceNoncommutative = {
    {4, {{131072, 3}}, 1},
    {8, {}, 3},
    {16, {{1048576, 3}}, 2},
    {128, {}, 3},
    {256, {{131072, 2}, {524288, 3}}, 2},
    {512, {{4096, 2}, {524288, 3}}, 2},
    {INT_MAX, {{2048, 2}}, 3},
};

const Table kReduceCommutative = {
    {4, {{8, 7}, {16, 4}, {32, 3}, {262144, 1}, {524288, 3}, {1048576, 2}}, 3},
    {8, {{4096, 4}, {65536, 2}, {262144, 5}, {524288, 1}, {1048576, 5}}, 1},
    {16, {{8192, 4}}, 5},
    {32, {{4096, 4}}, 5},
    {256, {}, 5},
    {512, {{8192, 5}, {16384, 6}}, 5},
    {2048, {}, 5},
    {4096, {{512, 5}, {1024, 6}, {8192, 5}, {16384, 6}}, 5},
    {INT_MAX, {{16, 5}, {32, 6}, {1024, 5}, {2048, 6}, {8192, 5}, {16384, 6}}, 5},
};
const Table kReduceNoncommutative = {
    {4, {{8, 6}}, 1},
    {8, {}, 1},
    {16, {{1024, 6}, {8192, 1}, {16384, 6}, {262144, 1}}, 6},
    {128, {}, 6},
    {256, {{512, 6}, {1024, 1}}, 6},
    {INT_MAX, {}, 6},
};

// Alltoall: the first band is "procs == 2" in the source.
const Table kAlltoallTwo = {
    {INT_MAX, {{2, 2}, {4, 5}, {16, 2}, {64, 5}, {256, 2}, {4096, 5}, {32768, 2}, {262144, 4}, {1048576, 5}}, 2},
};
const Table kAlltoall = {
    {8, {{8192, 4}, {16384, 1}, {65536, 4}, {524288, 1}, {1048576, 2}}, 1},
    {16, {{262144, 4}}, 1},
    {32, {{4, 4}, {512, 3}, {8192, 4}, {32768, 1}, {262144, 4}, {524288, 1}}, 4},
    {64, {{512, 3}, {524288, 1}}, 4},
    {128, {{1024, 3}, {2048, 1}, {4096, 4}, {262144, 1}}, 2},
    {256, {{1024, 3}, {2048, 4}, {262144, 1}}, 2},
    {512, {{1024, 3}, {8192, 4}, {32768, 1}}, 2},
    {1024, {{512, 3}, {8192, 4}, {16384, 1}, {131072, 4}, {262144, 1}}, 2},
    {2048, {{512, 3}, {1024, 4}, {2048, 1}, {16384, 4}, {262144, 1}}, 4},
    {4096, {{1024, 3}, {4096, 4}, {8192, 1}, {131072, 4}}, 1},
    {INT_MAX, {{2048, 3}, {8192, 4}, {16384, 1}, {32768, 4}, {65536, 1}}, 4},
};

const Table kAlltoallv = {{4, {}, 2}, {64, {}, 1}, {128, {}, 2}, {256, {}, 1}, {1024, {}, 2}, {INT_MAX, {}, 1}};

// Allgather: "procs == 2" -> two_proc, then these bands.
const Table kAllgather = {
    {32, {}, 3},
    {64, {{1024, 3}, {65536, 5}}, 4},
    {128, {{512, 3}, {65536, 5}}, 4},
    {256, {{512, 3}, {131072, 5}, {524288, 4}, {1048576, 5}}, 4},
    {512, {{32, 3}, {128, 2}, {1024, 3}, {131072, 5}, {524288, 4}, {1048576, 5}}, 4},
    {1024, {{64, 3}, {256, 2}, {2048, 3}}, 5},
    {2048, {{4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4096, 3}}, 5},
    {4096, {{32, 2}, {128, 3}, {512, 2}, {4096, 3}}, 5},
    {INT_MAX, {{2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3}}, 5},
};

// Allgatherv: "procs == 2" band first, then these (per-rank mean block).
const Table kAllgathervTwo = {{INT_MAX, {{2048, 3}, {4096, 5}, {8192, 3}}, 5}};
const Table kAllgatherv = {
    {8, {{256, 1}, {4096, 4}, {8192, 3}, {16384, 4}, {262144, 2}}, 4},
    {16, {{1024, 1}}, 2},
    {32, {{128, 1}, {262144, 2}}, 3},
    {64, {{256, 1}, {8192, 2}}, 3},
    {128, {{256, 1}, {4096, 2}}, 3},
    {256, {{1024, 2}, {65536, 4}}, 3},
    {512, {{1024, 2}}, 3},
    {1024, {{512, 2}, {1024, 1}, {4096, 2}, {1048576, 4}}, 3},
    {INT_MAX, {{4096, 2}}, 4},
};

const Table kGather = {
    {4, {{2, 3}, {4, 1}, {32768, 2}, {65536, 1}, {131072, 2}}, 3},
    {8, {{1024, 2}, {8192, 1}, {32768, 2}, {262144, 1}}, 3},
    {256, {}, 2},
    {512, {{2048, 2}, {8192, 1}}, 2},
    {INT_MAX, {}, 2},
};

const Table kScatter = {
    {4, {{2, 3}, {131072, 1}, {262144, 3}}, 1}, {8, {{2048, 2}, {4096, 1}, {8192, 2}, {32768, 1}, {1048576, 3}}, 1},
    {16, {{16384, 2}, {1048576, 3}}, 1},        {32, {{16384, 2}, {32768, 1}}, 3},
    {64, {{512, 2}, {8192, 3}, {16384, 2}}, 3}, {INT_MAX, {{512, 2}}, 3},
};

const Table kReduceScatterCommutative = {
    {4, {{65536, 3}, {131072, 4}}, 3},
    {8, {{8, 1}, {262144, 2}}, 3},
    {32, {{262144, 2}}, 3},
    {64, {{64, 1}, {2048, 2}, {524288, 4}}, 3},
    {128, {{256, 1}, {512, 2}, {2048, 4}, {4096, 2}}, 4},
    {256, {{256, 1}, {512, 2}}, 4},
    {512, {{256, 1}, {1024, 2}}, 4},
    {1024, {{512, 1}, {2048, 2}, {8192, 4}, {16384, 2}}, 4},
    {2048, {{512, 1}, {4096, 2}, {16384, 4}, {32768, 2}}, 4},
    {4096, {{512, 1}, {4096, 2}}, 4},
    {INT_MAX, {{1024, 1}, {8192, 2}}, 4},
};

}  // namespace

FixedDecision ompi41_fixed_decision(CollectiveOp op, int procs, std::uint64_t bytes, std::uint64_t count,
                                    bool commutative) {
  (void)count;
  switch (op) {
    case CollectiveOp::bcast:
      return {lookup(kBcast, procs, bytes), 0};
    case CollectiveOp::barrier:
      return {lookup(kBarrier, procs, 0), 0};
    case CollectiveOp::allreduce:
      return {lookup(commutative ? kAllreduceCommutative : kAllreduceNoncommutative, procs, bytes), 0};
    case CollectiveOp::reduce:
      return {lookup(commutative ? kReduceCommutative : kReduceNoncommutative, procs, bytes), 0};
    case CollectiveOp::alltoall:
      return {lookup(procs == 2 ? kAlltoallTwo : kAlltoall, procs, bytes), 0};
    case CollectiveOp::alltoallv:
      return {lookup(kAlltoallv, procs, 0), 0};
    case CollectiveOp::allgather:
      return {procs == 2 ? 6 : lookup(kAllgather, procs, bytes), 0};
    case CollectiveOp::allgatherv:
      return {lookup(procs == 2 ? kAllgathervTwo : kAllgatherv, procs, bytes), 0};
    case CollectiveOp::gather:
      return {lookup(kGather, procs, bytes), 0};
    case CollectiveOp::scatter:
      return {lookup(kScatter, procs, bytes), 0};
    case CollectiveOp::reduce_scatter:
      return {commutative ? lookup(kReduceScatterCommutative, procs, bytes) : 1, 0};
    case CollectiveOp::gatherv:
    case CollectiveOp::scatterv:
      return {1, 0};  // tuned has none: coll/basic's linear algorithm
  }
  return {};
}

FixedDecision ompi31_bcast_decision(int procs, std::uint64_t bytes, std::uint64_t count) {
  constexpr int kBinomial = 6, kSplitBinary = 4, kPipeline = 3;
  const double m = static_cast<double>(bytes), p = procs;
  if (bytes < 2048 || count <= 1) return {kBinomial, 0};
  if (bytes < 370728) return {kSplitBinary, 1024};
  if (p < 1.6134e-6 * m + 2.1102) return {kPipeline, 128 * 1024};
  if (procs < 13) return {kSplitBinary, 8 * 1024};
  if (p < 2.3679e-6 * m + 1.1787) return {kPipeline, 64 * 1024};
  if (p < 3.2118e-6 * m + 8.7936) return {kPipeline, 16 * 1024};
  return {kPipeline, 8 * 1024};
}

}  // namespace contend::coll
