// How many messages each algorithm sends, counted by hand from Open MPI's
// code (see docs/collectives.md), on 8 ranks and on 6 (non-power-of-two).
#include <boost/test/unit_test.hpp>

#include "sim/collectives/test/collective_harness.hpp"

using namespace contend;
using namespace contend::test;
using namespace contend::coll;

namespace {

GroupCase make(int size, CollectiveOp op, std::uint64_t bytes, const std::string& algorithm, std::uint64_t expected) {
  GroupCase c;
  c.size = size;
  c.call = make_call(op, bytes);
  if (op == CollectiveOp::reduce || op == CollectiveOp::allreduce || op == CollectiveOp::reduce_scatter) {
    c.call.element_bytes = 8;
  }
  if (op == CollectiveOp::gatherv || op == CollectiveOp::scatterv || op == CollectiveOp::allgatherv) {
    c.call.counts.assign(static_cast<std::size_t>(size), bytes);
  }
  if (op == CollectiveOp::alltoallv) {
    c.call.send_counts.assign(static_cast<std::size_t>(size), bytes);
    c.call.recv_counts.assign(static_cast<std::size_t>(size), bytes);
  }
  if (!algorithm.empty()) apply_coll_option(c.settings, std::string(to_string(op)) + "=" + algorithm);
  c.expected_messages = expected;
  c.label = std::string(to_string(op)) + "=" + algorithm + " on " + std::to_string(size);
  return c;
}

void check(const std::vector<GroupCase>& cases) {
  Results r;
  const auto counts = run_groups(cases, &r);
  for (std::size_t g = 0; g < cases.size(); ++g) {
    BOOST_TEST(counts[g] == cases[g].expected_messages, cases[g].label);
  }
  BOOST_TEST(r.warnings.empty());
}

constexpr std::uint64_t k64 = 65536;

}  // namespace

BOOST_AUTO_TEST_CASE(message_counts_on_eight_ranks) {
  using Op = CollectiveOp;
  check({
      make(8, Op::bcast, k64, "linear", 7),
      make(8, Op::bcast, k64, "chain", 7),
      make(8, Op::bcast, k64, "pipeline:8K", 7 * 8),
      make(8, Op::bcast, k64, "split_binary", 7 + 1 + 6),
      make(8, Op::bcast, k64, "binary", 7),
      make(8, Op::bcast, k64, "binomial:16K", 7 * 4),
      make(8, Op::bcast, k64, "knomial", 7),
      make(8, Op::bcast, k64, "scatter_allgather", 7 + 8 * 3),
      make(8, Op::bcast, k64, "scatter_allgather_ring", 7 + 8 * 7),
      make(8, Op::reduce, k64, "linear", 7),
      make(8, Op::reduce, k64, "chain:8K", 7 * 8),
      make(8, Op::reduce, k64, "binary", 7),
      make(8, Op::reduce, k64, "binomial", 7),
      make(8, Op::reduce, k64, "in_order_binary", 7 + 1),  // rank 7 hands the result to root 0
      make(8, Op::reduce, k64, "rabenseifner", 8 * 3 + 7),
      make(8, Op::allreduce, k64, "linear", 14),
      make(8, Op::allreduce, k64, "nonoverlapping", 14),
      make(8, Op::allreduce, k64, "recursive_doubling", 24),
      make(8, Op::allreduce, k64, "ring", 2 * 8 * 7),
      make(8, Op::allreduce, k64, "rabenseifner", 48),
      make(8, Op::allreduce, k64, "segmented_ring", 2 * 8 * 7),             // segment 0: the plain ring
      make(8, Op::allreduce, k64, "segmented_ring:1K", 8 * 7 * 8 + 8 * 7),  // 8192 doubles: 8 phases
      make(8, Op::barrier, 0, "linear", 14),
      make(8, Op::barrier, 0, "double_ring", 16),
      make(8, Op::barrier, 0, "recursive_doubling", 24),
      make(8, Op::barrier, 0, "bruck", 24),
      make(8, Op::barrier, 0, "tree", 14),
      make(8, Op::gather, 4096, "linear", 7),
      make(8, Op::gather, 4096, "binomial", 7),
      make(8, Op::gather, 4096, "linear_sync", 21),
      make(8, Op::scatter, 4096, "linear", 7),
      make(8, Op::scatter, 4096, "binomial", 7),
      make(8, Op::scatter, 4096, "linear_nb", 7),
      make(8, Op::gatherv, 4096, "", 7),
      make(8, Op::scatterv, 4096, "", 7),
      make(8, Op::allgather, 4096, "linear", 14),
      make(8, Op::allgather, 4096, "bruck", 24),
      make(8, Op::allgather, 4096, "recursive_doubling", 24),
      make(8, Op::allgather, 4096, "ring", 56),
      make(8, Op::allgather, 4096, "neighbor", 32),
      make(8, Op::allgatherv, 4096, "default", 14),
      make(8, Op::allgatherv, 4096, "bruck", 24),
      make(8, Op::allgatherv, 4096, "ring", 56),
      make(8, Op::allgatherv, 4096, "neighbor", 32),
      make(8, Op::alltoall, 4096, "linear", 56),
      make(8, Op::alltoall, 4096, "pairwise", 56),
      make(8, Op::alltoall, 4096, "modified_bruck", 24),
      make(8, Op::alltoall, 4096, "linear_sync", 56),
      make(8, Op::alltoallv, 4096, "linear", 56),
      make(8, Op::alltoallv, 4096, "pairwise", 56),
      make(8, Op::reduce_scatter, 8192, "non_overlapping", 14),
      make(8, Op::reduce_scatter, 8192, "recursive_halving", 24),
      make(8, Op::reduce_scatter, 8192, "ring", 56),
      make(8, Op::reduce_scatter, 8192, "butterfly", 24 + 4),  // + the mirror permutation
  });
}

BOOST_AUTO_TEST_CASE(message_counts_on_six_ranks) {
  using Op = CollectiveOp;
  check({
      make(6, Op::bcast, k64, "split_binary", 5 + 1 + 4),
      make(6, Op::reduce, k64, "rabenseifner", 6 + 8 + 3),
      make(6, Op::allreduce, k64, "recursive_doubling", 2 + 8 + 2),
      make(6, Op::allreduce, k64, "rabenseifner", 6 + 8 + 8 + 2),
      make(6, Op::barrier, 0, "recursive_doubling", 2 + 8 + 2),
      make(6, Op::barrier, 0, "bruck", 18),
      make(6, Op::allgather, 4096, "recursive_doubling", 18),  // Bruck for non-powers of two
      make(6, Op::allgather, 4096, "neighbor", 18),
      make(5, Op::allgather, 4096, "neighbor", 20),  // odd: ring
      make(6, Op::alltoall, 4096, "modified_bruck", 18),
      make(6, Op::reduce_scatter, 8192, "recursive_halving", 2 + 8 + 2),
      make(6, Op::reduce_scatter, 8192, "butterfly", 2 + 8 + 4),
      make(2, Op::barrier, 0, "two_proc", 2),
      make(2, Op::alltoall, 4096, "two_proc", 2),
      make(2, Op::allgather, 4096, "two_proc", 2),
  });
}
