// Attribution under maxmin: the constraint whose saturation fixed a flow's
// rate, hand-computed.
#include <boost/test/unit_test.hpp>

#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

constexpr std::uint64_t MB = 1000000;

}  // namespace

BOOST_AUTO_TEST_CASE(maxmin_attribution_fan_in_of_three_on_one_nic) {
  // Ranks 1, 2, 3 send 1 MB each to rank 0 at once: each sender's NIC out
  // carries one flow (1 GB/s), node 0's NIC in carries three and saturates
  // first: 1/3 GB/s each, for 3 ms after the route's latency.
  const auto r = run_pattern(nic_bound_star(4), {{1, 0, MB}, {2, 0, MB}, {3, 0, MB}}, 4,
                             RunOptions{.model = "maxmin", .attribution = true});
  for (int src = 1; src <= 3; ++src) {
    const auto& m = attribution_of(r, src, 0);
    BOOST_TEST_INFO(describe_intervals(m));
    BOOST_TEST_REQUIRE(m.intervals.size() == 2u);
    BOOST_TEST(m.intervals[0].resource == "latency");
    const double latency = m.intervals[0].end - m.intervals[0].begin;
    BOOST_TEST(latency > 0);
    BOOST_TEST(m.intervals[1].resource == "nic:node0/in");
    BOOST_TEST(m.intervals[1].rate == 1e9 / 3, tt::tolerance(1e-9));
    BOOST_TEST(m.intervals[1].end - m.intervals[1].begin == 3e-3, tt::tolerance(1e-9));
    BOOST_TEST(m.limited_by() == "nic:node0/in");
    BOOST_TEST(m.slowdown() == (latency + 3e-3) / (latency + 1e-3), tt::tolerance(1e-9));
  }
}

BOOST_AUTO_TEST_CASE(maxmin_attribution_rendezvous_waits_for_the_late_receive) {
  // Rank 0 sends 1 MB (rendezvous) to rank 1, which posts its receive 2 ms
  // later: the message waits for it, then moves alone (slowdown 1).
  auto workload = late_receive(MB, 2e-3);
  const auto r = run(nic_bound_star(2), workload, RunOptions{.model = "maxmin", .attribution = true});
  const auto& m = attribution_of(r, 0, 1);
  BOOST_TEST_INFO(describe_intervals(m));
  BOOST_TEST_REQUIRE(m.intervals.size() == 3u);
  BOOST_TEST(m.intervals[0].resource == "rendezvous");
  BOOST_TEST(m.intervals[0].begin == 0.0);
  BOOST_TEST(m.intervals[0].end == 2e-3, tt::tolerance(1e-12));
  BOOST_TEST(m.intervals[0].detail == "waiting for rank 1 to post the matching receive");
  BOOST_TEST(m.intervals[1].resource == "latency");
  // Alone, both NICs saturate at once: either may be named.
  BOOST_TEST((m.intervals[2].resource == "nic:node0/out" || m.intervals[2].resource == "nic:node1/in"));
  BOOST_TEST(m.limited_by() == "rendezvous");
  BOOST_TEST(m.slowdown() == 1.0, tt::tolerance(1e-9));
}
