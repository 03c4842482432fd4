// Attribution under staircase (Thune et al., TPDS 2023), hand-computed with
// the levels of staircase_levels.hpp: no latency, every message rendezvous,
// BW_MP(N) tables per level.
#include <boost/test/unit_test.hpp>

#include "models/staircase/test/staircase_levels.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

constexpr std::uint64_t MB = 1000000;
const RunOptions kStaircase{.model = "staircase", .attribution = true};

}  // namespace

BOOST_AUTO_TEST_CASE(staircase_attribution_socket_of_four_receivers) {
  // One socket of 4 cores, rank r receives 1 MB from r + 1 (mod 4): N = 4
  // receivers share BW_MP(4) = 18 GB/s, 4.5 GB/s each (eq. (12), theta 1),
  // for the whole message; alone it would get BW_MP(1) = 10 GB/s.
  const auto r = run_pattern(platform_yaml(1, 1, 4, kStaircaseLevels), {{1, 0, MB}, {2, 1, MB}, {3, 2, MB}, {0, 3, MB}},
                             4, kStaircase);
  for (int dst = 0; dst < 4; ++dst) {
    const auto& m = attribution_of(r, (dst + 1) % 4, dst);
    BOOST_TEST_INFO(describe_intervals(m));
    BOOST_TEST_REQUIRE(m.intervals.size() == 1u);
    BOOST_TEST(m.intervals[0].resource == "staircase:node0/socket0(N=4)");
    BOOST_TEST(m.intervals[0].rate == 4.5e9, tt::tolerance(1e-12));
    BOOST_TEST(m.intervals[0].end == 1e6 / 4.5e9, tt::tolerance(1e-12));
    BOOST_TEST(m.intervals[0].detail.find("BW_mix(4, theta=1)/4 = 4.5GB/s") != std::string::npos);
    BOOST_TEST(m.limited_by() == "staircase:node0/socket0(N=4)");
    BOOST_TEST(m.slowdown() == 10.0 / 4.5, tt::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(staircase_attribution_group_shrinks_as_receivers_finish) {
  // Node 1 (ranks 2, 3) receives 1 MB into rank 2 and 2 MB into rank 3 from
  // node 0: N = 2 at BW_MP(2)/2 = 6 GB/s until rank 2's message is in
  // (1/6 ms), then rank 3 alone at BW_MP(1) = 10 GB/s for its last 1 MB.
  const auto r = run_pattern(platform_yaml(2, 1, 2, kStaircaseLevels), {{0, 2, MB}, {1, 3, 2 * MB}}, 4, kStaircase);
  const auto& big = attribution_of(r, 1, 3);
  BOOST_TEST_INFO(describe_intervals(big));
  BOOST_TEST_REQUIRE(big.intervals.size() == 2u);
  BOOST_TEST(big.intervals[0].resource == "staircase:node1(N=2)");
  BOOST_TEST(big.intervals[0].rate == 6e9, tt::tolerance(1e-12));
  BOOST_TEST(big.intervals[0].end == 1e6 / 6e9, tt::tolerance(1e-12));
  BOOST_TEST(big.intervals[1].resource == "staircase:node1(N=1)");
  BOOST_TEST(big.intervals[1].rate == 10e9, tt::tolerance(1e-12));
  BOOST_TEST(big.intervals[1].end == 1e6 / 6e9 + 1e6 / 10e9, tt::tolerance(1e-12));
  BOOST_TEST(big.limited_by() == "staircase:node1(N=2)");
  BOOST_TEST(big.slowdown() == (1e6 / 6e9 + 1e6 / 10e9) / (2e6 / 10e9), tt::tolerance(1e-12));
}
