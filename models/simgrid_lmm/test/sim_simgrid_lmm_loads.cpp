// Timeline counter tracks under simgrid-lmm: the flows crossing each shared
// link, from the end of their route's latency to their finish, the same
// staggered fan-in as maxmin's (models/maxmin/test/sim_maxmin_loads.cpp).
#include <boost/test/unit_test.hpp>

#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_CASE(simgrid_lmm_loads_fan_in_of_three_on_one_nic) {
  // Ranks 1, 2, 3 (one per node) send 1 MB to rank 0 at 0, 0.5 and 1 ms
  // through node 0's NIC in of 1 GB/s: as under maxmin, 1, 2, 3 flows from
  // L, L + 0.5 ms, L + 1 ms, then 2, 1, 0 at L + 1.75, 2.75, 3 ms.
  constexpr std::uint64_t MB = 1000000;
  auto w = staggered_fan_in_of_three(MB);
  const auto r = run(nic_bound_star(4), w, RunOptions{.model = "simgrid-lmm", .timeline = true});
  const auto samples = load_samples(r, "nic:node0/in");
  BOOST_TEST_REQUIRE(!samples.empty());
  const double L = samples[0].first;
  BOOST_TEST(L > 0);
  check_load_samples(r, "nic:node0/in", staggered_fan_in_nic_loads(L), 1e-6);
  BOOST_TEST((load_values(r, "nic:node3/out") == std::vector<double>{1, 0}));
}
