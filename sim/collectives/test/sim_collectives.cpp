// Collectives against hand-computed times on a star of single-core nodes
// (maxmin: flows through one NIC share it equally, full duplex), and the
// number of messages each algorithm sends.
#include <boost/test/unit_test.hpp>
#include <functional>

#include "sim/collectives/test/collective_harness.hpp"
#include "sim/engine/mpi.hpp"

using namespace contend;
using namespace contend::test;
using namespace contend::coll;
namespace tt = boost::test_tools;

namespace {

Results run_on_world(int ranks, const CollectiveCall& call, const CollectiveSettings& settings) {
  ScriptWorkload w(ranks, [&](Mpi& mpi) { run_collective(mpi, world_communicator(mpi), call, settings); });
  return run(collective_platform(ranks), w);
}

CollectiveSettings forced(const std::string& option) {
  CollectiveSettings s;
  apply_coll_option(s, option);
  return s;
}

// A broadcast of kBcastBytes from rank 0 with `settings`.
constexpr std::uint64_t kBcastBytes = 1000000;
Results megabyte_bcast(int ranks, const CollectiveSettings& settings) {
  return run_on_world(ranks, make_call(CollectiveOp::bcast, kBcastBytes), settings);
}

// T: one message of `bytes` alone on its path.
double hop(double bytes) { return kLatency + bytes / kBandwidth; }

}  // namespace

BOOST_AUTO_TEST_CASE(linear_bcast_shares_the_root_nic) {
  const auto r = megabyte_bcast(4, forced("bcast=linear"));
  for (int rank = 1; rank < 4; ++rank) {
    BOOST_TEST(r.ranks[rank].recv_time == kLatency + 3 * kBcastBytes / kBandwidth, tt::tolerance(1e-9));
  }
  BOOST_TEST(r.total_messages() == 3u);
}

BOOST_AUTO_TEST_CASE(binomial_bcast_closed_form) {
  // The root Isends to 1 and 2 together (sharing its NIC), then 1 forwards to 3.
  const auto r = megabyte_bcast(4, forced("bcast=binomial"));
  BOOST_TEST(r.ranks[1].recv_time == kLatency + 2 * kBcastBytes / kBandwidth, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[2].recv_time == kLatency + 2 * kBcastBytes / kBandwidth, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[3].recv_time == 2 * kLatency + 3 * kBcastBytes / kBandwidth, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(binary_bcast_closed_form) {
  const auto r = megabyte_bcast(7, forced("bcast=binary"));
  for (int leaf = 3; leaf < 7; ++leaf) {
    BOOST_TEST(r.ranks[leaf].recv_time == 2 * (kLatency + 2 * kBcastBytes / kBandwidth), tt::tolerance(1e-9));
  }
  BOOST_TEST(r.total_messages() == 6u);
}

BOOST_AUTO_TEST_CASE(segmented_pipeline_bcast_closed_form) {
  // 4 segments through 3 hops: the last rank has the last one after 3 + 4 - 1 hop times.
  const auto r = megabyte_bcast(4, forced("bcast=pipeline:250000"));
  BOOST_TEST(r.ranks[3].recv_time == 6 * hop(250000), tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[1].recv_time == 4 * hop(250000), tt::tolerance(1e-9));
  BOOST_TEST(r.total_messages() == 12u);
}

BOOST_AUTO_TEST_CASE(unsegmented_chain_bcast_is_store_and_forward) {
  // Fan-out 2 on 7 ranks: chains 1-2-3 and 4-5-6; the root feeds both heads at once.
  CollectiveSettings s = forced("bcast=chain");
  s.chain_fanout = 2;
  const auto r = megabyte_bcast(7, s);
  const double heads = kLatency + 2 * kBcastBytes / kBandwidth;
  BOOST_TEST(r.ranks[4].recv_time == heads, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[3].recv_time == heads + 2 * hop(kBcastBytes), tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[6].recv_time == heads + 2 * hop(kBcastBytes), tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(split_binary_bcast_closed_form) {
  // Halves of 500 kB: the root sends (blocking) left then right, inner nodes
  // forward to their two children in turn, then twins swap halves.
  const auto r = megabyte_bcast(7, forced("bcast=split_binary"));
  const double t = hop(500000);
  BOOST_TEST(r.makespan() == 5 * t, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[3].total_time == 4 * t, tt::tolerance(1e-9));
  BOOST_TEST(r.total_messages() == 12u);
}

BOOST_AUTO_TEST_CASE(linear_reduce_closed_form) {
  // The root receives from 3, then 2, then 1 (one at a time) and reduces
  // after each of 2 and 1 and with its own data: 125000 doubles = 125 us.
  CollectiveCall call = make_call(CollectiveOp::reduce, 1000000);
  call.element_bytes = 8;
  const auto r = run_on_world(4, call, forced("reduce=linear"));
  const double c = 125000 / kFlops;
  BOOST_TEST(r.ranks[0].total_time == 3 * hop(1e6) + 3 * c, tt::tolerance(1e-9));
  BOOST_TEST(r.total_messages() == 3u);
}

BOOST_AUTO_TEST_CASE(recursive_doubling_allreduce_closed_form_three_ranks) {
  // 3 ranks: 0 hands its vector to 1; 1 and 2 exchange; 1 returns the result to 0.
  CollectiveCall call = make_call(CollectiveOp::allreduce, 1000000);
  call.element_bytes = 8;
  const auto r = run_on_world(3, call, forced("allreduce=recursive_doubling"));
  const double c = 125000 / kFlops;
  BOOST_TEST(r.ranks[2].total_time == 2 * hop(1e6) + 2 * c, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].total_time == 3 * hop(1e6) + 2 * c, tt::tolerance(1e-9));
  BOOST_TEST(r.total_messages() == 4u);
}

BOOST_AUTO_TEST_CASE(fixed_rule_picks_the_simulated_algorithm) {
  // 16 ranks, 1 MiB: Open MPI 4.1 runs scatter + recursive-doubling
  // allgather: 15 scatter messages and 16 * 4 exchange messages.
  const auto r = run_on_world(16, make_call(CollectiveOp::bcast, 1 << 20), CollectiveSettings{});
  BOOST_TEST(r.total_messages() == 15u + 64u);
  BOOST_TEST(r.warnings.empty());
}

BOOST_AUTO_TEST_CASE(collective_messages_never_match_any_tag_receives) {
  // Rank 1 posts an MPI_ANY_TAG receive before a bcast from 0 and gets the
  // user message sent after it, not the collective's.
  ScriptWorkload w(2, [](Mpi& mpi) {
    const Communicator world = world_communicator(mpi);
    if (mpi.rank() == 1) {
      const RequestId user = mpi.irecv(0, 100, Mpi::kAnyTag);
      run_collective(mpi, world, make_call(CollectiveOp::bcast, 100), CollectiveSettings{});
      mpi.wait(user);
    } else {
      run_collective(mpi, world, make_call(CollectiveOp::bcast, 100), CollectiveSettings{});
      mpi.send(1, 100, 7);
    }
  });
  const auto r = run(collective_platform(2), w);
  BOOST_TEST(r.total_messages() == 2u);
  BOOST_TEST(r.warnings.empty());
}
