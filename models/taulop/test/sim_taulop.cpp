// The taulop model inside the engine: lone messages cost o + 2 L^0 (same
// node) and o^1 + 2 L^0 + L^1 (other node); concurrent transfers share the
// channels as the concurrency tables say (hand-computed, as in
// models/taulop/test/test_taulop.cpp).
#include <boost/test/unit_test.hpp>

#include "sim/engine/mpi.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

constexpr std::uint64_t MB = 1000000;

// L^0(m) = 1 us + m / 1 GB/s, L^1(m) = 10 us + m / 100 MB/s, o^1 = 5 us,
// network concurrency s(2) = 1.5, shared memory s(tau) = tau.
const std::string kTauLop =
    "models:\n"
    "  taulop:\n"
    "    Q: 4\n"
    "    channels:\n"
    "      shared_memory: {o: 0, L: {intercept: 1us, per_byte: 1ns}, gamma: {2: 1}}\n"
    "      network: {o: 5us, L: {intercept: 10us, per_byte: 10ns}, gamma: {2: 1}, concurrency: {1: 1, 2: 1.5}}\n";

std::string cluster(int nodes, int cores) {
  // Eager below 1 KiB: the messages below move as soon as both sides posted.
  const std::string levels = levels_yaml({"1us", "1us", "10us"}, "1KiB", {"1GB/s", "1GB/s", "100MB/s"});
  return star_cluster_yaml(nodes, cores, levels) + kTauLop;
}

const RunOptions kTaulop{.model = "taulop"};

}  // namespace

BOOST_AUTO_TEST_CASE(taulop_lone_messages_are_sums_of_transfers) {
  // Ranks 0, 1 on node 0; 2 on node 1.
  const auto r = run_pattern(cluster(2, 2), {{0, 1, MB}}, 3, kTaulop);
  const double l0 = 1e-6 + 1e-3;
  BOOST_TEST(duration(r, 0, 1) == 2 * l0, tt::tolerance(1e-9));
  const auto n = run_pattern(cluster(2, 2), {{0, 2, MB}}, 3, kTaulop);
  BOOST_TEST(duration(n, 0, 2) == 5e-6 + 2 * l0 + 10e-6 + 1e-2, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(taulop_two_sends_from_one_node_share_its_channels) {
  // 0 -> 2 and 1 -> 3 (nodes 0 -> 1): o 5 us; copy-in both on node 0's
  // memory at 1/2 (2 L^0); network from one NIC out and into one NIC in at
  // 1 / 1.5; copy-out both on node 1's memory at 1/2.
  const auto r = run_pattern(cluster(2, 2), {{0, 2, MB}, {1, 3, MB}}, 4, kTaulop);
  const double l0 = 1e-6 + 1e-3, l1 = 10e-6 + 1e-2;
  const double expected = 5e-6 + 2 * l0 + 1.5 * l1 + 2 * l0;
  BOOST_TEST(duration(r, 0, 2) == expected, tt::tolerance(1e-9));
  BOOST_TEST(duration(r, 1, 3) == expected, tt::tolerance(1e-9));
}

// Attribution (docs/explain.md): each step and its channel's concurrency.

BOOST_AUTO_TEST_CASE(taulop_attribution_two_sends_share_memory_and_nics) {
  // 0 -> 2 and 1 -> 3 (nodes 0 -> 1): o 5 us; copy-in on node 0's memory
  // with c = 2 (2 L^0); network through node 0's NIC out, c = 2, s(2) = 1.5;
  // copy-out on node 1's memory, c = 2.
  const auto r =
      run_pattern(cluster(2, 2), {{0, 2, MB}, {1, 3, MB}}, 4, RunOptions{.model = "taulop", .attribution = true});
  const double l0 = 1e-6 + 1e-3, l1 = 10e-6 + 1e-2;
  const auto& m = attribution_of(r, 0, 2);
  BOOST_TEST_INFO(describe_intervals(m));
  // The two network steps end a rounding error apart: the first copy-out may
  // be alone on node 1's memory for that long.
  BOOST_TEST_REQUIRE(m.intervals.size() >= 4u);
  BOOST_TEST(m.time_on("taulop:memory@node1(c=1)") < 1e-12);
  BOOST_TEST(m.intervals[0].resource == "taulop:o");
  BOOST_TEST(m.intervals[0].end == 5e-6, tt::tolerance(1e-12));
  BOOST_TEST(m.intervals[1].resource == "taulop:memory@node0(c=2)");
  BOOST_TEST(m.intervals[1].end == 5e-6 + 2 * l0, tt::tolerance(1e-9));
  BOOST_TEST(m.intervals[1].rate == 1e6 / l0 / 2, tt::tolerance(1e-9));
  BOOST_TEST(m.intervals[2].resource == "taulop:nic@node0/out(c=2)");
  BOOST_TEST(m.intervals[2].end == 5e-6 + 2 * l0 + 1.5 * l1, tt::tolerance(1e-9));
  BOOST_TEST(m.intervals.back().resource == "taulop:memory@node1(c=2)");
  BOOST_TEST(m.time_on("taulop:memory@node1(c=2)") == 2 * l0, tt::tolerance(1e-9));
  BOOST_TEST(m.limited_by() == "taulop:nic@node0/out(c=2)");
  BOOST_TEST(m.slowdown() == (5e-6 + 4 * l0 + 1.5 * l1) / (5e-6 + 2 * l0 + l1), tt::tolerance(1e-9));
}

// Timeline counter tracks: the transfers on each channel instance (tau).
BOOST_AUTO_TEST_CASE(taulop_loads_channel_concurrency_of_a_fan_in) {
  // Ranks 1, 2 (nodes 1, 2) send 1 MB each to rank 0 (node 0) at t = 0:
  // o^1 = 5 us, then L^0(m) = 1.001 ms alone on their node's memory, then
  // both enter the network together: tau = 2 through node 0's NIC in (s(2)
  // = 1.5: 1.5 L^1(m) = 15.015 ms), one through each sender's NIC out; then
  // both share node 0's memory channel (s(2) = 2: 2.002 ms).
  const auto r =
      run_pattern(cluster(3, 1), {{1, 0, MB}, {2, 0, MB}}, 3, RunOptions{.model = "taulop", .timeline = true});
  const double memory_start = 5e-6;
  const double network_start = memory_start + 1.001e-3;
  const double network_end = network_start + 1.5 * 10.01e-3;
  const double end = network_end + 2 * 1.001e-3;
  auto check = [&r](const std::string& name, const std::vector<std::pair<double, double>>& expected) {
    check_load_samples(r, name, expected, 1e-9);
  };
  check("taulop:memory@node1", {{memory_start, 1}, {network_start, 0}});
  check("taulop:nic@node1/out", {{network_start, 1}, {network_end, 0}});
  check("taulop:nic@node2/out", {{network_start, 1}, {network_end, 0}});
  check("taulop:nic@node0/in", {{network_start, 2}, {network_end, 0}});
  check("taulop:memory@node0", {{network_end, 2}, {end, 0}});
  BOOST_TEST(end == messages_between(r, 1, 0).at(0).end, tt::tolerance(1e-9));
  for (const auto& resource : r.timeline.resources()) BOOST_TEST(resource.unit == "transfers");
}
