// Timeline counter tracks under staircase (Thune et al., TPDS 2023): the
// processes N receiving on each group, hand-computed with the levels of
// staircase_levels.hpp (no latency, BW_MP(N) tables per level).
#include <boost/test/unit_test.hpp>

#include "models/staircase/test/staircase_levels.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

constexpr std::uint64_t MB = 1000000;
const RunOptions kStaircase{.model = "staircase", .timeline = true};

}  // namespace

BOOST_AUTO_TEST_CASE(staircase_loads_socket_with_four_receivers) {
  // One socket of 4 cores; rank r receives r + 1 MB from rank r + 1 (mod 4),
  // all from t = 0: N = 4 (BW_MP(4)/4 = 4.5 GB/s each) until rank 0's 1 MB is
  // in, then one receiver fewer at each completion.
  const auto r = run_pattern(platform_yaml(1, 1, 4, kStaircaseLevels),
                             {{1, 0, MB}, {2, 1, 2 * MB}, {3, 2, 3 * MB}, {0, 3, 4 * MB}}, 4, kStaircase);
  const auto samples = load_samples(r, "staircase:node0/socket0");
  BOOST_TEST((load_values(r, "staircase:node0/socket0") == std::vector<double>{4, 3, 2, 1, 0}));
  BOOST_TEST_REQUIRE(samples.size() == 5u);
  BOOST_TEST(samples[0].first == 0.0);
  BOOST_TEST(samples[1].first == 1e6 / 4.5e9, tt::tolerance(1e-12));
  for (int dst = 1; dst < 4; ++dst) {
    BOOST_TEST_INFO("receiver " << dst);
    BOOST_TEST(samples[static_cast<std::size_t>(dst) + 1].first == messages_between(r, (dst + 1) % 4, dst).at(0).end,
               tt::tolerance(1e-12));
  }
  BOOST_TEST(r.timeline.resources().size() == 1u);  // no node group: nothing crossed a node
  BOOST_TEST(r.timeline.resources()[0].unit == "processes");
}

BOOST_AUTO_TEST_CASE(staircase_loads_node_group_shrinks) {
  // Node 1 (ranks 2, 3) receives 1 MB into rank 2 and 2 MB into rank 3 from
  // node 0: N = 2 at BW_MP(2)/2 = 6 GB/s until rank 2's message is in
  // (1/6 ms), then N = 1 for rank 3's last 1 MB at 10 GB/s.
  const auto r = run_pattern(platform_yaml(2, 1, 2, kStaircaseLevels), {{0, 2, MB}, {1, 3, 2 * MB}}, 4, kStaircase);
  const auto samples = load_samples(r, "staircase:node1");
  BOOST_TEST_REQUIRE(samples.size() == 3u);
  BOOST_TEST(samples[0].first == 0.0);
  BOOST_TEST(samples[0].second == 2);
  BOOST_TEST(samples[1].first == 1e6 / 6e9, tt::tolerance(1e-12));
  BOOST_TEST(samples[1].second == 1);
  BOOST_TEST(samples[2].first == 1e6 / 6e9 + 1e6 / 10e9, tt::tolerance(1e-12));
  BOOST_TEST(samples[2].second == 0);
  BOOST_TEST(load_samples(r, "staircase:node0").empty());  // node 0 receives nothing
}
