// The staircase's sending side (models/staircase/README.md, "The sending
// side"), a departure from Thune et al.: each sending node's BW_MP(n_s) is
// shared too, max-min between node pairs with the receiving nodes. Hand-computed with the
// levels of staircase_levels.hpp (no latency, every message rendezvous,
// inter-node BW_MP(1) = 10 GB/s, BW_MP(2) = 12 GB/s).
#include <boost/test/unit_test.hpp>
#include <sstream>

#include "models/staircase/test/staircase_levels.hpp"
#include "sim/engine/worker_pool.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

constexpr std::uint64_t MB = 1000000;

// `nodes` nodes of `cores` cores, the sending side on or off.
std::string cluster(int nodes, int cores, bool sender_side) {
  return platform_yaml(nodes, 1, cores, kStaircaseLevels) +
         "models:\n  staircase: {sender_nic: " + (sender_side ? "true" : "false") + "}\n";
}

// Every message's end and every rank's times, printed exactly, from a child
// process (one SimGrid engine per process).
std::string outcome(const std::string& platform, const std::vector<PatternMessage>& messages, int ranks) {
  return run_in_child_process([&] {
    const Results r = run_pattern(platform, messages, ranks, {.model = "staircase"});
    std::ostringstream out;
    out.precision(17);
    for (int src = 0; src < ranks; ++src) {
      for (int dst = 0; dst < ranks; ++dst) {
        for (const auto& m : messages_between(r, src, dst)) out << src << ' ' << dst << ' ' << m.end << '\n';
      }
    }
    for (const auto& rank : r.ranks) out << rank.send_time << ' ' << rank.recv_time << ' ' << rank.total_time << '\n';
    return out.str();
  });
}

// Every rank sends `bytes` to every rank of the other nodes.
std::vector<PatternMessage> all_to_all_between_nodes(int nodes, int cores, std::uint64_t bytes) {
  std::vector<PatternMessage> out;
  for (int src = 0; src < nodes * cores; ++src) {
    for (int dst = 0; dst < nodes * cores; ++dst) {
      if (src / cores != dst / cores) out.push_back({src, dst, bytes});
    }
  }
  return out;
}

}  // namespace

