// tau-Lop: the platform section, Open MPI's broadcast trees, the analytical
// broadcast models of Nuriyev et al. (JPDC 2022, eqs. 1-13) against hand
// computations, and the dynamic transfer model against hand-timed cases.
#include <boost/test/unit_test.hpp>
#include <string>

#include "models/taulop/bcast_models.hpp"
#include "models/taulop/bcast_trees.hpp"
#include "models/taulop/parameters.hpp"
#include "models/taulop/transfer_model.hpp"
#include "sim/core/error.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using namespace contend::taulop;

namespace {

// T^0 = o0 + 2 L0 = 2, T^1 = o1 + 2 L0 + L1 = 3 + 2 + 5 = 10 (seconds),
// segments of 1 byte, Q = 2, gamma^0 = {2: 1, 3: 1.5} (-> 2 at 4),
// gamma^1 = {2: 1, 3: 1.2, 4: 1.5} (-> 1.8 at 5).
const char* kSection = R"(
segment_size: 1
kchain_fanout: 2
Q: 2
channels:
  shared_memory: {o: 1, L: 2, gamma: {2: 1, 3: 1.5}}
  network: {o: 0.5, L: 4, gamma: {2: 1, 3: 1.2, 4: 1.5}, concurrency: {1: 1, 2: 1.25}}
bcast:
  linear: {o0: 0, o1: 3, L0: 1, L1: 5}
  chain: {o0: 0, o1: 3, L0: 1, L1: 5}
  kchain: {o0: 0, o1: 3, L0: 1, L1: 5}
  split_binary: {o0: 0, o1: 3, L0: 1, L1: 5}
  binary: {o0: 0, o1: 3, L0: 1, L1: 5}
  binomial: {o0: 0, o1: 3, L0: 1, L1: 5}
)";

Parameters parse(const std::string& text) { return parse_parameters(YamlField::load_string(text, "t.yaml")); }

std::string error_of(const std::string& text) {
  return test::error_message([&] { parse(text); });
}

// Fig. 4 of the paper: two nodes of four cores, ranks 0-3 and 4-7.
Mapping two_quad_nodes() {
  NodeArchitecture nodes;
  nodes.count = 2;
  nodes.sockets = 1;
  nodes.cores_per_socket = 4;
  return make_mapping("block", 8, nodes, false);
}

std::vector<std::vector<int>> children(const BcastTree& t) { return t.children; }

// kSection's broadcast models for P = 8 on Fig. 4's nodes.
struct FigureFour {
  const Parameters p = parse(kSection);
  const Mapping mapping = two_quad_nodes();
  const BcastModels models{p, mapping};
};

