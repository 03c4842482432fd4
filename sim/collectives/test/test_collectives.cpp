// Collectives without a simulation: Open MPI's virtual trees, segmentation,
// the fixed decision rules, --coll parsing, communicator derivation.
#include <boost/test/unit_test.hpp>

#include "sim/collectives/collectives.hpp"
#include "sim/collectives/context.hpp"
#include "sim/collectives/decision.hpp"
#include "sim/collectives/topology.hpp"
#include "sim/core/error.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using namespace contend::coll;

namespace {

std::vector<int> children(const TreeNode& n) { return n.children; }

std::string alg(CollectiveOp op, int procs, std::uint64_t bytes, bool commutative = true) {
  const FixedDecision d = ompi41_fixed_decision(op, procs, bytes, bytes, commutative);
  return algorithm_names(op).at(static_cast<std::size_t>(d.algorithm_id - 1));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collective_trees)

// Trees as Open MPI v4.1 builds them (ompi/mca/coll/base/coll_base_topo.c).
BOOST_AUTO_TEST_CASE(binary_tree_of_seven) {
  BOOST_TEST(children(build_tree(2, 7, 0, 0)) == (std::vector<int>{1, 2}));
  BOOST_TEST(children(build_tree(2, 7, 0, 1)) == (std::vector<int>{3, 5}));
  BOOST_TEST(children(build_tree(2, 7, 0, 2)) == (std::vector<int>{4, 6}));
  BOOST_TEST(children(build_tree(2, 7, 0, 3)).empty());
  BOOST_TEST(build_tree(2, 7, 0, 5).parent == 1);
  BOOST_TEST(build_tree(2, 7, 0, 6).parent == 2);
  BOOST_TEST(build_tree(2, 7, 0, 0).parent == -1);
  // Around root 3: shifted ranks map back with (v + 3) % 7.
  BOOST_TEST(children(build_tree(2, 7, 3, 4)) == (std::vector<int>{6, 1}));
  BOOST_TEST(build_tree(2, 7, 3, 1).parent == 4);
}

BOOST_AUTO_TEST_CASE(binomial_tree_of_eight) {
  // Children by increasing mask above the node's own highest bit.
  BOOST_TEST(children(build_bmtree(8, 0, 0)) == (std::vector<int>{1, 2, 4}));
  BOOST_TEST(children(build_bmtree(8, 0, 1)) == (std::vector<int>{3, 5}));
  BOOST_TEST(children(build_bmtree(8, 0, 2)) == (std::vector<int>{6}));
  BOOST_TEST(children(build_bmtree(8, 0, 3)) == (std::vector<int>{7}));
  BOOST_TEST(children(build_bmtree(8, 0, 4)).empty());
  BOOST_TEST(build_bmtree(8, 0, 7).parent == 3);
  BOOST_TEST(build_bmtree(8, 0, 5).parent == 1);
  BOOST_TEST(build_bmtree(8, 0, 6).parent == 2);
  BOOST_TEST(children(build_bmtree(6, 0, 1)) == (std::vector<int>{3, 5}));
  BOOST_TEST(children(build_bmtree(6, 0, 2)).empty());  // 2^4 = 6 is out of range
}

BOOST_AUTO_TEST_CASE(in_order_binomial_tree_of_eight) {
  BOOST_TEST(children(build_in_order_bmtree(8, 0, 0)) == (std::vector<int>{1, 2, 4}));
  BOOST_TEST(children(build_in_order_bmtree(8, 0, 2)) == (std::vector<int>{3}));
  BOOST_TEST(children(build_in_order_bmtree(8, 0, 4)) == (std::vector<int>{5, 6}));
  BOOST_TEST(children(build_in_order_bmtree(8, 0, 6)) == (std::vector<int>{7}));
  BOOST_TEST(build_in_order_bmtree(8, 0, 6).parent == 4);
  BOOST_TEST(build_in_order_bmtree(8, 0, 3).parent == 2);
  BOOST_TEST(build_in_order_bmtree(8, 2, 2).parent == -1);
  BOOST_TEST(children(build_in_order_bmtree(8, 2, 2)) == (std::vector<int>{3, 4, 6}));
}

BOOST_AUTO_TEST_CASE(knomial_tree_of_ten_radix_four) {
  BOOST_TEST(children(build_kmtree(10, 0, 0, 4)) == (std::vector<int>{4, 8, 1, 2, 3}));
  BOOST_TEST(children(build_kmtree(10, 0, 4, 4)) == (std::vector<int>{5, 6, 7}));
  BOOST_TEST(children(build_kmtree(10, 0, 8, 4)) == (std::vector<int>{9}));
  BOOST_TEST(build_kmtree(10, 0, 9, 4).parent == 8);
  BOOST_TEST(build_kmtree(10, 0, 6, 4).parent == 4);
  BOOST_TEST(build_kmtree(10, 0, 3, 4).parent == 0);
}

BOOST_AUTO_TEST_CASE(chains) {
  // Size 10, fanout 4: 9 non-roots in chains of 3, 2, 2, 2.
  BOOST_TEST(children(build_chain(4, 10, 0, 0)) == (std::vector<int>{1, 4, 6, 8}));
  BOOST_TEST(children(build_chain(4, 10, 0, 1)) == (std::vector<int>{2}));
  BOOST_TEST(children(build_chain(4, 10, 0, 2)) == (std::vector<int>{3}));
  BOOST_TEST(children(build_chain(4, 10, 0, 3)).empty());
  BOOST_TEST(build_chain(4, 10, 0, 4).parent == 0);
  BOOST_TEST(build_chain(4, 10, 0, 5).parent == 4);
  BOOST_TEST(children(build_chain(4, 10, 0, 5)).empty());
  BOOST_TEST(children(build_chain(4, 10, 0, 9)).empty());
  BOOST_TEST(build_chain(4, 10, 0, 9).parent == 8);
  // Fanout 1 (pipeline) around root 2 of 4: 2 -> 3 -> 0 -> 1.
  BOOST_TEST(children(build_chain(1, 4, 2, 2)) == (std::vector<int>{3}));
  BOOST_TEST(children(build_chain(1, 4, 2, 0)) == (std::vector<int>{1}));
  BOOST_TEST(children(build_chain(1, 4, 2, 1)).empty());
  // Fanouts are clamped to 1..min(32, size-1): 0 behaves as 1.
  BOOST_TEST(children(build_chain(0, 5, 0, 0)) == (std::vector<int>{1}));
  BOOST_TEST(children(build_chain(8, 3, 0, 0)) == (std::vector<int>{1, 2}));
}

BOOST_AUTO_TEST_CASE(in_order_binary_tree_is_rooted_at_the_last_rank) {
  // Size 7: root 6 with left child 5 and right child 2.
  BOOST_TEST(children(build_in_order_bintree(7, 6)) == (std::vector<int>{5, 2}));
  BOOST_TEST(build_in_order_bintree(7, 5).parent == 6);
  BOOST_TEST(build_in_order_bintree(7, 2).parent == 6);
  BOOST_TEST(children(build_in_order_bintree(7, 2)) == (std::vector<int>{1, 0}));
  BOOST_TEST(children(build_in_order_bintree(7, 5)) == (std::vector<int>{4, 3}));
}

// Every builder gives a spanning tree: each non-root's parent lists it as a child.
BOOST_AUTO_TEST_CASE(every_tree_spans_its_communicator) {
  for (int size = 1; size <= 40; ++size) {
    for (int root : {0, size / 2, size - 1}) {
      std::vector<std::function<TreeNode(int)>> builders = {
          [&](int r) { return build_tree(2, size, root, r); },
          [&](int r) { return build_tree(3, size, root, r); },
          [&](int r) { return build_bmtree(size, root, r); },
          [&](int r) { return build_in_order_bmtree(size, root, r); },
          [&](int r) { return build_kmtree(size, root, r, 4); },
          [&](int r) { return build_kmtree(size, root, r, 3); },
          [&](int r) { return build_chain(1, size, root, r); },
          [&](int r) { return build_chain(4, size, root, r); },
      };
      for (const auto& build : builders) {
        int edges = 0;
        for (int r = 0; r < size; ++r) {
          const TreeNode n = build(r);
          if (r == root) {
            BOOST_TEST(n.parent == -1);
          } else {
            const auto siblings = build(n.parent).children;
            BOOST_TEST((std::count(siblings.begin(), siblings.end(), r) == 1), "size " << size << " rank " << r);
          }
          edges += static_cast<int>(n.children.size());
        }
        BOOST_TEST(edges == size - 1);
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(collective_segmentation)

BOOST_AUTO_TEST_CASE(segment_counts_round_to_the_nearest_element) {
  BOOST_TEST(segment_count(8192, 8, 1000000) == 1024u);
  BOOST_TEST(segment_count(0, 8, 1000) == 1000u);     // no segmentation
  BOOST_TEST(segment_count(8192, 8, 1024) == 1024u);  // a segment as large as the message
  BOOST_TEST(segment_count(4, 8, 1000) == 1000u);     // smaller than an element
  BOOST_TEST(segment_count(1000, 3, 10000) == 333u);  // remainder 1 <= 3/2
  BOOST_TEST(segment_count(1001, 3, 10000) == 334u);  // remainder 2 > 3/2
  BOOST_TEST(segments_of(1000000, 1024) == 977u);
  BOOST_TEST(segments_of(1024, 1024) == 1u);
}

BOOST_AUTO_TEST_CASE(block_splits_put_the_remainder_first) {
  const BlockSplit b = split_blocks(10, 4);
  BOOST_TEST(b.early == 3u);
  BOOST_TEST(b.late == 2u);
  BOOST_TEST(b.count_of(1) == 3u);
  BOOST_TEST(b.count_of(2) == 2u);
  BOOST_TEST(b.offset_of(3) == 8u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(collective_decisions)

// Rows of coll_tuned_decision_fixed.c (v4.1.6), at and around thresholds.
BOOST_AUTO_TEST_CASE(bcast_rows) {
  BOOST_TEST(alg(CollectiveOp::bcast, 2, 31) == "pipeline");
  BOOST_TEST(alg(CollectiveOp::bcast, 2, 32) == "binary");
  BOOST_TEST(alg(CollectiveOp::bcast, 3, 1023) == "knomial");
  BOOST_TEST(alg(CollectiveOp::bcast, 3, 200000) == "chain");
  BOOST_TEST(alg(CollectiveOp::bcast, 3, 2000000) == "binary");
  BOOST_TEST(alg(CollectiveOp::bcast, 4, 64) == "binomial");
  BOOST_TEST(alg(CollectiveOp::bcast, 7, 1048576) == "chain");
  BOOST_TEST(alg(CollectiveOp::bcast, 8, 7) == "knomial");
  BOOST_TEST(alg(CollectiveOp::bcast, 15, 40000) == "linear");
  BOOST_TEST(alg(CollectiveOp::bcast, 16, 4095) == "knomial");
  BOOST_TEST(alg(CollectiveOp::bcast, 16, 1048576) == "scatter_allgather");
  BOOST_TEST(alg(CollectiveOp::bcast, 63, 2048) == "knomial");
  BOOST_TEST(alg(CollectiveOp::bcast, 100, 1) == "knomial");
  BOOST_TEST(alg(CollectiveOp::bcast, 200, 1) == "binomial");
  BOOST_TEST(alg(CollectiveOp::bcast, 200, 20000) == "linear");
  BOOST_TEST(alg(CollectiveOp::bcast, 500, 20000) == "split_binary");
  BOOST_TEST(alg(CollectiveOp::bcast, 1500, 524288) == "scatter_allgather");
  BOOST_TEST(alg(CollectiveOp::bcast, 5000, 10000) == "binary");
  BOOST_TEST(ompi41_fixed_decision(CollectiveOp::bcast, 16, 1 << 20, 1 << 20, true).segment_bytes == 0u);
}

BOOST_AUTO_TEST_CASE(reduce_and_allreduce_rows) {
  BOOST_TEST(alg(CollectiveOp::reduce, 2, 7) == "rabenseifner");
  BOOST_TEST(alg(CollectiveOp::reduce, 3, 100000) == "linear");
  BOOST_TEST(alg(CollectiveOp::reduce, 5, 100000) == "binomial");
  BOOST_TEST(alg(CollectiveOp::reduce, 300, 10000) == "in_order_binary");
  BOOST_TEST(alg(CollectiveOp::reduce, 8, 100, false) == "in_order_binary");
  BOOST_TEST(alg(CollectiveOp::reduce, 5, 1000000, false) == "linear");
  BOOST_TEST(alg(CollectiveOp::reduce, 8, 1000000, false) == "in_order_binary");
  BOOST_TEST(alg(CollectiveOp::allreduce, 2, 7) == "ring");
  BOOST_TEST(alg(CollectiveOp::allreduce, 2, 100000) == "segmented_ring");
  BOOST_TEST(alg(CollectiveOp::allreduce, 16, 8192) == "rabenseifner");
  BOOST_TEST(alg(CollectiveOp::allreduce, 200, 1000) == "nonoverlapping");
  BOOST_TEST(alg(CollectiveOp::allreduce, 5000, 10000) == "segmented_ring");
  BOOST_TEST(alg(CollectiveOp::allreduce, 5000, 20000) == "recursive_doubling");
  BOOST_TEST(alg(CollectiveOp::allreduce, 3, 200000, false) == "linear");
  BOOST_TEST(alg(CollectiveOp::allreduce, 20, 2000000, false) == "recursive_doubling");
}

BOOST_AUTO_TEST_CASE(barrier_alltoall_allgather_rows) {
  BOOST_TEST(alg(CollectiveOp::barrier, 3, 0) == "recursive_doubling");
  BOOST_TEST(alg(CollectiveOp::barrier, 5, 0) == "linear");
  BOOST_TEST(alg(CollectiveOp::barrier, 100, 0) == "bruck");
  BOOST_TEST(alg(CollectiveOp::barrier, 300, 0) == "tree");
  BOOST_TEST(alg(CollectiveOp::alltoall, 2, 3) == "two_proc");
  BOOST_TEST(alg(CollectiveOp::alltoall, 2, 100000) == "linear_sync");
  BOOST_TEST(alg(CollectiveOp::alltoall, 20, 100) == "modified_bruck");
  BOOST_TEST(alg(CollectiveOp::alltoall, 100, 1000000) == "pairwise");
  BOOST_TEST(alg(CollectiveOp::alltoallv, 3, 0) == "pairwise");
  BOOST_TEST(alg(CollectiveOp::alltoallv, 10, 0) == "linear");
  BOOST_TEST(alg(CollectiveOp::allgather, 2, 100) == "two_proc");
  BOOST_TEST(alg(CollectiveOp::allgather, 31, 100) == "recursive_doubling");
  BOOST_TEST(alg(CollectiveOp::allgather, 40, 2000) == "neighbor");
  BOOST_TEST(alg(CollectiveOp::allgather, 300, 100) == "bruck");
  BOOST_TEST(alg(CollectiveOp::allgatherv, 2, 3000) == "two_proc");
  BOOST_TEST(alg(CollectiveOp::allgatherv, 10, 5000) == "bruck");
}

BOOST_AUTO_TEST_CASE(gather_scatter_reduce_scatter_rows) {
  BOOST_TEST(alg(CollectiveOp::gather, 3, 1) == "linear_sync");
  BOOST_TEST(alg(CollectiveOp::gather, 3, 40000) == "linear");
  BOOST_TEST(alg(CollectiveOp::gather, 100, 1000000) == "binomial");
  BOOST_TEST(alg(CollectiveOp::scatter, 6, 100000) == "linear_nb");
  BOOST_TEST(alg(CollectiveOp::scatter, 100, 100) == "binomial");
  BOOST_TEST(alg(CollectiveOp::reduce_scatter, 3, 100000) == "butterfly");
  BOOST_TEST(alg(CollectiveOp::reduce_scatter, 16, 1000) == "recursive_halving");
  BOOST_TEST(alg(CollectiveOp::reduce_scatter, 16, 1000, false) == "non_overlapping");
  BOOST_TEST(alg(CollectiveOp::gatherv, 16, 1000) == "linear");
}

// Open MPI 3.1's bcast rule (Nuriyev et al. Listing 1) with its segments.
BOOST_AUTO_TEST_CASE(ompi31_bcast_rule) {
  struct Case {
    int procs;
    std::uint64_t bytes, count;
    int algorithm_id;  // 6 binomial, 4 split binary, 3 pipeline
    std::uint64_t segment_bytes;
  };
  const Case cases[] = {
      {16, 1024, 128, 6, 0},
      {16, 8, 1, 6, 0},  // count <= 1
      {16, 65536, 8192, 4, 1024},
      // 4 MiB: 1.6134e-6 * 4194304 + 2.1102 = 8.88: pipeline 128 KiB below 9 ranks.
      {8, 4194304, 524288, 3, 131072},
      {12, 4194304, 524288, 4, 8192},
      // 1 MiB on 16: 16 >= 2.3679e-6*2^20+1.1787 = 3.66; < 3.2118e-6*2^20+8.7936 = 12.16? no -> 8 KiB.
      {16, 1048576, 131072, 3, 8192},
      // 4 MiB on 16: 16 < 3.2118e-6*4194304+8.7936 = 22.26 -> 16 KiB.
      {16, 4194304, 524288, 3, 16384},
      // 16 MiB on 32: 32 < 2.3679e-6*16777216+1.1787 = 40.9 -> 64 KiB.
      {32, 16777216, 2097152, 3, 65536},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.procs << " ranks, " << c.bytes << " B") {
      const FixedDecision d = ompi31_bcast_decision(c.procs, c.bytes, c.count);
      BOOST_TEST(d.algorithm_id == c.algorithm_id);
      BOOST_TEST(d.segment_bytes == c.segment_bytes);
    }
  }
}

BOOST_AUTO_TEST_CASE(forced_algorithms_override_the_rules) {
  CollectiveSettings s;
  apply_coll_option(s, "bcast=chain:8K");
  CollectiveCall call = make_call(CollectiveOp::bcast, 1 << 20);
  AlgorithmChoice c = choose_algorithm(call, 16, s);
  BOOST_TEST(c.algorithm == "chain");
  BOOST_TEST(c.segment_bytes == 8192u);
  BOOST_TEST(c.fanout == 4);  // coll_tuned_bcast_algorithm_chain_fanout default
  BOOST_TEST(c.forced);
  apply_coll_option(s, "bcast=chain:0:2");
  c = choose_algorithm(call, 16, s);
  BOOST_TEST(c.fanout == 2);
  BOOST_TEST(c.segment_bytes == 0u);
  apply_coll_option(s, "bcast=knomial::3");
  BOOST_TEST(choose_algorithm(call, 16, s).fanout == 3);
  apply_coll_option(s, "bcast=6");
  BOOST_TEST(choose_algorithm(call, 16, s).algorithm == "binomial");
  // Unforced chain (fixed rule, 7 ranks, 2 MiB) runs with fanout 1.
  CollectiveSettings fixed;
  call.bytes = 2 << 20;
  c = choose_algorithm(call, 7, fixed);
  BOOST_TEST(c.algorithm == "chain");
  BOOST_TEST(c.fanout == 1);
  fixed.version = OmpiVersion::v3_1;
  c = choose_algorithm(call, 7, fixed);  // 7 >= 1.6134e-6 * 2 MiB + 2.1102, 7 < 13
  BOOST_TEST(c.algorithm == "split_binary");
  BOOST_TEST(c.segment_bytes == 8192u);
  call.bytes = 4 << 20;  // 7 < 1.6134e-6 * 4 MiB + 2.1102 = 8.88
  c = choose_algorithm(call, 7, fixed);
  BOOST_TEST(c.algorithm == "pipeline");
  BOOST_TEST(c.segment_bytes == 131072u);
  BOOST_TEST(describe_choice(call, 7, fixed) ==
             "bcast 4194304 B on 7 ranks: pipeline, 131072 B segments (Open MPI 3.1 fixed rule)");
}

BOOST_AUTO_TEST_CASE(bad_coll_options_are_named) {
  CollectiveSettings s;
  auto message = [&](const char* option) { return test::error_message([&] { apply_coll_option(s, option); }); };
  BOOST_TEST(message("bcast") == "--coll 'bcast': expected OP=ALGORITHM[:SEGSIZE[:FANOUT]], e.g. bcast=chain:8192");
  BOOST_TEST(message("bcast=chain:8K:0") ==
             "--coll 'bcast=chain:8K:0': bad fanout '0'; expected an integer from 1 to 32");
  BOOST_TEST(message("bcast=binary:0:3") ==
             "--coll 'bcast=binary:0:3': a fanout applies to chain and knomial only, not binary");
  BOOST_TEST(message("bcats=chain").find("unknown collective 'bcats' (did you mean 'bcast'?)") == 0u);
  BOOST_TEST(message("bcast=chian").find("unknown bcast algorithm 'chian' (did you mean 'chain'?)") !=
             std::string::npos);
  BOOST_TEST(message("bcast=10").find("bcast algorithm id 10 out of range 1..9") != std::string::npos);
  BOOST_TEST(message("bcast=chain:8Q").find("bad segment size '8Q'") != std::string::npos);
  BOOST_TEST((parse_ompi_version("3.1") == OmpiVersion::v3_1));
  BOOST_TEST((parse_ompi_version("v4.1") == OmpiVersion::v4_1));
  BOOST_CHECK_THROW(parse_ompi_version("5.0"), Error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(collective_communicators)

BOOST_AUTO_TEST_CASE(split_orders_by_key_then_rank_and_agrees_on_contexts) {
  // Six members, colours 0/1 alternating, keys reversing the order.
  const std::vector<ColorKey> ck = {{0, 5}, {1, 4}, {0, 3}, {1, 2}, {0, 1}, {kUndefinedColor, 0}};
  std::vector<Communicator> got;
  ContextRegistry contexts;
  for (int r = 0; r < 6; ++r) {
    Communicator parent;
    parent.context = 0;
    parent.world_ranks = {0, 1, 2, 3, 4, 5};
    parent.local_rank = r;
    const auto c = split_communicator(contexts, parent, ck);
    BOOST_TEST(parent.derived_count == 1);
    if (r == 5) {
      BOOST_TEST(!c.has_value());
      continue;
    }
    BOOST_REQUIRE(c.has_value());
    got.push_back(*c);
  }
  BOOST_TEST(got[0].world_ranks == (std::vector<int>{4, 2, 0}));
  BOOST_TEST(got[0].local_rank == 2);
  BOOST_TEST(got[1].world_ranks == (std::vector<int>{3, 1}));
  BOOST_TEST(got[0].context == got[2].context);
  BOOST_TEST(got[1].context == got[3].context);
  BOOST_TEST(got[0].context != got[1].context);
  BOOST_TEST(got[0].context != 0);
  BOOST_TEST(got[0].local_of_world(2).value_or(-1) == 1);
  BOOST_TEST(!got[0].local_of_world(1).has_value());
}

BOOST_AUTO_TEST_CASE(dups_get_fresh_contexts) {
  Communicator world;
  world.world_ranks = {0, 1};
  ContextRegistry contexts;
  const Communicator a = dup_communicator(contexts, world);
  const Communicator b = dup_communicator(contexts, world);
  BOOST_TEST(a.context != b.context);
  BOOST_TEST(a.world_ranks == world.world_ranks);
  Communicator other_rank = world;  // the same derivation on another member
  other_rank.local_rank = 1;
  other_rank.derived_count = 0;
  BOOST_TEST(dup_communicator(contexts, other_rank).context == a.context);
  BOOST_TEST(collective_tag(CollectiveOp::bcast) < -1);  // never MPI_ANY_TAG nor a user tag
}

BOOST_AUTO_TEST_SUITE_END()