// Rank 0 (node 0) sends 1 MB to each of nodes 1, 2, 3. Alone a message
// takes 1 MB / BW_MP(1) = 100 us; the three share rank 0's BW_MP(1)/1, so
// each takes 300 us: 3x one flow. The published model (each receiving node
// alone) would say 100 us.
BOOST_AUTO_TEST_CASE(staircase_fan_out_of_three_takes_three_times_one_flow) {
  const std::vector<PatternMessage> fan_out = {{0, 1, MB}, {0, 2, MB}, {0, 3, MB}};
  const Results r = run_pattern(cluster(4, 1, true), fan_out, 4, {.model = "staircase"});
  for (int dst = 1; dst <= 3; ++dst) BOOST_TEST(duration(r, 0, dst) == 3e-4, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[0].send_time == 3e-4, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(staircase_fan_out_without_the_sender_side_is_the_paper) {
  const std::vector<PatternMessage> fan_out = {{0, 1, MB}, {0, 2, MB}, {0, 3, MB}};
  const Results r = run_pattern(cluster(4, 1, false), fan_out, 4, {.model = "staircase"});
  for (int dst = 1; dst <= 3; ++dst) BOOST_TEST(duration(r, 0, dst) == 1e-4, tt::tolerance(1e-12));
}

// Nodes 1, 2, 3 each send 1 MB to rank 0: the receiving process splits
// BW_MP(1) over 3 messages (eq. (9)), 300 us each, with or without the
// sending side (each sender alone has BW_MP(1) for its one message).
BOOST_AUTO_TEST_CASE(staircase_fan_in_is_unchanged_by_the_sender_side) {
  const std::vector<PatternMessage> fan_in = {{1, 0, MB}, {2, 0, MB}, {3, 0, MB}};
  const std::string with = outcome(cluster(4, 1, true), fan_in, 4);
  BOOST_TEST(with == outcome(cluster(4, 1, false), fan_in, 4));
  const Results r = run_pattern(cluster(4, 1, true), fan_in, 4, {.model = "staircase"});
  for (int src = 1; src <= 3; ++src) BOOST_TEST(duration(r, src, 0) == 3e-4, tt::tolerance(1e-12));
}

// Symmetric exchanges, both sides equally loaded (the paper's experiments):
// bit-identical with and without the sending side.
BOOST_AUTO_TEST_CASE(staircase_symmetric_all_to_all_is_unchanged_by_the_sender_side) {
  for (const auto& [nodes, cores] : {std::pair{2, 1}, {2, 2}, {3, 2}, {4, 4}}) {
    BOOST_TEST_CONTEXT(nodes << " nodes x " << cores << " cores") {
      const auto messages = all_to_all_between_nodes(nodes, cores, MB);
      BOOST_TEST(outcome(cluster(nodes, cores, true), messages, nodes * cores) ==
                 outcome(cluster(nodes, cores, false), messages, nodes * cores));
    }
  }
  // A ring of nodes: every rank sends to its peer on the next node.
  std::vector<PatternMessage> ring;
  for (int r = 0; r < 8; ++r) ring.push_back({r, (r + 2) % 8, 3 * MB});
  BOOST_TEST(outcome(cluster(4, 2, true), ring, 8) == outcome(cluster(4, 2, false), ring, 8));
}

// Two senders on node 0 (ranks 0, 1) make n_s = 2: the node sends BW_MP(2)
// = 12 GB/s in all, shared max-min between its node pairs in proportion to
// their receiving-side rates. Rank 0 sends 1 MB to node 1 and 1 MB to node
// 2, rank 1 1 MB to node 3, each receiver alone on its node (10 GB/s): x =
// 12 / 30 = 0.4, 4 GB/s each, and the three end together at 250 us. (Per
// sending process, 6 GB/s each, rank 1's message would end first.)
BOOST_AUTO_TEST_CASE(staircase_senders_of_a_node_share_its_bw_mp) {
  const std::vector<PatternMessage> messages = {{0, 2, MB}, {0, 4, MB}, {1, 6, MB}};
  const Results r = run_pattern(cluster(4, 2, true), messages, 8, {.model = "staircase"});
  for (const auto& [src, dst] : {std::pair{1, 6}, {0, 2}, {0, 4}}) {
    BOOST_TEST(duration(r, src, dst) == 1e6 / 4e9, tt::tolerance(1e-12));
  }
}

// Work conservation: capacity the sending side leaves unused at a
// receiving node goes to the node's other pairs. Rank 0 (node 0) fans out
// 1 MB to ranks 2, 4, 6 (nodes 1, 2, 3); rank 7 (node 3) sends 1 MB to
// rank 2 too. Receiving side: rank 2 has 2 messages, 5 GB/s each; ranks 4
// and 6 10 GB/s. Node 0 sends at most BW_MP(1) = 10 GB/s against a load of
// 25: x = 0.4, so 2, 4, 4 GB/s. Node 1 then has 10 - 2 = 8 GB/s left for
// the pair from node 3 (x = 1.6, below node 3's own 10 / 5 = 2): 7 -> 2
// moves at 8 GB/s, not at its 5 GB/s staircase share, and ends at 125 us.
// Then node 0 alone sends to three receivers alone (x = 1/3, 10/3 GB/s
// each): 4 and 6 had 0.5 MB left, 150 us more (275 us); 2 had 0.75 MB, then
// 0.25 MB alone at 10 GB/s, 25 us more: 300 us, rank 0's 3 MB at 10 GB/s.
BOOST_AUTO_TEST_CASE(staircase_sending_side_is_work_conserving) {
  const std::vector<PatternMessage> messages = {{0, 2, MB}, {0, 4, MB}, {0, 6, MB}, {7, 2, MB}};
  // The published model (in a child process: one engine per process): 7 -> 2
  // and 0 -> 2 at 5 GB/s each (200 us), 4 and 6 at 10 GB/s (100 us).
  const auto paper = run_in_child_process([&] {
    const Results p = run_pattern(cluster(4, 2, false), messages, 8, {.model = "staircase"});
    std::ostringstream out;
    out << duration(p, 7, 2) * 1e6 << ' ' << duration(p, 0, 4) * 1e6;
    return out.str();
  });
  BOOST_TEST(paper == "200 100");
  const Results r = run_pattern(cluster(4, 2, true), messages, 8, {.model = "staircase"});
  BOOST_TEST(duration(r, 7, 2) == 125e-6, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 0, 4) == 275e-6, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 0, 6) == 275e-6, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 0, 2) == 300e-6, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(staircase_sender_side_attribution_names_the_sending_node) {
  const Results r = run_pattern(cluster(4, 1, true), {{0, 1, MB}, {0, 2, MB}, {0, 3, MB}}, 4,
                                {.model = "staircase", .attribution = true});
  const auto& m = attribution_of(r, 0, 1);
  BOOST_TEST_INFO(describe_intervals(m));
  BOOST_TEST_REQUIRE(!m.intervals.empty());
  BOOST_TEST(m.intervals.back().resource == "staircase:node0/out(N=1)");
  BOOST_TEST(m.limited_by() == "staircase:node0/out(N=1)");
  BOOST_TEST(m.slowdown() == 3.0, tt::tolerance(1e-12));
}
