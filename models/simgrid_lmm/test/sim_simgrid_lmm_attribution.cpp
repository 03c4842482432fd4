// Attribution under simgrid-lmm: what SimGrid 3.32 shows, the route's
// latency then the route's sharing at the message's average rate.
#include <boost/test/unit_test.hpp>

#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_CASE(simgrid_lmm_attribution_route_latency_then_average_rate) {
  // Two senders into node 0's NIC of 1 GB/s: 1 MB each at 0.5 GB/s, 2 ms.
  const auto r = run_pattern(nic_bound_star(3), {{1, 0, 1000000}, {2, 0, 1000000}}, 3,
                             RunOptions{.model = "simgrid-lmm", .attribution = true});
  const auto& m = attribution_of(r, 1, 0);
  BOOST_TEST_INFO(describe_intervals(m));
  BOOST_TEST_REQUIRE(m.intervals.size() == 2u);
  BOOST_TEST(m.intervals[0].resource == "latency");
  const double latency = m.intervals[0].end - m.intervals[0].begin;
  BOOST_TEST(m.intervals[1].resource == "lmm:node1/socket0->node0/socket0");
  BOOST_TEST(m.intervals[1].rate == 0.5e9, tt::tolerance(1e-6));
  BOOST_TEST(m.intervals[1].detail.find("nic:node1/out") != std::string::npos);
  BOOST_TEST(m.intervals[1].detail.find("nic:node0/in") != std::string::npos);
  BOOST_TEST(m.slowdown() == (latency + 2e-3) / (latency + 1e-3), tt::tolerance(1e-6));
}
