// Attribution under flowcut (Martinasso & Mehaut RR-5910), hand-computed:
// one rank per node, L = 5 us, D = 1 MB / 100 MB/s = 10 ms, GigaEth / LAM
// cuts (outgo/income 0 and 3).
#include <boost/test/unit_test.hpp>

#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

constexpr double L = 5e-6, D = 0.01;
constexpr std::uint64_t MB = 1000000;

const std::string kTable =
    "models:\n"
    "  flowcut:\n"
    "    same_direction: {odd_conflicts: [1], even_conflicts: [1/2, 2]}\n"
    "    outgo_income: {incoming: 0, outgoing: 3}\n"
    "    alone: {include: 1/2, start_end: 0}\n";

std::string cluster(int nodes) {
  return star_cluster_yaml(nodes, 1, levels_yaml({"1us", "1us", "5us"}, "1KiB", {"500MB/s", "500MB/s", "100MB/s"})) +
         kTable;
}

const RunOptions kFlowcut{.model = "flowcut", .attribution = true};

}  // namespace

BOOST_AUTO_TEST_CASE(flowcut_attribution_chain_cuts_the_outgoing_flow_at_the_middle_node) {
  // 0 -> 1 -> 2 (Sec. 6.1): 0 -> 1 is the incoming side of C->X-> at node 1
  // with cut 0: the network's bandwidth bounds it all along. 1 -> 2 is the
  // outgoing side, cut 3: Bw/4 until 0 -> 1 ends at L + D, then alone
  // (0.75 D at Bw).
  const auto r = run_pattern(cluster(3), {{0, 1, MB}, {1, 2, MB}}, 3, kFlowcut);
  const auto& first = attribution_of(r, 0, 1);
  BOOST_TEST_INFO(describe_intervals(first));
  BOOST_TEST_REQUIRE(first.intervals.size() == 2u);
  BOOST_TEST(first.intervals[0].resource == "latency");
  BOOST_TEST(first.intervals[0].end == L, tt::tolerance(1e-12));
  BOOST_TEST(first.intervals[1].resource == "bandwidth:inter_node");
  BOOST_TEST(first.intervals[1].rate == 100e6, tt::tolerance(1e-12));
  BOOST_TEST(first.intervals[1].end == L + D, tt::tolerance(1e-12));
  BOOST_TEST(first.limited_by() == "bandwidth:inter_node");
  BOOST_TEST(first.slowdown() == 1.0, tt::tolerance(1e-12));

  const auto& second = attribution_of(r, 1, 2);
  BOOST_TEST_INFO(describe_intervals(second));
  BOOST_TEST_REQUIRE(second.intervals.size() == 3u);
  BOOST_TEST(second.intervals[1].resource == "flowcut:outgo-income@node1");
  BOOST_TEST(second.intervals[1].begin == L, tt::tolerance(1e-12));
  BOOST_TEST(second.intervals[1].end == L + D, tt::tolerance(1e-12));
  BOOST_TEST(second.intervals[1].rate == 25e6, tt::tolerance(1e-12));
  BOOST_TEST(second.intervals[1].detail.find("with 0->1") != std::string::npos);
  BOOST_TEST(second.intervals[2].resource == "bandwidth:inter_node");
  BOOST_TEST(second.intervals[2].end == L + 1.75 * D, tt::tolerance(1e-12));
  BOOST_TEST(second.limited_by() == "flowcut:outgo-income@node1");
  BOOST_TEST(second.slowdown() == (L + 1.75 * D) / (L + D), tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_attribution_income_conflict_names_the_receiving_node) {
  // C->X<- (0 -> 2, 1 -> 2): a same-direction pair at node 2, cut 1 (odd
  // chain): both at Bw/2 for their whole transfer, 2 D.
  const auto r = run_pattern(cluster(3), {{0, 2, MB}, {1, 2, MB}}, 3, kFlowcut);
  for (int src : {0, 1}) {
    const auto& m = attribution_of(r, src, 2);
    BOOST_TEST_INFO(describe_intervals(m));
    BOOST_TEST_REQUIRE(m.intervals.size() == 2u);
    BOOST_TEST(m.intervals[1].resource == "flowcut:income@node2");
    BOOST_TEST(m.intervals[1].rate == 50e6, tt::tolerance(1e-12));
    BOOST_TEST(m.intervals[1].end == L + 2 * D, tt::tolerance(1e-12));
    BOOST_TEST(m.time_on("flowcut:income@node2") == 2 * D, tt::tolerance(1e-9));
  }
}

BOOST_AUTO_TEST_CASE(flowcut_attribution_nothing_is_recorded_unless_asked) {
  const auto r = run_pattern(cluster(3), {{0, 1, MB}, {1, 2, MB}}, 3, RunOptions{.model = "flowcut"});
  BOOST_TEST(!r.attributed);
  BOOST_TEST(r.attribution.empty());
}
