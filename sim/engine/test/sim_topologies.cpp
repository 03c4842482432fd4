// Networks: star (full duplex), fat tree (SimGrid's zone), Dragonfly+ (ours).
#include <fmt/format.h>

#include <boost/test/unit_test.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/dragonfly_plus.hpp"
#include "sim/core/mapping.hpp"
#include "sim/engine/mpi.hpp"
#include "sim/engine/simgrid_platform.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

const std::string kLevels = levels_yaml({"0us", "0us", "1us"}, "1KiB", "100GB/s");

}  // namespace

BOOST_AUTO_TEST_CASE(star_links_are_full_duplex) {
  // 0 -> 1 and 1 -> 0 at once on 1 GB/s node links: no interference.
  const auto platform = platform_yaml(2, 1, 1, kLevels, "{topology: star, link_bandwidth: 1GB/s, link_latency: 2us}");
  const auto r = run_pattern(platform, {{0, 1, 1000000}, {1, 0, 1000000}}, 2);
  const double expected = 1e-6 + 2 * 2e-6 + 1e-3;  // tau + uplink and downlink latencies + s/BW
  BOOST_TEST(r.ranks[0].recv_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[1].recv_time == expected, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(star_node_link_shared_by_incoming_flows) {
  // Two flows into node 2 share its downlink: twice the time.
  const auto platform = platform_yaml(3, 1, 1, kLevels, "{topology: star, link_bandwidth: 1GB/s}");
  const auto r = run_pattern(platform, {{0, 2, 1000000}, {1, 2, 1000000}}, 3);
  BOOST_TEST(r.ranks[2].recv_time == 1e-6 + 2e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(fat_tree_routes_through_the_switch_levels) {
  // Two-level fat tree with 4 leaves: nodes 0 and 3 are under different
  // first-level switches, so the route climbs to the top: 4 links of 0.5 us.
  const auto platform =
      platform_yaml(4, 1, 1, kLevels,
                    "{topology: fat-tree, levels: 2, down: [2, 2], up: [1, 2], link_count: [1, 1], link_bandwidth: "
                    "1GB/s, link_latency: 0.5us}");
  // One message at a time, so that only latency and bandwidth show.
  ScriptWorkload w(4, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.send(3, 1000000);
      mpi.send(1, 1000000);
    }
    if (mpi.rank() == 1 || mpi.rank() == 3) mpi.recv(0, 1000000);
  });
  const auto r = run(platform, w);
  const auto far = messages_between(r, 0, 3).at(0);
  const auto near = messages_between(r, 0, 1).at(0);
  BOOST_TEST(far.end - far.start == 1e-6 + 4 * 0.5e-6 + 1e-3, tt::tolerance(1e-9));
  BOOST_TEST(near.end - near.start == 1e-6 + 2 * 0.5e-6 + 1e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(dragonfly_plus_global_link_is_the_bottleneck) {
  // Two groups joined by one global link of 1 GB/s; node links 10 GB/s.
  // Two flows from group 0 to group 1 share it: 2 MB / 1 GB/s each.
  const auto platform = platform_yaml(
      4, 1, 1, kLevels,
      "{topology: dragonfly+, groups: 2, leaves_per_group: 1, spines_per_group: 1, nodes_per_leaf: 2, global_links: "
      "1, node_link_bandwidth: 10GB/s, local_link_bandwidth: 10GB/s, global_link_bandwidth: 1GB/s, "
      "node_link_latency: 0.1us, local_link_latency: 0.1us, global_link_latency: 0.5us}");
  const auto r = run_pattern(platform, {{0, 2, 1000000}, {1, 3, 1000000}, {0, 1, 1000000}}, 4);
  const double inter_group = 1e-6 + 2 * 0.1e-6 + 2 * 0.1e-6 + 0.5e-6;  // node, leaf-spine, global, spine-leaf, node
  BOOST_TEST(r.ranks[2].recv_time == inter_group + 2e-3, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[3].recv_time == inter_group + 2e-3, tt::tolerance(1e-9));
  // Inside a group, leaf-local: two node links (latency 1.2 us). Max-min:
  // node 0's uplink also carries the 0 -> 2 flow once its latency (1.9 us)
  // has passed; held to 0.5 GB/s by the global link, it leaves the local
  // flow 9.5 GB/s. Before that the local flow had all 10 GB/s for 0.7 us.
  const double head_start = (inter_group - 1.2e-6) * 10e9;
  BOOST_TEST(r.ranks[1].recv_time == inter_group + (1e6 - head_start) / 9.5e9, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(fat_tree_cables_are_full_duplex) {
  // 0 -> 3 and 3 -> 0 at once through the top of the tree: each direction
  // has its own capacity, so both take s / 1 GB/s.
  const auto platform =
      platform_yaml(4, 1, 1, kLevels,
                    "{topology: fat-tree, levels: 2, down: [2, 2], up: [1, 2], link_count: [1, 1], link_bandwidth: "
                    "1GB/s, link_latency: 0.5us}");
  const auto r = run_pattern(platform, {{0, 3, 1000000}, {3, 0, 1000000}}, 4);
  BOOST_TEST(r.ranks[3].recv_time == 1e-6 + 4 * 0.5e-6 + 1e-3, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].recv_time == 1e-6 + 4 * 0.5e-6 + 1e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(dragonfly_plus_zone_routes_every_node_pair_as_the_graph) {
  // DragonflyPlusZone computes each route when SimGrid asks: for every pair
  // of nodes, the route is NIC out, the graph's cables (d-mod-k) in their
  // direction, NIC in, and its latency the sum of theirs.
  const auto platform = parse_platform_text(platform_yaml(
      12, 2, 2, kLevels,
      "{topology: dragonfly+, groups: 3, leaves_per_group: 2, spines_per_group: 2, nodes_per_leaf: 2, global_links: 2, "
      "node_link_bandwidth: 10GB/s, local_link_bandwidth: 10GB/s, global_link_bandwidth: 1GB/s, "
      "node_link_latency: 0.1us, local_link_latency: 0.2us, global_link_latency: 0.5us}"));
  std::string program = "sim_topologies", quiet = "--log=root.thresh:critical";
  char* argv[] = {program.data(), quiet.data(), nullptr};
  int argc = 2;
  simgrid::s4u::Engine engine(&argc, argv);
  const SimgridPlatform simgrid(platform, make_mapping("block", 2, platform.nodes, false));

  const auto& net = std::get<DragonflyPlusNetwork>(platform.network);
  const DragonflyPlusGraph graph(net, platform.nodes.count);
  const char* kinds[] = {"node", "local", "global"};
  const double cable_latency[] = {net.node_link_latency, net.local_link_latency, net.global_link_latency};
  const double ends = platform.level(Level::InterNode).latency + 2 * platform.nic.latency;
  int inter_group = 0;
  for (int a = 0; a < platform.nodes.count; ++a) {
    for (int b = 0; b < platform.nodes.count; ++b) {
      if (a == b) continue;
      std::vector<std::string> expected = {"nic:node" + std::to_string(a) + "/out"};
      double expected_latency = ends;
      for (const CableHop& hop : graph.route(a, b)) {
        const auto& cable = graph.cables()[hop.cable];
        const auto kind = static_cast<std::size_t>(cable.kind);
        expected.push_back(
            fmt::format("link:{}-{}-{}-{}-{}", kinds[kind], hop.cable, cable.a, cable.b, hop.forward ? "fwd" : "bwd"));
        expected_latency += cable_latency[kind];
      }
      expected.push_back("nic:node" + std::to_string(b) + "/in");
      double latency = 0;
      std::vector<std::string> names;
      for (const auto* link : simgrid.node_route(a, b, &latency)) names.push_back(SimgridPlatform::resource_name(link));
      BOOST_TEST(names == expected, tt::per_element());
      BOOST_TEST(latency == expected_latency, tt::tolerance(1e-12));
      if (graph.group_of_node(a) != graph.group_of_node(b)) ++inter_group;
    }
  }
  BOOST_TEST(inter_group == 12 * 8);  // 3 groups of 4 nodes: 8 nodes elsewhere for each
}
