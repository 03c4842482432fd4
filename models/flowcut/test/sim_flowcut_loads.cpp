// Timeline counter tracks under flowcut (Martinasso & Mehaut, RR-5910): the
// flows leaving (outgo) and entering (income) each node, hand-computed.
#include <boost/test/unit_test.hpp>

#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

constexpr double L = 5e-6, D = 0.01;  // the route's latency; 1 MB at 100 MB/s
constexpr std::uint64_t MB = 1000000;

const std::string kTable =
    "models:\n"
    "  flowcut:\n"
    "    same_direction: {odd_conflicts: [1], even_conflicts: [1/2, 2]}\n"
    "    outgo_income: {incoming: 0, outgoing: 3}\n"
    "    alone: {include: 1/2, start_end: 0}\n";

std::string cluster(int nodes) {
  const std::string levels = levels_yaml({"1us", "1us", "5us"}, "1KiB", {"500MB/s", "500MB/s", "100MB/s"});
  return star_cluster_yaml(nodes, 1, levels) + kTable;
}

using Samples = std::vector<std::pair<double, double>>;

void check(const Samples& got, const Samples& expected) {
  BOOST_TEST_REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    BOOST_TEST_INFO("sample " << i);
    BOOST_TEST(got[i].first == expected[i].first, tt::tolerance(1e-12));
    BOOST_TEST(got[i].second == expected[i].second);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(flowcut_loads_outgo_income_at_the_middle_node) {
  // 0 -> 1 -> 2 (C->X-> at node 1, cuts 0 and 3): node 1 has one flow in
  // and one out from L on; the incoming one ends at L + D, the outgoing one
  // (D/4 moved meanwhile) at L + 1.75 D.
  const auto r = run_pattern(cluster(3), {{0, 1, MB}, {1, 2, MB}}, 3, RunOptions{.model = "flowcut", .timeline = true});
  check(load_samples(r, "flowcut:outgo@node0"), {{L, 1}, {L + D, 0}});
  check(load_samples(r, "flowcut:income@node1"), {{L, 1}, {L + D, 0}});
  check(load_samples(r, "flowcut:outgo@node1"), {{L, 1}, {L + 1.75 * D, 0}});
  check(load_samples(r, "flowcut:income@node2"), {{L, 1}, {L + 1.75 * D, 0}});
  BOOST_TEST(r.timeline.resources().size() == 4u);
}

BOOST_AUTO_TEST_CASE(flowcut_loads_two_flows_into_one_node) {
  // C->X<- (0 -> 2, 1 -> 2 at once): node 2's income holds both (cut 1,
  // Bw/2 each: 2 D), then none.
  const auto r = run_pattern(cluster(3), {{0, 2, MB}, {1, 2, MB}}, 3, RunOptions{.model = "flowcut", .timeline = true});
  check(load_samples(r, "flowcut:income@node2"), {{L, 2}, {L + 2 * D, 0}});
}