// Transfers 0 (from time 0) and 1 (from `second_starts`) of 100 bytes under
// kSection on `nodes` nodes, run until none is left: both completions, in order.
std::vector<TransferModel::Completion> two_transfers(int nodes, const TransferModel::Endpoints& first,
                                                     const TransferModel::Endpoints& second, double second_starts = 0) {
  const Parameters p = parse(kSection);
  TransferModel model(p, nodes);
  std::vector<TransferModel::Completion> done;
  model.start(0, first, 100, 0);
  if (second_starts > 0) model.advance(second_starts, done);
  model.start(1, second, 100, second_starts);
  while (model.next_event() < 1e9) model.advance(model.next_event(), done);
  BOOST_REQUIRE(done.size() == 2u);
  return done;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(taulop_parameters)

BOOST_AUTO_TEST_CASE(size_functions) {
  const Parameters p = parse(R"(
Q: {8KiB: 6, 16KiB: 4}
channels:
  shared_memory: {o: 0, L: {intercept: 1us, per_byte: 1ns}, gamma: {2: 1}}
  network: {o: 2us, L: {1000: 10, 2000: 20}, gamma: {2: 1, 4: 2}}
)");
  BOOST_TEST(p.segment_size == 8192u);
  BOOST_TEST(p.kchain_fanout == 4);
  BOOST_TEST(p.q(8192) == 6);
  BOOST_TEST(p.q(12288) == 5);
  BOOST_TEST(p.channels[kSharedMemory].L(1000) == 1e-6 + 1e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(p.channels[kNetwork].o(123) == 2e-6);
  BOOST_TEST(p.channels[kNetwork].L(1500) == 15);
  BOOST_TEST(p.channels[kNetwork].L(3000) == 30);  // end segment extended
  BOOST_TEST(p.channels[kNetwork].L(500) == 5);
  BOOST_TEST(p.channels[kNetwork].gamma(3) == 1.5);  // interpolated
  BOOST_TEST(p.channels[kNetwork].gamma(6) == 3);    // extended
  BOOST_TEST(p.channels[kSharedMemory].gamma(9) == 1);
  BOOST_TEST(p.channels[kNetwork].concurrency.empty());
  // No bcast section: the channels' parameters.
  const AlgorithmParameters a = p.for_algorithm(BcastAlgorithm::Chain);
  BOOST_TEST(a.o1(0) == 2e-6);
  BOOST_TEST(a.L1(1500) == 15);
}

BOOST_AUTO_TEST_CASE(errors_name_the_place) {
  BOOST_TEST(error_of("Q: 6\n") ==
             "t.yaml:1:1: document: missing required key 'channels' (shared_memory and network channel parameters)");
  BOOST_TEST(error_of(std::string(kSection) + "  chian: {o0: 0, o1: 1, L0: 1, L1: 1}\n") ==
             "t.yaml:15:3: bcast.chian: unknown key (did you mean 'chain'?); expected one of: linear, chain, kchain, "
             "split_binary, binary, binomial");
  std::string bad_gamma = kSection;
  bad_gamma.replace(bad_gamma.find("3: 1.5"), 6, "3: 0.5");
  BOOST_TEST(error_of(bad_gamma) == "t.yaml:6:48: channels.shared_memory.gamma.3: expected a number >= 1, got '0.5'");
  std::string bad_q = kSection;
  bad_q.replace(bad_q.find("Q: 2"), 4, "Q: 0.5");
  BOOST_TEST(error_of(bad_q).find("Q(m_s) >= 1") != std::string::npos);
  BOOST_TEST(error_of(bad_q).find("t.yaml:4:") == 0);
  std::string bad_l = kSection;
  bad_l.replace(bad_l.find("L: 4"), 4, "L: {intercept: 1}");
  BOOST_TEST(error_of(bad_l) ==
             "t.yaml:7:24: channels.network.L: missing required key 'per_byte' (a duration per byte such as 0.1ns)");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(taulop_trees)

BOOST_AUTO_TEST_CASE(open_mpi_shapes) {
  // openmpi-collectives.md: binary size 7: 0->{1,2}, 1->{3,5}, 2->{4,6}; binomial size 8: root [1,2,4].
  const BcastTree binary = binary_tree(7);
  BOOST_TEST((children(binary)[0] == std::vector<int>{1, 2}));
  BOOST_TEST((children(binary)[1] == std::vector<int>{3, 5}));
  BOOST_TEST((children(binary)[2] == std::vector<int>{4, 6}));
  BOOST_TEST(binary.height == 2);
  const BcastTree binomial = binomial_tree(8);
  BOOST_TEST((children(binomial)[0] == std::vector<int>{1, 2, 4}));
  BOOST_TEST((children(binomial)[1] == std::vector<int>{3, 5}));
  BOOST_TEST((children(binomial)[3] == std::vector<int>{7}));
  BOOST_TEST(binomial.height == 3);
  BOOST_TEST(binomial_tree(1000).height == 9);  // floor(log2 P), eq. (9)
  // K-chain: 7 non-roots in 2 chains, the first one longer.
  const BcastTree kchain = chain_tree(8, 2);
  BOOST_TEST((children(kchain)[0] == std::vector<int>{1, 5}));
  BOOST_TEST((children(kchain)[3] == std::vector<int>{4}));
  BOOST_TEST(children(kchain)[4].empty());
  BOOST_TEST(kchain.height == 4);  // ceil(7 / 2)
  BOOST_TEST(chain_tree(8, 1).height == 7);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(taulop_bcast_models)

// Worked by hand for P = 8 on two quad-core nodes (the paper's Fig. 4),
// m = 3 bytes = 3 segments; see the comment of each case.
BOOST_FIXTURE_TEST_CASE(nbft_eqs_4_and_8, FigureFour) {
  const AlgorithmParameters a = p.for_algorithm(BcastAlgorithm::Binomial);
  BOOST_TEST(p2p_time(a, kSharedMemory, 1) == 2);
  BOOST_TEST(p2p_time(a, kNetwork, 1) == 10);
  BOOST_TEST(models.nbft_time(a, 3, 0) == 1.5 * 2);  // gamma^0(3) T^0
  BOOST_TEST(models.nbft_time(a, 4, 0) == 2.0 * 2);  // gamma^0 extended
  BOOST_TEST(models.nbft_time(a, 2, 1) == 10);       // one network child: T^1
  BOOST_TEST(models.nbft_time(a, 6, 1) == 15);       // 4 shm / Q=2 -> 2 network: gamma^1(1 + 2 + 1)
  BOOST_TEST(models.nbft_time(a, 5, 1) == 12);       // floor(3 / 2) = 1: gamma^1(3)
  BOOST_TEST(models.nbft_time(a, 5, 4) == 18);       // gamma^1(5) = 1.8 extended
}

// Each algorithm worked by hand, m = 3 segments of 1 byte (6 for split binary).
BOOST_FIXTURE_TEST_CASE(pipelined_trees_eqs_1_and_9_to_13, FigureFour) {
  struct Case {
    BcastAlgorithm algorithm;
    double m, expected;
  };
  const Case cases[] = {
      // Eq. (9), binomial. NBFTs: 0->{1,2 | 4} gamma^1(3) 10 = 12; 1->{3 | 5},
      // 2->{6}, 3->{7}: 10. Depth maxima 12, 10, 10; stages 3 + 3 - 1 = 5:
      // 12 + 12 + 12 + 10 + 10.
      {BcastAlgorithm::Binomial, 3, 56},
      // Eq. (10), chain. 0->1->...->7: 2 per shared-memory hop, 10 for 3->4.
      // 7 + 3 - 1 = 9 stages; depth 3 runs in stages 4-6: 3 x 10 + 6 x 2.
      {BcastAlgorithm::Chain, 3, 42},
      // Eq. (12), K-chain, K = 2: 0->{1 | 5} (floor(1/2) = 0: gamma^1(2)) = 10;
      // 1->2->3, 5->6->7: 2; 3->4: 10. Depth maxima 10, 2, 2, 10; 4 + 3 - 1 =
      // 6 stages, each holding depth 0 or depth 3: 6 x 10.
      {BcastAlgorithm::KChain, 3, 60},
      // Eq. (11), binary. 0->{1,2} shared memory: gamma^0(3) 2 = 3; 1->{3 | 5}:
      // 10; 2->{| 4,6}: gamma^1(3) 10 = 12; 3->{7}: 10. Depth maxima 3, 12,
      // 10; 5 stages: 3 + 12 + 12 + 12 + 10.
      {BcastAlgorithm::Binary, 3, 49},
      // Eq. (13), split binary, m = 6: halves of 3 segments through the binary
      // tree (49, as above), then pairs (1,2) shm 2, (3,4) network 10, (5,6)
      // shm 2, (7, root) network 10.
      {BcastAlgorithm::SplitBinary, 6, 59},
      // Eq. (1), linear: ranks 1-3 by shared memory (2 each), 4-7 by network (10 each).
      {BcastAlgorithm::Linear, 6, 46},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(bcast_algorithm_name(c.algorithm) << ", m = " << c.m) {
      BOOST_TEST(models.predict(c.algorithm, c.m) == c.expected, boost::test_tools::tolerance(1e-12));
    }
  }
  BOOST_TEST(models.linear(6) == 46, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(gros_binomial_stage_factor_of_eq_20) {
  // Eq. (20) (Gros, P = 1000, binomial): each doubling of m adds stages whose
  // factor is 1.424 = gamma^1(7) (Table 1): rank 2's NBFT has 6 network and 2
  // shared-memory children on 18-core nodes, 6 + floor(2 / 12) + 1 = 7.
  // From 2 MB to 4 MB: 256 more stages of 1.424 T^1, T^1 = o1 + 2 L0 + L1.
  const Platform gros = read_platform(CONTEND_SOURCE_DIR "/platforms/gros.yaml");
  const Parameters p = parse_parameters(gros.model_section("taulop"));
  const Mapping mapping = make_mapping("block", 1000, gros.nodes, false);
  const BcastModels models(p, mapping);
  const double t1 = 1.9e-5 + 2 * 8.0e-6 + 1.9e-5;
  BOOST_TEST(models.binomial(4 << 20) - models.binomial(2 << 20) == 256 * 1.424 * t1,
             boost::test_tools::tolerance(1e-9));
}

BOOST_FIXTURE_TEST_CASE(more_segments_never_cost_less, FigureFour) {
  for (auto algorithm : kBcastAlgorithms) {
    double previous = 0;
    for (double m = 1; m <= 64; m *= 2) {
      const double t = models.predict(algorithm, m);
      BOOST_TEST(t >= previous);
      previous = t;
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(taulop_transfers)

// Shared memory: o = 1, L = 2, s(tau) = tau; network: o = 0.5, L = 4, s(2) = 1.25.
BOOST_AUTO_TEST_CASE(alone) {
  const auto done = two_transfers(3, {0, 1, 0, 0}, {2, 3, 1, 2});
  BOOST_TEST(done[0].id == 0u);
  BOOST_TEST(done[0].time == 1 + 2 + 2);        // o^0 + 2 L^0
  BOOST_TEST(done[1].time == 0.5 + 2 + 4 + 2);  // o^1 + 2 L^0 + L^1
}

BOOST_AUTO_TEST_CASE(shared_channel_slows_both) {
  // A at 0: o to 1, copy in alone to 3, copy out alone 3-4 (half done).
  // B at 3: o to 4; from 4 both copy at 1/2: A's last unit ends at 6, B's
  // copy in has 1 left, alone to 7, copy out 7-9.
  const auto done = two_transfers(1, {0, 1, 0, 0}, {2, 3, 0, 0}, 3);
  BOOST_TEST(done[0].time == 6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(done[1].time == 9, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(one_pair_keeps_its_order) {
  // Two messages 0 -> 1 (one node) posted together: o to 1 for both; A
  // copies in alone to 3 while B waits behind it; then A copies out and B
  // copies in, both at 1/2 on the node's memory, to 7; B copies out alone
  // to 9. (Without the order both would end at 9.)
  const auto done = two_transfers(1, {0, 1, 0, 0}, {0, 1, 0, 0});
  BOOST_TEST(done[0].id == 0u);
  BOOST_TEST(done[0].time == 7, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(done[1].time == 9, boost::test_tools::tolerance(1e-12));
}

// A message alone in its pair leaves its entry in the pair table behind
// when it ends (the next message of the pair finds it stale): message 0 of
// 0 -> 1 ends at 5 (o 1, two copies of 2); at 10 its id starts again, then
// message 1 of 0 -> 1. Reused for another pair (2 -> 3), id 0 does not hold
// 0 -> 1's order: both copy at 1/2 from 11 and end at 19. Reused for 0 -> 1
// itself, it does: 1 waits behind it as in one_pair_keeps_its_order, 10 later.
BOOST_AUTO_TEST_CASE(an_ended_message_holds_no_order) {
  for (const bool same_pair : {false, true}) {
    const Parameters p = parse(kSection);
    TransferModel model(p, 1);
    std::vector<TransferModel::Completion> done;
    auto run_until = [&](double t) {
      while (model.next_event() <= t) model.advance(model.next_event(), done);
    };
    model.start(0, {0, 1, 0, 0}, 100, 0);
    run_until(10);
    BOOST_TEST_REQUIRE(done.size() == 1u);
    BOOST_TEST(done[0].time == 5, boost::test_tools::tolerance(1e-12));
    done.clear();
    model.start(0, same_pair ? TransferModel::Endpoints{0, 1, 0, 0} : TransferModel::Endpoints{2, 3, 0, 0}, 100, 10);
    model.start(1, {0, 1, 0, 0}, 100, 10);
    run_until(1e9);
    BOOST_TEST_REQUIRE(done.size() == 2u);
    BOOST_TEST(done[0].id == 0u);
    BOOST_TEST(done[0].time == (same_pair ? 17 : 19), boost::test_tools::tolerance(1e-12));
    BOOST_TEST(done[1].time == 19, boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(network_from_one_nic) {
  // Node 0 to nodes 1 and 2: o 0.5; both copy in on node 0's memory at 1/2
  // (4 each, to 4.5); both leave node 0's NIC, s(2) = 1.25 (5, to 9.5);
  // each copies out alone on its node (2, to 11.5).
  const auto done = two_transfers(3, {0, 1, 0, 1}, {0, 2, 0, 2});
  BOOST_TEST(done[0].time == 11.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(done[1].time == 11.5, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_SUITE_END()
