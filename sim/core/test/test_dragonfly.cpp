#include <boost/test/unit_test.hpp>
#include <map>
#include <set>

#include "sim/core/dragonfly_plus.hpp"

using namespace contend;
using Kind = DragonflyPlusGraph::CableKind;

namespace contend {
std::ostream& operator<<(std::ostream& out, DragonflyPlusGraph::CableKind k) {
  return out << (k == Kind::Node ? "node" : k == Kind::Local ? "local" : "global");
}
}  // namespace contend

namespace {

DragonflyPlusNetwork two_groups() {
  DragonflyPlusNetwork d;
  d.groups = 2;
  d.leaves_per_group = 3;
  d.spines_per_group = 4;
  d.nodes_per_leaf = 4;
  d.global_links = 4;
  d.nodes_per_group = {12, 8};
  return d;
}

// Follows the hops and returns the sequence of cable kinds, checking that
// consecutive hops share a router.
std::vector<Kind> walk(const DragonflyPlusGraph& g, int from, int to) {
  const auto hops = g.route(from, to);
  std::vector<Kind> kinds;
  int here = -1;
  for (std::size_t i = 0; i < hops.size(); ++i) {
    const auto& c = g.cables()[hops[i].cable];
    kinds.push_back(c.kind);
    if (c.kind == Kind::Node) {
      if (i == 0) {
        BOOST_TEST(c.a == from);
        here = c.b;
      } else {
        BOOST_TEST(c.a == to);
        BOOST_TEST(c.b == here);
      }
      continue;
    }
    const int entry = hops[i].forward ? c.a : c.b;
    BOOST_TEST(entry == here);
    here = hops[i].forward ? c.b : c.a;
  }
  return kinds;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dragonfly)

BOOST_AUTO_TEST_CASE(nodes_fill_leaves_group_by_group) {
  const DragonflyPlusGraph g(two_groups(), 20);
  BOOST_TEST(g.group_of_node(0) == 0);
  BOOST_TEST(g.group_of_node(11) == 0);
  BOOST_TEST(g.group_of_node(12) == 1);
  BOOST_TEST(g.leaf_of_node(3) == g.leaf_of_node(0));
  BOOST_TEST(g.leaf_of_node(4) != g.leaf_of_node(3));
}

BOOST_AUTO_TEST_CASE(minimal_routes) {
  const DragonflyPlusGraph g(two_groups(), 20);
  BOOST_TEST(walk(g, 0, 1) == std::vector<Kind>({Kind::Node, Kind::Node}), boost::test_tools::per_element());
  BOOST_TEST(walk(g, 0, 5) == std::vector<Kind>({Kind::Node, Kind::Local, Kind::Local, Kind::Node}),
             boost::test_tools::per_element());
  BOOST_TEST(walk(g, 0, 13) == std::vector<Kind>({Kind::Node, Kind::Local, Kind::Global, Kind::Local, Kind::Node}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(every_global_link_carries_traffic) {
  // d-mod-k spreads the routes from group 0 to group 1 over all global links.
  const DragonflyPlusGraph g(two_groups(), 20);
  std::set<std::size_t> used;
  for (int from = 0; from < 12; ++from)
    for (int to = 12; to < 20; ++to)
      for (const auto& hop : g.route(from, to))
        if (g.cables()[hop.cable].kind == Kind::Global) used.insert(hop.cable);
  BOOST_TEST(used.size() == 4u);
}

BOOST_AUTO_TEST_CASE(spines_share_intra_group_traffic) {
  const DragonflyPlusGraph g(two_groups(), 20);
  std::map<std::size_t, int> uplink_use;  // leaf 0 -> spine cables
  for (int to = 4; to < 12; ++to) {
    const auto hops = g.route(0, to);
    ++uplink_use[hops[1].cable];
  }
  BOOST_TEST(uplink_use.size() == 4u);  // 8 destinations over 4 spines
  for (const auto& [cable, n] : uplink_use) BOOST_TEST(n == 2);
}

BOOST_AUTO_TEST_SUITE_END()
