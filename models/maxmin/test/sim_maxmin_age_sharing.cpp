// maxmin's sharing by age (`models: maxmin: {sharing: {age_decay: g}}`,
// age_sharing.hpp) against hand-computed cases, and g = 1 against the fair
// default, bit for bit. SimGrid allows one engine per process: each
// simulation runs in a child process.
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <random>
#include <sstream>
#include <utility>
#include <vector>

#include "sim/engine/worker_pool.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

// Nodes of one core behind NICs of 1 GB/s on a much faster star, no
// latency: a node's NIC in is the only link flows into it share.
std::string nic_star(int nodes, const std::string& models = "") {
  return platform_yaml(nodes, 1, 1, levels_yaml("0us", "1KiB", "1GB/s"), "{topology: star, link_bandwidth: 1e12}",
                       "{bandwidth: 1GB/s}") +
         models;
}

// The end of the one message of each (src, dst) pair, in a child process.
std::vector<double> ends(const std::string& platform, const std::vector<PatternMessage>& messages, int ranks) {
  const std::string text = run_in_child_process([&] {
    const auto r = run_pattern(platform, messages, ranks);
    std::string out;
    for (const auto& m : messages) {
      const auto records = messages_between(r, m.src, m.dst);
      char end[40];
      std::snprintf(end, sizeof end, "%.17g ", records.size() == 1 ? records[0].end : -1.0);
      out += end;
    }
    return out;
  });
  std::istringstream in(text);
  std::vector<double> values;
  for (double v = 0; in >> v;) values.push_back(v);
  return values;
}

std::string exact_ends(const std::string& platform, const std::vector<PatternMessage>& messages, int ranks) {
  return run_in_child_process([&] { return exact_message_ends(run_pattern(platform, messages, ranks)); });
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_older_flow_into_a_node_keeps_the_larger_weight) {
  // 2 MB from node 1 at 0, 2 MB from node 2 at 1 ms, into node 0; g = 0.5:
  // weights 1 and 0.5 share 1 GB/s as 2/3 and 1/3. The first has 1 MB left
  // at 1 ms: done at 1 + 1.5 = 2.5 ms; the second has 0.5 MB by then, 1.5 MB
  // alone: 4.0 ms. Fair sharing: 3.0 and 4.0 ms.
  const std::vector<PatternMessage> messages = {{1, 0, 2000000, 0}, {2, 0, 2000000, 0.001}};
  const auto weighted = ends(nic_star(3, "models:\n  maxmin: {sharing: {age_decay: 0.5}}\n"), messages, 3);
  BOOST_TEST_REQUIRE(weighted.size() == 2u);
  BOOST_TEST(weighted[0] == 0.0025, tt::tolerance(1e-9));
  BOOST_TEST(weighted[1] == 0.0040, tt::tolerance(1e-9));
  const auto fair = ends(nic_star(3), messages, 3);
  BOOST_TEST_REQUIRE(fair.size() == 2u);
  BOOST_TEST(fair[0] == 0.0030, tt::tolerance(1e-9));
  BOOST_TEST(fair[1] == 0.0040, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(a_flow_becomes_the_oldest_when_the_older_one_ends) {
  // g = 0.5 into node 0: 1 MB from node 1 at 0, 2 MB from node 2 at 0.5 ms,
  // 1 MB from node 3 at 2 ms. 0-0.5 ms: the first alone (0.5 MB). Then 2/3
  // and 1/3: the first ends at 0.5 + 0.75 = 1.25 ms, the second has 0.25 MB.
  // Alone to 2 ms: 1.0 MB. Then the second is the oldest (weight 1), the
  // third weighs 0.5: the second ends at 2 + 1.5 = 3.5 ms, the third has
  // 0.5 MB then and ends at 4.0 ms.
  const std::vector<PatternMessage> messages = {{1, 0, 1000000, 0}, {2, 0, 2000000, 0.0005}, {3, 0, 1000000, 0.002}};
  const auto r = ends(nic_star(4, "models:\n  maxmin: {sharing: {age_decay: 0.5}}\n"), messages, 4);
  BOOST_TEST_REQUIRE(r.size() == 3u);
  BOOST_TEST(r[0] == 0.00125, tt::tolerance(1e-9));
  BOOST_TEST(r[1] == 0.0035, tt::tolerance(1e-9));
  BOOST_TEST(r[2] == 0.0040, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(flows_out_of_a_node_stay_fair) {
  // The weights apply on a node's incoming link only: a fan-out of two from
  // node 0 (1 MB at 0, 1 MB at 0.5 ms) shares node 0's NIC out fairly: the
  // first ends at 0.5 + 1.0 = 1.5 ms, the second at 2.0 ms.
  const std::vector<PatternMessage> messages = {{0, 1, 1000000, 0}, {0, 2, 1000000, 0.0005}};
  const auto r = ends(nic_star(3, "models:\n  maxmin: {sharing: {age_decay: 0.5}}\n"), messages, 3);
  BOOST_TEST_REQUIRE(r.size() == 2u);
  BOOST_TEST(r[0] == 0.0015, tt::tolerance(1e-9));
  BOOST_TEST(r[1] == 0.0020, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(decay_one_is_the_fair_default_bit_for_bit) {
  // Property: random messages on random level tables, with and without
  // `age_decay: 1`: the same ends, to the bit.
  std::mt19937 rng(20261126);
  for (int c = 0; c < 4; ++c) {
    const std::string levels =
        levels_yaml({"1us", "2us", "10us"}, "16KiB", {random_bandwidth_table(rng), "8GB/s", "1GB/s"});
    const std::string platform = platform_yaml(4, 2, 2, levels, "{topology: star, link_bandwidth: 2GB/s}");
    const auto messages = random_messages(rng, 16, 40);
    BOOST_TEST(exact_ends(platform, messages, 16) ==
               exact_ends(platform + "models:\n  maxmin: {sharing: {age_decay: 1}}\n", messages, 16));
  }
}
