// The flow-cut model's conflict rules (Martinasso & Mehaut RR-5910 Sec. 5,
// R1-R3) on the paper's own examples, and its incremental updates against a
// from-scratch evaluation.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <map>
#include <random>
#include <tuple>

#include "models/flowcut/conflict_graph.hpp"
#include "models/flowcut/cut_table.hpp"
#include "sim/core/error.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using Conflict = ConflictGraph::Conflict;
namespace tt = boost::test_tools;

namespace {

// Every entry distinct, so that each test sees which rule applied.
FlowCutTable test_table() {
  FlowCutTable t;
  t.odd_conflicts = {1.0};
  t.even_conflicts = {0.5, 2.0};
  t.incoming = 0.1;
  t.outgoing = 3.0;
  t.include = 0.5;
  t.start_end = 0.25;
  return t;
}

// Flows given as (src node, dst node), added in order (ids 0, 1, ...).
struct Pattern {
  ConflictGraph graph{test_table()};
  explicit Pattern(const std::vector<std::pair<int, int>>& flows) {
    for (std::size_t i = 0; i < flows.size(); ++i) {
      graph.add(static_cast<ConflictGraph::FlowId>(i), flows[i].first, flows[i].second, i);
    }
    graph.update();
  }
  double cut(int id) const { return graph.cut(static_cast<ConflictGraph::FlowId>(id)); }
  Conflict conflict(int id) const { return graph.conflict(static_cast<ConflictGraph::FlowId>(id)); }
};

FlowCutTable parse(const std::string& yaml) {
  return parse_flowcut_table(YamlField::load_string(yaml, "p.yaml").child("flowcut"));
}

std::string parse_error(const std::string& yaml) {
  return test::error_message([&] { parse(yaml); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(flowcut_rules)

BOOST_AUTO_TEST_CASE(a_flow_alone_has_no_conflict) {
  Pattern p({{0, 1}, {2, 3}});
  BOOST_TEST(p.cut(0) == 0.0);
  BOOST_TEST((p.conflict(1) == Conflict::None));
}

BOOST_AUTO_TEST_CASE(chain_is_paired_from_its_origin) {
  // Sec. 5.2: 0 -> 1 -> 2 -> 3 splits into 0 -> 1 -> 2 & 2 -> 3.
  Pattern p({{0, 1}, {1, 2}, {2, 3}});
  BOOST_TEST((p.conflict(0) == Conflict::Incoming));
  BOOST_TEST((p.conflict(1) == Conflict::Outgoing));
  BOOST_TEST(p.cut(1) == 3.0);
  BOOST_TEST((p.conflict(2) == Conflict::AloneStartEnd));
  BOOST_TEST(p.cut(2) == 0.25);
}

BOOST_AUTO_TEST_CASE(reversed_chain_is_paired_from_its_origin_too) {
  // 0 <- 1 <- 2 <- 3 becomes 0 <- 1 & 1 <- 2 <- 3: the data leaves 3 first.
  Pattern p({{1, 0}, {2, 1}, {3, 2}});
  BOOST_TEST((p.conflict(2) == Conflict::Incoming));  // 3 -> 2 enters node 2
  BOOST_TEST((p.conflict(1) == Conflict::Outgoing));  // 2 -> 1 leaves it
  BOOST_TEST((p.conflict(0) == Conflict::AloneStartEnd));
}

BOOST_AUTO_TEST_CASE(same_direction_conflicts_dominate_mixed_ones) {
  // 0 -> 1 -> 2 <- 3 <- 4 <- 5 becomes 0 -> 1 & 1 -> 2 <- 3 & 3 <- 4 <- 5.
  Pattern p({{0, 1}, {1, 2}, {3, 2}, {4, 3}, {5, 4}});
  BOOST_TEST((p.conflict(0) == Conflict::AloneStartEnd));
  BOOST_TEST((p.conflict(1) == Conflict::SameDirection));
  BOOST_TEST((p.conflict(2) == Conflict::SameDirection));
  BOOST_TEST(p.cut(1) == 1.0);  // one conflict: odd
  BOOST_TEST(p.cut(2) == 1.0);
  BOOST_TEST((p.conflict(4) == Conflict::Incoming));  // 5 -> 4 enters node 4
  BOOST_TEST((p.conflict(3) == Conflict::Outgoing));  // 4 -> 3 leaves it
}

BOOST_AUTO_TEST_CASE(outgo_and_income_chains_take_their_parity_sequence) {
  // 0 <- 1 -> 2 <- 3: two conflicts (outgo at 1, income at 2), even:
  // (1/2, 2, 1/2) along the chain.
  Pattern even({{1, 0}, {1, 2}, {3, 2}});
  BOOST_TEST(even.cut(0) == 0.5);
  BOOST_TEST(even.cut(1) == 2.0);
  BOOST_TEST(even.cut(2) == 0.5);
  // 0 <- 1 -> 2 <- 3 -> 4: three conflicts, odd: (1, 1, 1, 1).
  Pattern odd({{1, 0}, {1, 2}, {3, 2}, {3, 4}});
  for (int i = 0; i < 4; ++i) BOOST_TEST(odd.cut(i) == 1.0);
}

BOOST_AUTO_TEST_CASE(chain_sequence_starts_at_the_earliest_end) {
  FlowCutTable t = test_table();
  t.odd_conflicts = {0.5, 2.0};  // one conflict, two flows: who gets which
  ConflictGraph g(t);
  g.add(0, 1, 0, 7);  // started second
  g.add(1, 1, 2, 3);  // started first
  g.update();
  BOOST_TEST(g.cut(1) == 0.5);
  BOOST_TEST(g.cut(0) == 2.0);
}

BOOST_AUTO_TEST_CASE(three_flows_in_one_direction_share_evenly) {
  Pattern p({{0, 1}, {0, 2}, {0, 3}});
  for (int i = 0; i < 3; ++i) {
    BOOST_TEST(p.cut(i) == 2.0);
    BOOST_TEST((p.conflict(i) == Conflict::SameDirection));
  }
}

BOOST_AUTO_TEST_CASE(lone_flow_between_conflicts_is_included) {
  // 0 <- 1 -> 2 -> 3 -> 4 <- 5: outgo at 1 and income at 4 dominate; 2 -> 3
  // is left alone with other flows at both its ends (Table 2, "C-> Include").
  Pattern p({{1, 0}, {1, 2}, {2, 3}, {3, 4}, {5, 4}});
  BOOST_TEST((p.conflict(2) == Conflict::AloneInclude));
  BOOST_TEST(p.cut(2) == 0.5);
}

BOOST_AUTO_TEST_CASE(opposite_flows_between_two_nodes_form_one_mixed_conflict) {
  // Table 4 mapping B, step 3: 0 -> 1 and 1 -> 0 (a cycle of two).
  Pattern p({{0, 1}, {1, 0}});
  BOOST_TEST((p.conflict(0) == Conflict::Incoming));  // earliest flow starts the pairing
  BOOST_TEST((p.conflict(1) == Conflict::Outgoing));
  // A ring of four: two pairs.
  Pattern ring({{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  BOOST_TEST(ring.cut(0) == 0.1);
  BOOST_TEST(ring.cut(1) == 3.0);
  BOOST_TEST(ring.cut(2) == 0.1);
  BOOST_TEST(ring.cut(3) == 3.0);
}

BOOST_AUTO_TEST_CASE(update_reports_only_what_changed) {
  ConflictGraph g(test_table());
  g.add(0, 0, 1, 0);
  g.add(1, 2, 3, 1);
  g.update();
  g.add(2, 1, 4, 2);  // touches flow 0 only
  const auto& changed = g.update();
  BOOST_TEST(changed.size() == 2u);
  BOOST_TEST(g.cut(2) == 3.0);
  g.remove(0);
  g.update();
  BOOST_TEST((g.conflict(2) == Conflict::None));
}

BOOST_AUTO_TEST_CASE(crowded_pairs_change_as_a_whole) {
  // Node 0 sends to 1, 2, 3: a group of three, each pair crowded (cut 2).
  using Ids = std::vector<ConflictGraph::FlowId>;
  auto sorted = [](Ids ids) {
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  ConflictGraph g(test_table());
  for (ConflictGraph::FlowId id = 0; id < 3; ++id) g.add(id, 0, static_cast<int>(id) + 1, id);
  BOOST_TEST(g.update().empty());  // no flow is evaluated on its own
  BOOST_TEST(sorted(g.joined()) == (Ids{0, 1, 2}), tt::per_element());
  BOOST_TEST(g.repriced().size() == 3u);
  BOOST_TEST(g.crowded(1));
  BOOST_TEST(g.cut(1) == 2.0);
  // A fourth flow out of node 0: it joins, and every pair of node 0 takes cut 3.
  g.add(3, 0, 4, 3);
  BOOST_TEST(g.update().empty());
  BOOST_TEST(sorted(g.joined()) == (Ids{3}), tt::per_element());
  BOOST_TEST(g.repriced().size() == 4u);
  for (ConflictGraph::FlowId id = 0; id < 4; ++id) BOOST_TEST(g.pair_cut(g.pair_of(id)) == 3.0);
  // 5 -> 1 makes an income pair at node 1: 0 -> 1 leaves its crowded pair
  // (cut max(1, 3) as a pair chain's flow in a group of four), the others
  // keep theirs (no new cut, nothing repriced).
  g.add(4, 5, 1, 4);
  BOOST_TEST(sorted(g.update()) == (Ids{0, 4}), tt::per_element());
  BOOST_TEST(g.joined().empty());
  BOOST_TEST(g.repriced().empty());
  BOOST_TEST(!g.crowded(0));
  BOOST_TEST(g.cut(0) == 3.0);
  BOOST_TEST(g.cut(4) == 1.0);
  // Down to two flows out of node 0: no crowded pair is left; 0 -> 2,
  // 0 -> 1, 5 -> 1 form an even chain anchored at 0 -> 2 (started first).
  g.remove(3);
  g.remove(2);
  const Ids changed = sorted(g.update());
  BOOST_TEST(std::count(changed.begin(), changed.end(), 1u) == 1);
  BOOST_TEST(!g.crowded(1));
  BOOST_TEST((g.conflict(1) == Conflict::SameDirection));
  BOOST_TEST(g.cut(1) == 0.5);
  BOOST_TEST(g.cut(0) == 2.0);
}

BOOST_AUTO_TEST_CASE(incremental_updates_match_a_fresh_evaluation) {
  // Property: after any sequence of starts and ends, every flow's conflict
  // and cut equal those of a graph built from scratch with the same flows.
  std::mt19937 rng(42);
  std::map<Conflict, int> seen;
  for (int trial = 0; trial < 60; ++trial) {
    const int nodes = 3 + trial % 10;
    const std::size_t cap = 2 + static_cast<std::size_t>(trial) % 14;  // sparse to crowded
    ConflictGraph g(test_table());
    std::map<ConflictGraph::FlowId, std::tuple<int, int, std::uint64_t>> live;
    std::uint64_t order = 0;
    for (int step = 0; step < 120; ++step) {
      if (live.empty() || (live.size() < cap && rng() % 2 == 0)) {
        const int src = static_cast<int>(rng() % static_cast<unsigned>(nodes));
        int dst = static_cast<int>(rng() % static_cast<unsigned>(nodes - 1));
        if (dst >= src) ++dst;
        ConflictGraph::FlowId id = 0;
        while (live.count(id)) ++id;
        g.add(id, src, dst, order);
        live[id] = {src, dst, order++};
      } else {
        auto it = live.begin();
        std::advance(it, static_cast<long>(rng() % live.size()));
        g.remove(it->first);
        live.erase(it);
      }
      if (rng() % 2) continue;  // several changes per update too
      g.update();
      ConflictGraph fresh(test_table());
      for (const auto& [id, f] : live) fresh.add(id, std::get<0>(f), std::get<1>(f), std::get<2>(f));
      fresh.update();
      for (const auto& [id, f] : live) {
        BOOST_TEST_REQUIRE(g.cut(id) == fresh.cut(id), "trial " << trial << " step " << step << " flow " << id);
        BOOST_TEST_REQUIRE((g.conflict(id) == fresh.conflict(id)));
        ++seen[g.conflict(id)];
      }
    }
  }
  BOOST_TEST(seen.size() == 6u);  // every kind of conflict was exercised
}

BOOST_AUTO_TEST_CASE(table_reads_fractions_and_sequences) {
  const auto t = parse(
      "flowcut:\n"
      "  source: Table 2\n"
      "  same_direction: {odd_conflicts: [1], even_conflicts: [3/4, 4/3]}\n"
      "  outgo_income: {incoming: 0, outgoing: 3}\n"
      "  alone: {include: 0.5, start_end: 0}\n");
  BOOST_TEST(t.source == "Table 2");
  BOOST_TEST(t.even_conflicts.size() == 2u);
  BOOST_TEST(t.even_conflicts[1] == 4.0 / 3.0);
  BOOST_TEST(t.outgoing == 3.0);
  BOOST_TEST(t.include == 0.5);
}

BOOST_AUTO_TEST_CASE(table_errors_name_the_place) {
  const std::string base =
      "flowcut:\n"
      "  same_direction: {odd_conflicts: [1], even_conflicts: [1/2, 2]}\n";
  BOOST_TEST(parse_error(base + "  outgo_income: {incoming: 0, outgoing: -3}\n  alone: {include: 0, start_end: 0}\n") ==
             "p.yaml:3:41: flowcut.outgo_income.outgoing: expected a flow cut: a number >= 0 or a fraction such as "
             "3/4, got '-3'");
  BOOST_TEST(parse_error(base + "  outgo_income: {incoming: 0, outgoing: 1/0}\n  alone: {include: 0, start_end: 0}\n")
                 .find("p.yaml:3:41: flowcut.outgo_income.outgoing: expected a flow cut") == 0u);
  BOOST_TEST(parse_error(base + "  alone: {include: 0, start_end: 0}\n") ==
             "p.yaml:2:3: flowcut: missing required key 'outgo_income' (the cuts of the C->X-> conflict)");
  BOOST_TEST(parse_error(base + "  outgo_incme: {}\n").find("did you mean 'outgo_income'") != std::string::npos);
  BOOST_TEST(parse_error("flowcut:\n  same_direction: {odd_conflicts: [], even_conflicts: [1]}\n")
                 .find("p.yaml:2:35: flowcut.same_direction.odd_conflicts: expected a non-empty list") == 0u);
  BOOST_TEST(parse_error("other: 1\n").find("flowcut: the flowcut model needs the flow-cut table") !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
