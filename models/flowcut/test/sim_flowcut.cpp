// The flowcut model (Martinasso & Mehaut RR-5910) against hand-computed times.
// One rank per node; contention-free a 1 MB message takes L + D with
// L = 5 us and D = 1 MB / 100 MB/s = 10 ms. Table: odd (1), even (1/2, 2),
// outgo/income (0, 3), alone include 1/2, start/end 0 (GigaEth / Lam-MPI).
#include <boost/test/unit_test.hpp>

#include "sim/engine/mpi.hpp"
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

std::string cluster(int nodes, int cores = 1, const std::string& models = kTable) {
  const std::string levels = levels_yaml({"1us", "1us", "5us"}, "1KiB", {"500MB/s", "500MB/s", "100MB/s"});
  return star_cluster_yaml(nodes, cores, levels) + models;
}

const RunOptions kFlowcut{.model = "flowcut"};
const RunOptions kFlowcutAttributed{.model = "flowcut", .attribution = true};

}  // namespace

BOOST_AUTO_TEST_CASE(flowcut_lone_messages_follow_the_linear_model) {
  // Sec. 3.2: L + m / Bw across the network; intra-node: tau + m / BW of the level.
  // Ranks 0, 1 on node 0 and 2, 3 on node 1; intra-node flows never conflict.
  const auto r = run_pattern(cluster(2, 2), {{0, 2, MB}, {3, 2, 2 * MB}, {1, 0, 2 * MB}}, 4, kFlowcut);
  BOOST_TEST(duration(r, 0, 2) == L + D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 3, 2) == 1e-6 + 2e6 / 500e6, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 1, 0) == 1e-6 + 2e6 / 500e6, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_outgo_and_income_conflicts_cut_both_flows_by_one) {
  // C<-X-> (1 -> 0, 1 -> 2) and C->X<- (3 -> 5, 4 -> 5): cut 1 each, 2D.
  const auto r = run_pattern(cluster(6), {{1, 0, MB}, {1, 2, MB}, {3, 5, MB}, {4, 5, MB}}, 6, kFlowcut);
  for (auto [s, d] : {std::pair{1, 0}, {1, 2}, {3, 5}, {4, 5}})
    BOOST_TEST(duration(r, s, d) == L + 2 * D, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_outgo_income_cut_three_is_a_rate_of_one_quarter) {
  // Sec. 6.1 with cut (0, 3): f1 = 0 -> 1 ends after D; f2 = 1 -> 2 moved
  // D/4 meanwhile, then the rest alone: 1.75 D (the reading that Table 4
  // needs; the text's "(1 + 1/2) T(NC)" would be cut 1).
  const auto r = run_pattern(cluster(3), {{0, 1, MB}, {1, 2, MB}}, 3, kFlowcut);
  BOOST_TEST(duration(r, 0, 1) == L + D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 1, 2) == L + 1.75 * D, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_even_chain_takes_the_alternating_sequence) {
  // 0 <- 1 -> 2 <- 3: two conflicts, cuts (1/2, 2, 1/2). The ends move at
  // 2/3 and end at 1.5 D; the middle one moved D/2 by then, ends at 2 D.
  const auto r = run_pattern(cluster(4), {{1, 0, MB}, {1, 2, MB}, {3, 2, MB}}, 4, kFlowcut);
  BOOST_TEST(duration(r, 1, 0) == L + 1.5 * D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 3, 2) == L + 1.5 * D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 1, 2) == L + 2 * D, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_conflicts_follow_starts_and_ends) {
  // Sec. 5.3: 0 -> 1 alone for D/2, then with 2 -> 1 (income, cut 1) until
  // it ends at L + 1.5 D; 2 -> 1 moved half its data, the rest alone.
  const auto r = run_pattern(cluster(3), {{0, 1, MB}, {2, 1, MB, D / 2}}, 3, kFlowcut);
  BOOST_TEST(duration(r, 0, 1) == L + 1.5 * D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 2, 1) == L + 1.5 * D, tt::tolerance(1e-12));
  BOOST_TEST(messages_between(r, 2, 1)[0].end == L + 2 * D, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_reused_transfer_ids_ignore_old_events) {
  // 0 -> 1 (1 MB) and 2 -> 1 (0.5 MB) share node 1 (cut 1) until L + D;
  // 0 -> 1 then speeds up and ends at L + 1.5 D, leaving its planned end at
  // L + 2 D behind (under 4 -> 5, alone until L + 1.8 D). Rank 0's next
  // message (a new flow on the recycled transfer id) must not end there:
  // alone, it takes L + D.
  ScriptWorkload w(6, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.send(1, MB);
      mpi.send(3, MB);
    }
    if (mpi.rank() == 1) {
      auto a = mpi.irecv(0, MB);
      auto b = mpi.irecv(2, MB / 2);
      mpi.waitall({a, b});
    }
    if (mpi.rank() == 2) mpi.send(1, MB / 2);
    if (mpi.rank() == 3) mpi.recv(0, MB);
    if (mpi.rank() == 4) mpi.send(5, 18 * MB / 10);
    if (mpi.rank() == 5) mpi.recv(4, 18 * MB / 10);
  });
  const auto r = run(cluster(6), w, kFlowcut);
  BOOST_TEST(messages_between(r, 0, 1)[0].end == L + 1.5 * D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 0, 3) == L + D, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_lone_flow_between_conflicts_is_included) {
  // 0 <- 1 -> 2 -> 3 -> 4 <- 5: outgo at 1 and income at 4 (cut 1: 2D);
  // 2 -> 3 alone between them, "C-> Include" cut 1/2: it moves at 2/3 of
  // its rate and ends at 1.5 D, before they do.
  const auto r = run_pattern(cluster(6), {{1, 0, MB}, {1, 2, MB}, {2, 3, MB}, {3, 4, MB}, {5, 4, MB}}, 6, kFlowcut);
  BOOST_TEST(duration(r, 2, 3) == L + 1.5 * D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 1, 2) == L + 2 * D, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_crowded_group_shrinks_to_a_pair_then_a_lone_flow) {
  // Node 0 sends 1, 2, 3 and 4 MB to nodes 1-4. Four flows out of one node:
  // cut 3, each at 1/4 until the first ends at 4 D (all moved D); three: cut
  // 2, 1/3, the second ends 3 D later (7 D); two: an outgo pair (cut 1),
  // the third ends 2 D later (9 D); the last moves its last MB alone (10 D).
  const auto r = run_pattern(cluster(5), {{0, 1, MB}, {0, 2, 2 * MB}, {0, 3, 3 * MB}, {0, 4, 4 * MB}}, 5, kFlowcut);
  BOOST_TEST(duration(r, 0, 1) == L + 4 * D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 0, 2) == L + 7 * D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 0, 3) == L + 9 * D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 0, 4) == L + 10 * D, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_flow_joining_a_crowded_group_slows_it_down) {
  // Three 2 MB flows out of node 0 (cut 2, 1/3 each) have moved 1 MB at
  // L + 3 D, when a fourth of 1 MB joins (posted at 3 D): cut 3, 1/4 each,
  // all four end together at L + 7 D.
  const auto r =
      run_pattern(cluster(5), {{0, 1, 2 * MB}, {0, 2, 2 * MB}, {0, 3, 2 * MB}, {0, 4, MB, 3 * D}}, 5, kFlowcut);
  for (int dst = 1; dst <= 4; ++dst) BOOST_TEST(messages_between(r, 0, dst)[0].end == L + 7 * D, tt::tolerance(1e-12));
  BOOST_TEST(duration(r, 0, 4) == L + 4 * D, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(flowcut_needs_its_table) {
  ScriptWorkload w(2, [](Mpi&) {});
  const std::string error = run_error(cluster(2, 1, "models: {maxmin: {}}\n"), w, kFlowcut);
  BOOST_TEST(error.find("test.yaml") == 0u);
  BOOST_TEST(error.find("models.flowcut: the flowcut model needs the flow-cut table") != std::string::npos);
}

// Attribution (docs/explain.md): what bounded each flow, interval by interval.

BOOST_AUTO_TEST_CASE(flowcut_attribution_chain_cuts_the_outgoing_flow_at_the_middle_node) {
  // 0 -> 1 -> 2 (Sec. 6.1): 0 -> 1 is the incoming side of C->X-> at node 1
  // with cut 0: the network's bandwidth bounds it all along. 1 -> 2 is the
  // outgoing side, cut 3: Bw/4 until 0 -> 1 ends at L + D, then alone
  // (0.75 D at Bw).
  const auto r = run_pattern(cluster(3), {{0, 1, MB}, {1, 2, MB}}, 3, kFlowcutAttributed);
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
  const auto r = run_pattern(cluster(3), {{0, 2, MB}, {1, 2, MB}}, 3, kFlowcutAttributed);
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

// Timeline counter tracks: the flows leaving (outgo) and entering (income)
// each node, hand-computed.
BOOST_AUTO_TEST_CASE(flowcut_loads_outgo_income_at_the_middle_node) {
  // 0 -> 1 -> 2 (C->X-> at node 1, cuts 0 and 3): node 1 has one flow in
  // and one out from L on; the incoming one ends at L + D, the outgoing one
  // (D/4 moved meanwhile) at L + 1.75 D.
  const auto r = run_pattern(cluster(3), {{0, 1, MB}, {1, 2, MB}}, 3, RunOptions{.model = "flowcut", .timeline = true});
  check_load_samples(r, "flowcut:outgo@node0", {{L, 1}, {L + D, 0}}, 1e-12);
  check_load_samples(r, "flowcut:income@node1", {{L, 1}, {L + D, 0}}, 1e-12);
  check_load_samples(r, "flowcut:outgo@node1", {{L, 1}, {L + 1.75 * D, 0}}, 1e-12);
  check_load_samples(r, "flowcut:income@node2", {{L, 1}, {L + 1.75 * D, 0}}, 1e-12);
  BOOST_TEST(r.timeline.resources().size() == 4u);
}

BOOST_AUTO_TEST_CASE(flowcut_loads_two_flows_into_one_node) {
  // C->X<- (0 -> 2, 1 -> 2 at once): node 2's income holds both (cut 1,
  // Bw/2 each: 2 D), then none.
  const auto r = run_pattern(cluster(3), {{0, 2, MB}, {1, 2, MB}}, 3, RunOptions{.model = "flowcut", .timeline = true});
  check_load_samples(r, "flowcut:income@node2", {{L, 2}, {L + 2 * D, 0}}, 1e-12);
}
