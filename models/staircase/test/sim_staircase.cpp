// The staircase model through the whole engine: with zero latencies, every
// rank's recv_time is the closed form's t_i^recv (eq. (7) per node for
// inter-node data, eqs. (13)-(14) per socket for intra-node data; the two
// run concurrently, so the later of the two), to 1e-9 relative.
#include <boost/test/unit_test.hpp>
#include <map>
#include <random>

#include "models/staircase/closed_form.hpp"
#include "models/staircase/test/staircase_levels.hpp"
#include "sim/core/mapping.hpp"
#include "sim/engine/mpi.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

const std::string kTenGigabyteLevels = levels_yaml("0us", "1", "10GB/s");

// t_i^recv of every receiving rank from the closed forms.
std::map<int, double> expected_receive_times(const Platform& p, const Mapping& m,
                                             const std::vector<PatternMessage>& msgs) {
  std::map<int, double> out;
  std::map<int, std::map<int, double>> inter;                      // node -> rank -> volume
  std::map<int, std::map<int, std::pair<double, double>>> socket;  // socket -> rank -> (on, off)
  for (const auto& msg : msgs) {
    const Level l = m.level(msg.src, msg.dst);
    const auto& d = m[msg.dst];
    if (l == Level::InterNode) {
      inter[d.node][msg.dst] += static_cast<double>(msg.bytes);
    } else {
      auto& v = socket[d.node * p.nodes.sockets + d.socket][msg.dst];
      (l == Level::IntraSocket ? v.first : v.second) += static_cast<double>(msg.bytes);
    }
  }
  const auto& bw = p.level(Level::InterNode).bandwidth;
  for (const auto& [node, ranks] : inter) {
    std::vector<double> volumes;
    for (const auto& [r, v] : ranks) volumes.push_back(v);
    const auto t = staircase_receive_times(volumes, [&](double n) { return bw.aggregate(n); });
    std::size_t k = 0;
    for (const auto& [r, v] : ranks) out[r] = std::max(out[r], t[k++]);
  }
  for (const auto& [s, ranks] : socket) {
    std::vector<double> on, off;
    for (const auto& [r, v] : ranks) {
      on.push_back(v.first);
      off.push_back(v.second);
    }
    const auto t =
        mixed_receive_times(on, off, p.level(Level::IntraSocket).bandwidth, p.level(Level::InterSocket).bandwidth);
    std::size_t k = 0;
    for (const auto& [r, v] : ranks) out[r] = std::max(out[r], t[k++]);
  }
  return out;
}

void check_random_pattern(unsigned seed, const std::string& mapping) {
  // The closed forms are the published model, without the sending side (a
  // random pattern loads the senders unevenly).
  const std::string yaml = platform_yaml(2, 2, 4, kStaircaseLevels) + "models:\n  staircase: {sender_nic: false}\n";
  const Platform p = parse_platform_text(yaml);
  const Mapping m = make_mapping(mapping, 16, p.nodes, false);
  std::mt19937 rng(seed);
  std::vector<PatternMessage> msgs;
  for (int i = 0; i < 60; ++i) {
    msgs.push_back({static_cast<int>(rng() % 16), static_cast<int>(rng() % 16), 1000 + rng() % 2000000});
  }
  const auto r = run_pattern(yaml, msgs, 16, {.mapping = mapping, .model = "staircase"});
  const auto expected = expected_receive_times(p, m, msgs);
  for (const auto& [rank, t] : expected) {
    BOOST_TEST_CONTEXT("rank " << rank) {
      BOOST_TEST(r.ranks[static_cast<std::size_t>(rank)].recv_time == t, tt::tolerance(1e-9));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(staircase_simulation_equals_closed_forms_block) { check_random_pattern(1, "block"); }

BOOST_AUTO_TEST_CASE(staircase_simulation_equals_closed_forms_cyclic) { check_random_pattern(2, "cyclic"); }

BOOST_AUTO_TEST_CASE(staircase_simulation_equals_closed_forms_socket) { check_random_pattern(3, "socket"); }

BOOST_AUTO_TEST_CASE(staircase_pays_the_latency_before_sharing) {
  // Two 1 MB messages into one socket, tau = 2 us: both start sharing at
  // 2 us, 16 GB/s for two, done at 2 us + 2 MB / 16 GB/s.
  const std::string levels = levels_yaml("2us", "1", {"{1: 10GB/s, 2: 16GB/s}", "5GB/s", "10GB/s"});
  const auto r =
      run_pattern(platform_yaml(1, 1, 4, levels), {{0, 1, 1000000}, {2, 3, 1000000}}, 4, {.model = "staircase"});
  BOOST_TEST(r.ranks[1].recv_time == 2e-6 + 2e6 / 16e9, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[0].total_time == r.ranks[1].recv_time, tt::tolerance(1e-12));  // rendezvous sender
}

BOOST_AUTO_TEST_CASE(staircase_shows_a_dragonfly_global_link_bottleneck) {
  // Two groups joined by one 1 GB/s global link: nodes 0 and 1 (group 0)
  // each send 1 MB to nodes 2 and 3 (group 1). The receiving groups would
  // give each flow 10 GB/s; the global link gives 0.5 GB/s each.
  const std::string network =
      "{topology: dragonfly+, groups: 2, leaves_per_group: 1, spines_per_group: 1, nodes_per_leaf: 2, global_links: 1, "
      "node_link_bandwidth: 100GB/s, local_link_bandwidth: 100GB/s, global_link_bandwidth: 1GB/s}";
  const auto r = run_pattern(platform_yaml(4, 1, 1, kTenGigabyteLevels, network, "{bandwidth: 100GB/s}"),
                             {{0, 2, 1000000}, {1, 3, 1000000}}, 4, {.model = "staircase"});
  BOOST_TEST(r.ranks[2].recv_time == 2e-3, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[3].recv_time == 2e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(staircase_sequential_levels_option) {
  // Platform option levels: sequential (eq. (18)): rank 0 receives 1 MB
  // from node 1, then 1 MB from rank 1 on its socket.
  const auto platform = platform_yaml(2, 1, 2, kTenGigabyteLevels) + "models:\n  staircase: {levels: sequential}\n";
  const auto r = run_pattern(platform, {{2, 0, 1000000}, {1, 0, 1000000}}, 4, {.model = "staircase"});
  BOOST_TEST(r.ranks[0].recv_time == 2e-4, tt::tolerance(1e-12));
}
