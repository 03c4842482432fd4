// Every algorithm of every collective completes, on communicators of 1 to
// 17 ranks, with awkward sizes (one element, counts not divisible by the
// size, blocks of zero), several roots and segment sizes: no deadlock, no
// truncated receive, no message left unmatched. One simulation per
// operation: 17 ranks, sub-communicators of the first P ranks.
#include <boost/test/unit_test.hpp>

#include "sim/collectives/test/collective_harness.hpp"

using namespace contend;
using namespace contend::test;
using namespace contend::coll;

namespace {

constexpr int kWorld = 17;

bool is_reduction(CollectiveOp op) {
  return op == CollectiveOp::reduce || op == CollectiveOp::allreduce || op == CollectiveOp::reduce_scatter;
}

// The calls of one operation on a communicator of `p` ranks, seen by local rank `me`.
std::vector<CollectiveCall> calls_for(CollectiveOp op, int p, int me) {
  std::vector<CollectiveCall> calls;
  const std::uint32_t elem = is_reduction(op) ? 8 : 1;
  for (std::uint64_t elements : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{37}, std::uint64_t{3001}}) {
    for (int root : {0, p / 2, p - 1}) {
      CollectiveCall c = make_call(op, elements * elem, root);
      c.element_bytes = elem;
      const std::size_t n = static_cast<std::size_t>(p);
      if (op == CollectiveOp::gatherv || op == CollectiveOp::scatterv || op == CollectiveOp::allgatherv ||
          op == CollectiveOp::reduce_scatter) {
        for (int i = 0; i < p; ++i) c.counts.push_back(static_cast<std::uint64_t>(i % 3) * elements * elem);
      }
      if (op == CollectiveOp::alltoallv) {
        c.send_counts.resize(n);
        c.recv_counts.resize(n);
        for (int j = 0; j < p; ++j) {
          c.send_counts[static_cast<std::size_t>(j)] = static_cast<std::uint64_t>((me + j) % 3) * elements;
          c.recv_counts[static_cast<std::size_t>(j)] = static_cast<std::uint64_t>((j + me) % 3) * elements;
        }
      }
      calls.push_back(c);
    }
  }
  return calls;
}

// Fixed rules of both versions, then every algorithm, with and without segments.
std::vector<CollectiveSettings> settings_for(CollectiveOp op, int p) {
  std::vector<CollectiveSettings> all(2);
  all[1].version = OmpiVersion::v3_1;
  for (const std::string& alg : algorithm_names(op)) {
    if (alg == "two_proc" && p != 2) continue;  // Open MPI refuses other sizes
    // Segments of one element upwards (47 segments of the largest message).
    const std::vector<const char*> segments =
        is_reduction(op) ? std::vector<const char*>{"", ":8K", ":512"} : std::vector<const char*>{"", ":1K", ":64"};
    for (const char* seg : segments) {
      CollectiveSettings s;
      apply_coll_option(s, std::string(to_string(op)) + "=" + alg + seg);
      all.push_back(s);
    }
  }
  return all;
}

void every_algorithm_completes(CollectiveOp op) {
  ScriptWorkload w(kWorld, [op](Mpi& mpi) {
    Communicator world = world_communicator(mpi);
    for (int p = 1; p <= kWorld; ++p) {
      std::vector<ColorKey> ck;
      for (int r = 0; r < kWorld; ++r) ck.push_back({r < p ? 0 : kUndefinedColor, r});
      const auto comm = split_communicator(mpi.contexts(), world, ck);
      if (!comm) continue;
      for (const CollectiveSettings& s : settings_for(op, p)) {
        for (const CollectiveCall& c : calls_for(op, p, comm->local_rank)) run_collective(mpi, *comm, c, s);
      }
    }
  });
  const Results r = run(collective_platform(kWorld), w);
  BOOST_TEST(r.warnings.empty());
  BOOST_TEST(r.total_messages() > 0u);
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_bcast_completes) { every_algorithm_completes(CollectiveOp::bcast); }
BOOST_AUTO_TEST_CASE(every_reduce_completes) { every_algorithm_completes(CollectiveOp::reduce); }
BOOST_AUTO_TEST_CASE(every_allreduce_completes) { every_algorithm_completes(CollectiveOp::allreduce); }
BOOST_AUTO_TEST_CASE(every_barrier_completes) { every_algorithm_completes(CollectiveOp::barrier); }
BOOST_AUTO_TEST_CASE(every_gather_completes) { every_algorithm_completes(CollectiveOp::gather); }
BOOST_AUTO_TEST_CASE(every_gatherv_completes) { every_algorithm_completes(CollectiveOp::gatherv); }
BOOST_AUTO_TEST_CASE(every_scatter_completes) { every_algorithm_completes(CollectiveOp::scatter); }
BOOST_AUTO_TEST_CASE(every_scatterv_completes) { every_algorithm_completes(CollectiveOp::scatterv); }
BOOST_AUTO_TEST_CASE(every_allgather_completes) { every_algorithm_completes(CollectiveOp::allgather); }
BOOST_AUTO_TEST_CASE(every_allgatherv_completes) { every_algorithm_completes(CollectiveOp::allgatherv); }
BOOST_AUTO_TEST_CASE(every_alltoall_completes) { every_algorithm_completes(CollectiveOp::alltoall); }
BOOST_AUTO_TEST_CASE(every_alltoallv_completes) { every_algorithm_completes(CollectiveOp::alltoallv); }
BOOST_AUTO_TEST_CASE(every_reduce_scatter_completes) { every_algorithm_completes(CollectiveOp::reduce_scatter); }
