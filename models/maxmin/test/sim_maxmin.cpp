// The maxmin model against closed forms.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <map>
#include <random>

#include "sim/engine/mpi.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

// Staircase of Thune eq. (5) for flows sharing one link whose aggregate
// bandwidth is table(n) for n flows: completion time of each size.
std::vector<double> staircase(std::vector<double> sizes, const std::function<double(int)>& table) {
  std::sort(sizes.begin(), sizes.end());
  std::vector<double> t(sizes.size());
  const int n = static_cast<int>(sizes.size());
  double previous_size = 0, clock = 0;
  for (int i = 0; i < n; ++i) {
    clock += (n - i) * (sizes[static_cast<std::size_t>(i)] - previous_size) / table(n - i);
    t[static_cast<std::size_t>(i)] = clock;
    previous_size = sizes[static_cast<std::size_t>(i)];
  }
  return t;
}

}  // namespace

BOOST_AUTO_TEST_CASE(three_flows_share_a_nonlinear_link_as_a_staircase) {
  // 1, 2 and 4 MB on one socket whose BW_MP(n) is 100, 150, 180 MB/s for
  // n = 1, 2, 3 flows: done at 1/60, 1/60 + 1/75 and ... + 2/100 s.
  const std::string levels = levels_yaml("0us", "1KiB", {"{1: 100MB/s, 2: 150MB/s, 3: 180MB/s}", "1GB/s", "1GB/s"});
  const auto r = run_pattern(platform_yaml(1, 1, 6, levels), {{0, 1, 1000000}, {2, 3, 2000000}, {4, 5, 4000000}}, 6);
  BOOST_TEST(r.ranks[1].recv_time == 1.0 / 60, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[3].recv_time == 0.03, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[5].recv_time == 0.05, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(random_flows_per_socket_follow_the_closed_form) {
  // Property: on each socket, k random flows (1 <= k <= 6) of random sizes
  // start together; SimGrid's max-min on the socket's NONLINEAR link must
  // give each flow the staircase time of eq. (5) with N = flows. Twelve
  // independent sockets make twelve random cases in one simulation.
  const int sockets = 12, cores = 6;
  const std::map<int, double> table = {{1, 100e6}, {2, 150e6}, {3, 180e6}, {6, 240e6}};
  auto bw = [&](int n) {
    auto hi = table.lower_bound(n);
    if (hi == table.end()) return std::prev(hi)->second;
    if (hi->first == n || hi == table.begin()) return hi->second;
    auto lo = std::prev(hi);
    return lo->second + (hi->second - lo->second) * (n - lo->first) / double(hi->first - lo->first);
  };
  const std::string levels =
      levels_yaml("0us", "1", {"{1: 100MB/s, 2: 150MB/s, 3: 180MB/s, 6: 240MB/s}", "1GB/s", "1GB/s"});
  std::mt19937 rng(20261121);
  std::vector<PatternMessage> messages;
  std::vector<std::vector<std::pair<int, double>>> per_socket(sockets);  // (dst rank, size)
  for (int s = 0; s < sockets; ++s) {
    const int k = 1 + static_cast<int>(rng() % 6);
    for (int f = 0; f < k; ++f) {
      const int src = s * cores + static_cast<int>(rng() % cores);
      const int dst = s * cores + static_cast<int>(rng() % cores);
      const auto bytes = 1000 + rng() % 5000000;
      messages.push_back({src, dst, bytes});
      per_socket[static_cast<std::size_t>(s)].emplace_back(dst, static_cast<double>(bytes));
    }
  }
  const auto r = run_pattern(platform_yaml(1, sockets, cores, levels), messages, sockets * cores);
  BOOST_REQUIRE(r.messages.size() == messages.size());
  for (int s = 0; s < sockets; ++s) {
    std::vector<double> sizes;
    for (const auto& [dst, size] : per_socket[static_cast<std::size_t>(s)]) sizes.push_back(size);
    const auto expected = staircase(sizes, bw);
    std::vector<double> got;
    for (const auto& m : r.messages)
      if (m.src / cores == s) got.push_back(m.end);
    std::sort(got.begin(), got.end());
    BOOST_TEST_CONTEXT("socket " << s << " with " << sizes.size() << " flows") {
      BOOST_REQUIRE(got.size() == expected.size());
      for (std::size_t i = 0; i < got.size(); ++i) BOOST_TEST(got[i] == expected[i], tt::tolerance(1e-9));
    }
  }
}

BOOST_AUTO_TEST_CASE(nic_caps_the_inter_node_level) {
  const std::string levels = levels_yaml({"1us", "1us", "5us"}, "1KiB", "1GB/s");
  // NIC: 0.5 GB/s, 1 us at each end: 5 + 2 x 1 us, then 1 MB at 0.5 GB/s.
  const auto platform =
      platform_yaml(2, 1, 1, levels, "{topology: star, link_bandwidth: 1e12}", "{bandwidth: 0.5GB/s, latency: 1us}");
  const auto r = run_pattern(platform, {{0, 1, 1000000}}, 2);
  BOOST_TEST(r.ranks[1].recv_time == 7e-6 + 2e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(levels_are_separate_resources) {
  // An intra-socket flow on socket 0 and an inter-socket flow into socket 1
  // (a different link) do not slow each other: both take s / 1 GB/s.
  const std::string levels = levels_yaml("0us", "1KiB", "1GB/s");
  const auto r = run_pattern(platform_yaml(1, 2, 2, levels), {{0, 1, 1000000}, {0, 2, 1000000}}, 4);
  BOOST_TEST(r.levels[0].messages == 1u);
  BOOST_TEST(r.levels[1].messages == 1u);
  BOOST_TEST(r.ranks[1].recv_time == 1e-3, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[2].recv_time == 1e-3, tt::tolerance(1e-9));
}
