// Timeline counter tracks under taulop: the transfers on each channel
// instance (tau), hand-computed.
#include <boost/test/unit_test.hpp>

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
  const std::string levels = levels_yaml({"1us", "1us", "10us"}, "1KiB", {"1GB/s", "1GB/s", "100MB/s"});
  return star_cluster_yaml(nodes, cores, levels) + kTauLop;
}

}  // namespace

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
  auto check = [&](const std::string& name, const std::vector<std::pair<double, double>>& expected) {
    const auto got = load_samples(r, name);
    BOOST_TEST_INFO(name);
    BOOST_TEST_REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      BOOST_TEST_INFO(name << " sample " << i);
      BOOST_TEST(got[i].first == expected[i].first, tt::tolerance(1e-9));
      BOOST_TEST(got[i].second == expected[i].second);
    }
  };
  check("taulop:memory@node1", {{memory_start, 1}, {network_start, 0}});
  check("taulop:nic@node1/out", {{network_start, 1}, {network_end, 0}});
  check("taulop:nic@node2/out", {{network_start, 1}, {network_end, 0}});
  check("taulop:nic@node0/in", {{network_start, 2}, {network_end, 0}});
  check("taulop:memory@node0", {{network_end, 2}, {end, 0}});
  BOOST_TEST(end == messages_between(r, 1, 0).at(0).end, tt::tolerance(1e-9));
  for (const auto& resource : r.timeline.resources()) BOOST_TEST(resource.unit == "transfers");
}
