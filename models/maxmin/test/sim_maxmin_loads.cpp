// Timeline counter tracks under maxmin: the flows crossing each shared link,
// hand-computed.
#include <boost/test/unit_test.hpp>

#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

constexpr std::uint64_t MB = 1000000;

BOOST_AUTO_TEST_CASE(maxmin_loads_fan_in_of_three_on_one_nic) {
  // Node 0's NIC in (1 GB/s): 1, 2, 3, 2, 1, 0 flows (the times are worked
  // out at staggered_fan_in_nic_loads, tests/harness/sim_fixture.hpp).
  auto workload = staggered_fan_in_of_three(MB);
  const auto r = run(nic_bound_star(4), workload, RunOptions{.model = "maxmin", .timeline = true});
  const auto samples = load_samples(r, "nic:node0/in");
  BOOST_TEST_REQUIRE(!samples.empty());
  const double L = samples[0].first;
  BOOST_TEST(L > 0);
  check_load_samples(r, "nic:node0/in", staggered_fan_in_nic_loads(L), 1e-9);
  // The last flow's end is the run's last message arrival.
  BOOST_TEST(samples.back().first == messages_between(r, 3, 0).at(0).end, tt::tolerance(1e-12));
  // Each sender's NIC out carries its one flow, from L after its send.
  BOOST_TEST((load_values(r, "nic:node2/out") == std::vector<double>{1, 0}));
  BOOST_TEST(load_samples(r, "nic:node2/out").at(0).first == L + 0.5e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(maxmin_loads_are_not_recorded_without_a_timeline) {
  auto workload = staggered_fan_in_of_three(MB);
  const auto r = run(nic_bound_star(4), workload, RunOptions{.model = "maxmin"});
  BOOST_TEST(r.timeline.resources().empty());
  BOOST_TEST(r.timeline.loads().empty());
}
