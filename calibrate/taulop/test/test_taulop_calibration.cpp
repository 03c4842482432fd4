// Parameter estimation for Nuriyev et al.'s broadcast models (JPDC 2022,
// Sec. 5; calibrate/taulop): the Huber regression on synthetic data with
// known parameters and outliers, the stage coefficients of eqs. (9)-(18)
// against hand computations, the estimation of gamma and Q, the raw CSV
// reader, and the platform section read back by the taulop model.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <sstream>
#include <string>

#include "calibrate/taulop/fit/bcast_stages.hpp"
#include "calibrate/taulop/fit/huber.hpp"
#include "calibrate/taulop/fit/taulop_fit.hpp"
#include "calibrate/taulop/fit/taulop_section.hpp"
#include "models/taulop/bcast_models.hpp"
#include "models/taulop/bcast_trees.hpp"
#include "models/taulop/parameters.hpp"
#include "sim/core/error.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/yaml_field.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using namespace contend::calibrate;
namespace tt = boost::test_tools;

namespace {

// A deterministic, well-conditioned design: row i = (1, i, i^2 / n, sin i).
Eigen::MatrixXd design(int rows) {
  Eigen::MatrixXd a(rows, 4);
  for (int i = 0; i < rows; ++i) a.row(i) << 1, i, i * i / double(rows), 2 + std::sin(i);
  return a;
}

// Deterministic small noise in [-1, 1].
double wiggle(int i) { return std::sin(12.9898 * i + 78.233); }

double relative_error(const Eigen::VectorXd& x, const Eigen::VectorXd& truth) {
  return (x - truth).norm() / truth.norm();
}

// Fig. 4 of the paper: two nodes of four cores, ranks 0-3 and 4-7.
std::vector<int> two_quad_nodes() { return {0, 0, 0, 0, 1, 1, 1, 1}; }

NbftParameters paper_like_nbft() {
  NbftParameters n;
  n.gamma_shared = {{2, 1}, {3, 1.1}, {4, 1.3}, {5, 1.4}};
  n.gamma_network = {{2, 1}, {3, 1.2}, {4, 1.5}, {5, 1.8}};
  n.q = 1.5;
  return n;
}

std::string row(const std::string& experiment, int channel, const std::string& algorithm, int id, int procs,
                const std::string& nodes, std::uint64_t size, int sample, double time) {
  std::ostringstream out;
  out.precision(17);
  out << experiment << ',' << (channel >= 0 ? std::to_string(channel) : "") << ',' << algorithm << ','
      << (id ? std::to_string(id) : "") << ",8192," << (id ? "2" : "") << ',' << procs << ',' << nodes << ',' << size
      << ',' << (id ? 1 : 10) << ',' << sample << ',' << time << '\n';
  return out.str();
}

std::string nodes_text(const std::vector<int>& nodes, int procs) {
  std::string out;
  for (int r = 0; r < procs; ++r) out += (r ? ":" : "") + std::to_string(nodes[static_cast<std::size_t>(r)]);
  return out;
}

// NBFT rows giving gamma^0 = {2: 1, 3: 1.1, 4: 1.3}, gamma^1 = {2: 1, 3: 1.2, 4: 1.5}, Q = 4.
std::string nbft_rows() {
  std::string csv;
  const double t0 = 10e-6, t1 = 40e-6;
  const double g0[] = {1, 1.1, 1.3}, g1[] = {1, 1.2, 1.5};
  for (int p = 2; p <= 4; ++p) {
    for (int s = 0; s < 3; ++s) {
      csv += row("nbft", 0, "", 0, p, nodes_text({0, 0, 0, 0}, p), 8192, s,
                 t0 * g0[p - 2] * (s == 1 ? 5 : 1));  // one wild sample
      csv += row("nbft", 1, "", 0, p, nodes_text({0, 1, 1, 1}, p), 8192, s, t1 * g1[p - 2]);
    }
  }
  return csv;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(huber_fit)

BOOST_AUTO_TEST_CASE(non_negative_least_squares_clamps_and_stays_optimal) {
  // Unconstrained solution (2, -1); with x >= 0 the optimum is (x1, 0) with x1 = a1.b / |a1|^2.
  Eigen::MatrixXd a(3, 2);
  a << 1, 0, 0, 1, 1, 1;
  const Eigen::Vector2d truth(2, -1);
  const Eigen::VectorXd b = a * truth;
  const Eigen::VectorXd x = non_negative_least_squares(a, b);
  BOOST_TEST(x[1] == 0.0);
  BOOST_TEST(x[0] == a.col(0).dot(b) / a.col(0).squaredNorm(), tt::tolerance(1e-12));
  // Karush-Kuhn-Tucker: the gradient of the free variable vanishes, the clamped one points outward.
  const Eigen::VectorXd gradient = a.transpose() * (b - a * x);
  BOOST_TEST(std::abs(gradient[0]) < 1e-12);
  BOOST_TEST(gradient[1] <= 0.0);
}

BOOST_AUTO_TEST_CASE(recovers_known_parameters_despite_outliers) {
  const int n = 40;
  const Eigen::MatrixXd a = design(n);
  const Eigen::Vector4d truth(2e-6, 3e-7, 5e-6, 1e-6);
  Eigen::VectorXd t = a * truth;
  for (int i = 0; i < n; ++i) t[i] *= 1 + 0.001 * wiggle(i);  // 0.1% noise
  for (int i : {3, 11, 25, 31}) t[i] *= 3;                    // a busy machine: four samples three times too slow
  const Eigen::VectorXd ordinary = a.colPivHouseholderQr().solve(t);
  const HuberFit fit = huber_regression(a, t);
  BOOST_TEST(fit.converged);
  BOOST_TEST(relative_error(ordinary, truth) > 0.1);               // least squares is dragged away ...
  BOOST_TEST(relative_error(fit.coefficients, truth) < 0.005);     // ... Huber is not
  for (int i : {3, 11, 25, 31}) BOOST_TEST(fit.weights[i] < 0.1);  // and says which equations it distrusted
  BOOST_TEST(fit.weights[0] == 1.0);
}

BOOST_AUTO_TEST_CASE(exact_data_are_reproduced) {
  const Eigen::MatrixXd a = design(9);
  const Eigen::Vector4d truth(1, 2, 3, 4);
  const HuberFit fit = huber_regression(a, a * truth);
  BOOST_TEST(relative_error(fit.coefficients, truth) < 1e-6);
}

BOOST_AUTO_TEST_CASE(identical_columns_share_equally) {
  // o^1 and L^1 always appear together: the tie-break gives both the same value (Table 2: o^1 = L^1).
  Eigen::MatrixXd a(5, 2);
  a << 1, 1, 2, 2, 3, 3, 4, 4, 5, 5;
  Eigen::VectorXd t = a.col(0) * 6.0;
  const HuberFit fit = huber_regression(a, t);
  BOOST_TEST(fit.coefficients[0] == 3.0, tt::tolerance(1e-6));
  BOOST_TEST(fit.coefficients[1] == 3.0, tt::tolerance(1e-6));
}

BOOST_AUTO_TEST_CASE(times_stay_non_negative) {
  Eigen::MatrixXd a(4, 2);
  a << 1, 1, 1, 2, 1, 3, 1, 4;
  const Eigen::Vector4d t(4, 3, 2, 1);  // falling: unconstrained slope -1
  const HuberFit fit = huber_regression(a, t);
  BOOST_TEST(fit.coefficients[1] == 0.0);
  BOOST_TEST(fit.coefficients[0] == 2.5, tt::tolerance(1e-6));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(taulop_estimation)

BOOST_AUTO_TEST_CASE(trees_are_open_mpi_s) {
  using V = std::vector<std::vector<int>>;
  BOOST_TEST((binary_tree(7).children == V{{1, 2}, {3, 5}, {4, 6}, {}, {}, {}, {}}));
  BOOST_TEST((binomial_tree(8).children == V{{1, 2, 4}, {3, 5}, {6}, {7}, {}, {}, {}, {}}));
  // 7 non-roots in 3 chains: lengths 3, 2, 2 (Open MPI's build_chain).
  BOOST_TEST((chain_tree(8, 3).children == V{{1, 4, 6}, {2}, {3}, {}, {5}, {}, {7}, {}}));
  BOOST_TEST((chain_tree(4, 4).children == V{{1, 2, 3}, {}, {}, {}}));  // fanout clamped to P - 1
  // Open MPI clamps the chain fanout to 32.
  BOOST_TEST(chain_tree(40, 35).children[0].size() == 32u);
  // Depths and height, which the stages are counted from.
  BOOST_TEST((binomial_tree(8).depth == std::vector<int>{0, 1, 1, 2, 1, 2, 2, 3}));
  BOOST_TEST(binomial_tree(8).height == 3);
}

BOOST_AUTO_TEST_CASE(binomial_on_one_node_by_hand) {
  // P = 4: 0 -> {1, 2}, 1 -> {3}; two segments: stage 1 root NBFT(3), stage 2
  // root NBFT(3) with rank 1's NBFT(2), stage 3 rank 1's NBFT(2):
  // (2 gamma^0(3) + 1) T^0, plus the gather's 3 T^0.
  const NbftParameters nbft = paper_like_nbft();
  const Experiment e{BcastAlgorithm::Binomial, 16384, 8192, 4, {0, 0, 0, 0}};
  const Coefficients c = experiment_coefficients(e, nbft);
  const double k = 2 * 1.1 + 1 + 3;
  BOOST_TEST(c[0] == k, tt::tolerance(1e-12));
  BOOST_TEST(c[1] == 0.0);
  BOOST_TEST(c[2] == 2 * k, tt::tolerance(1e-12));
  BOOST_TEST(c[3] == 0.0);
}

BOOST_AUTO_TEST_CASE(binomial_on_two_quad_nodes_by_hand) {
  // Fig. 5's tree, one segment. Stage 1: the root's NBFT to {1, 2, 4}, rank
  // 4 over the network: C = 1, P^o = 1 + floor(2 / 1.5) + 1 = 3: gamma^1(3).
  // Stage 2: rank 1 -> {3, 5} (C = 1, P^o = 1 + floor(1 / 1.5) + 1 = 2) and
  // rank 2 -> {6} (C = 1): gamma^1(2) = 1. Stage 3: rank 3 -> 7: 1.
  const NbftParameters nbft = paper_like_nbft();
  const auto stages = nbft_stages(binomial_tree(8), 1, two_quad_nodes(), nbft);
  BOOST_TEST(stages.size() == 3u);
  BOOST_TEST(stages[0].factor == 1.2);
  BOOST_TEST(stages[1].factor == 1.0);
  BOOST_TEST(stages[2].factor == 1.0);
  const Coefficients bcast =
      bcast_coefficients(Experiment{BcastAlgorithm::Binomial, 8192, 8192, 4, two_quad_nodes()}, nbft);
  BOOST_TEST(bcast[1] == 3.2, tt::tolerance(1e-12));  // (1.2 + 1 + 1) T^1
  BOOST_TEST(bcast[0] == 0.0);
  // The gather: ranks 1-3 through shared memory, 4-7 through the network.
  const Coefficients gather = flat_gather_coefficients(two_quad_nodes());
  BOOST_TEST(gather[0] == 3.0);
  BOOST_TEST(gather[1] == 4.0);
  BOOST_TEST(gather[2] == 14.0);
  BOOST_TEST(gather[3] == 4.0);
}

BOOST_AUTO_TEST_CASE(chain_stage_count_and_eq18_as_printed) {
  // Eq. (10): P + n_s - 2 stages of two-node NBFTs on one node, each gamma^0(2) T^0 = T^0.
  NbftParameters nbft = paper_like_nbft();
  const Experiment e{BcastAlgorithm::Chain, 3 * 8192, 8192, 4, {0, 0, 0, 0}};
  BOOST_TEST(bcast_coefficients(e, nbft)[0] == 5.0);
  // Eq. (18) as printed writes each of them as gamma^0(2) / Q T^1.
  nbft.literal_eq18 = true;
  const Coefficients literal = bcast_coefficients(e, nbft);
  BOOST_TEST(literal[0] == 0.0);
  BOOST_TEST(literal[1] == 5.0 / 1.5, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(linear_and_split_binary_whole_messages) {
  const NbftParameters nbft = paper_like_nbft();
  // Eq. (1): 7 sends of m = 4 m_s, three through shared memory, four through the network.
  const Coefficients linear =
      bcast_coefficients(Experiment{BcastAlgorithm::Linear, 4 * 8192, 8192, 4, two_quad_nodes()}, nbft);
  BOOST_TEST(linear[0] == 12.0);
  BOOST_TEST(linear[1] == 16.0);
  // Eq. (13), P = 4 on one node, m = 4 m_s: halves of 2 segments down the binary
  // tree 0 -> {1, 2}, 1 -> {3}: stages root NBFT(3), root NBFT(3) + 1's NBFT(2),
  // 1's NBFT(2) = 2 gamma^0(3) + 1; exchange of m / 2 = 2 m_s (pairs 1-2, 3-root).
  const Coefficients split =
      bcast_coefficients(Experiment{BcastAlgorithm::SplitBinary, 4 * 8192, 8192, 4, {0, 0, 0, 0}}, nbft);
  BOOST_TEST(split[0] == 2 * 1.1 + 1 + 2, tt::tolerance(1e-12));
  // Open MPI falls back to the chain when a half is smaller than a segment.
  const Coefficients fallback =
      bcast_coefficients(Experiment{BcastAlgorithm::SplitBinary, 8192, 8192, 4, {0, 0, 0, 0}}, nbft);
  BOOST_TEST(fallback[0] ==
             bcast_coefficients(Experiment{BcastAlgorithm::Chain, 8192, 8192, 4, {0, 0, 0, 0}}, nbft)[0]);
}

BOOST_AUTO_TEST_CASE(gamma_lookup_and_bounds) {
  const NbftParameters nbft = paper_like_nbft();
  BOOST_TEST(nbft.gamma(1, 2) == 1.0);
  BOOST_TEST(nbft.gamma(1, 4) == 1.5);
  BOOST_TEST(nbft.gamma(1, 7) == 2.4, tt::tolerance(1e-12));  // the last two points extended
  NbftParameters sparse;
  sparse.gamma_shared = {{2, 1}, {3, 2}};
  BOOST_TEST(sparse.gamma(0, 10) == 9.0);        // eq. (7): at most P - 1
  BOOST_CHECK_THROW(sparse.gamma(1, 3), Error);  // the network was not measured ...
  BOOST_TEST(sparse.gamma(1, 2) == 1.0);         // ... but gamma(2) = 1 needs no measurement
}

BOOST_AUTO_TEST_CASE(gamma_and_q_from_nbft_rows) {
  std::istringstream in(std::string(kTaulopCsvHeader) + "\n" + nbft_rows());
  const auto e = estimate_nbft(read_taulop_csv(in, "nbft.csv"), std::nullopt);
  BOOST_TEST(e.parameters.q == 4.0, tt::tolerance(1e-12));                   // eq. (15): 40 us / 10 us
  BOOST_TEST(e.parameters.gamma_shared.at(3) == 1.1, tt::tolerance(1e-12));  // median: the wild sample ignored
  BOOST_TEST(e.parameters.gamma_network.at(4) == 1.5, tt::tolerance(1e-12));
  BOOST_TEST(e.notes.empty());
  std::istringstream shared_only(std::string(kTaulopCsvHeader) + "\n" + row("nbft", 0, "", 0, 2, "0:0", 8192, 0, 1e-5));
  const auto rows = read_taulop_csv(shared_only, "shm.csv");
  BOOST_CHECK_THROW(estimate_nbft(rows, std::nullopt), Error);  // Q needs the network
  BOOST_TEST(estimate_nbft(rows, 6.0).parameters.q == 6.0);
}

BOOST_AUTO_TEST_CASE(fit_recovers_p2p_times_with_outliers) {
  // Binomial experiments on two quad nodes for P = 5..8 and m = 16..128 KiB,
  // generated from T^0 = 6 us, T^1 = 30 us with the gamma and Q that the
  // NBFT rows give; one experiment 4 times too slow.
  std::istringstream nbft_in(std::string(kTaulopCsvHeader) + "\n" + nbft_rows());
  const NbftParameters nbft = estimate_nbft(read_taulop_csv(nbft_in, "n.csv"), std::nullopt).parameters;
  const double t0 = 6e-6, t1 = 30e-6;
  std::string csv = std::string(kTaulopCsvHeader) + "\n" + nbft_rows();
  int k = 0;
  for (int p = 5; p <= 8; ++p) {
    const auto all = two_quad_nodes();
    const std::vector<int> nodes(all.begin(), all.begin() + p);
    for (std::uint64_t m = 16384; m <= 131072; m *= 2) {
      const Coefficients c = experiment_coefficients(Experiment{BcastAlgorithm::Binomial, m, 8192, 2, nodes}, nbft);
      double time = c[0] * 0 + c[1] * ((t1 - t0) / 2) + c[2] * (t0 / 2) + c[3] * ((t1 - t0) / 2);
      if (++k == 7) time *= 4;
      csv += row("bcast_gather", -1, "binomial", 6, p, nodes_text(nodes, p), m, 0, time);
    }
  }
  std::istringstream in(csv);
  const auto c = fit_taulop(read_taulop_csv(in, "all.csv"));
  BOOST_REQUIRE(c.algorithms.size() == 1u);
  const auto& f = c.algorithms.front();
  BOOST_TEST(!f.t1_from_q);
  BOOST_TEST(f.t0 == t0, tt::tolerance(1e-6));
  BOOST_TEST(f.t1 == t1, tt::tolerance(1e-6));
  BOOST_TEST(f.o0 == 0.0);  // the Table 2 split
  BOOST_TEST(f.l0 == t0 / 2, tt::tolerance(1e-6));
  BOOST_TEST(f.o1 == f.l1);
  BOOST_TEST(f.equations[6].weight < 0.1);
  BOOST_TEST(f.equations.size() == 16u);
}

BOOST_AUTO_TEST_CASE(one_node_takes_t1_from_q) {
  std::string csv = std::string(kTaulopCsvHeader) + "\n" + nbft_rows();
  for (std::uint64_t m = 16384; m <= 65536; m *= 2)
    csv += row("bcast_gather", -1, "chain", 3, 4, "0:0:0:0", m, 0, 1e-4 * m / 16384.0);
  std::istringstream in(csv);
  const auto c = fit_taulop(read_taulop_csv(in, "one-node.csv"));
  const auto& f = c.algorithms.front();
  BOOST_TEST(f.t1_from_q);
  BOOST_TEST(f.t1 == 4 * f.t0, tt::tolerance(1e-12));
  BOOST_TEST(f.t0 > 0.0);
}

BOOST_AUTO_TEST_CASE(relative_residuals_follow_the_small_messages) {
  // Chain on one node, T^0 = 10 us; the four largest messages three times
  // slower than the model (a time-sliced machine). In seconds those four
  // dominate; relative to each time, the five exact ones win.
  std::string csv = std::string(kTaulopCsvHeader) + "\n" + nbft_rows();
  int k = 0;
  for (std::uint64_t m = 16384; m <= 4194304; m *= 2, ++k) {
    const double exact = 10e-6 * static_cast<double>(m / 8192 + 2 + 3);  // n_s + 2 stages, gather of 3
    csv += row("bcast_gather", -1, "chain", 3, 4, "0:0:0:0", m, 0, k >= 5 ? 3 * exact : exact);
  }
  std::istringstream in1(csv), in2(csv);
  const auto absolute = fit_taulop(read_taulop_csv(in1, "a.csv")).algorithms.front();
  TaulopFitOptions relative;
  relative.relative = true;
  const auto scaled = fit_taulop(read_taulop_csv(in2, "r.csv"), relative).algorithms.front();
  BOOST_TEST(scaled.t0 == 10e-6, tt::tolerance(1e-6));
  BOOST_TEST(std::abs(absolute.t0 - 10e-6) > 1e-6);
  for (int i = 5; i < 9; ++i) BOOST_TEST(scaled.equations[static_cast<std::size_t>(i)].weight < 0.5);
}

BOOST_AUTO_TEST_CASE(raw_csv_errors_say_where) {
  auto error_of = [](const std::string& line) {
    std::istringstream in(std::string(kTaulopCsvHeader) + "\n" + line + "\n");
    return test::error_message([&] { read_taulop_csv(in, "r.csv"); });
  };
  BOOST_TEST(
      error_of("bcast_gather,,binomal,6,8192,4,2,0:0,16384,1,0,1e-5") ==
      "r.csv:2:15: algorithm: unknown 'binomal' (did you mean 'binomial'?); expected one of: linear, chain, kchain, "
      "split_binary, binary, binomial");
  BOOST_TEST(error_of("bcast_gather,,chain,2,8192,4,2,0:0,16384,1,0,1e-5") ==
             "r.csv:2:21: ompi_algorithm: chain is Open MPI's algorithm 3, got 2");
  BOOST_TEST(error_of("nbft,0,,,8192,,3,0:0,8192,10,0,1e-5") ==
             "r.csv:2:18: nodes: expected one node index per rank (3), got 2");
  BOOST_TEST(error_of("nbft,2,,,8192,,2,0:0,8192,10,0,1e-5") ==
             "r.csv:2:6: channel: expected 0 (shared memory) or 1 (network)");
  BOOST_TEST(error_of("nbft,0,,,8192,,2,0:0,8192,10,0,-1") ==
             "r.csv:2:32: time_s: expected a number >= 0.000000, got '-1'");
}

BOOST_AUTO_TEST_CASE(platform_section_is_what_the_taulop_model_predicts) {
  // A calibration with known values, written into a platform, read back by the
  // taulop model: its analytical broadcast times must equal the fit's own
  // equations (bcast part), for every algorithm, on Fig. 4's two quad nodes.
  TaulopCalibration c;
  c.segment = 8192;
  c.nbft.parameters = paper_like_nbft();
  c.nbft.time_shared = {{2, 10e-6}};
  c.nbft.time_network = {{2, 15e-6}};
  for (const auto a : taulop::kBcastAlgorithms) {
    const auto& info = bcast_algorithm_info(a);
    AlgorithmFit f;
    f.algorithm = info.algorithm;
    f.fanout = 3;
    f.t0 = 4e-6;
    f.t1 = 6e-6;  // T^1 = Q T^0: the fit and the model pick the same slowest NBFT
    split_p2p_times(f);
    c.algorithms.push_back(f);
  }
  const std::string platform_text = R"(name: two-quad
nodes: {count: 2, sockets: 1, cores_per_socket: 4, core_speed: 1Gf}
levels:
  intra_socket: {latency: 1us, eager_threshold: 4KiB, bandwidth: 5GB/s}
  inter_socket: {latency: 1us, eager_threshold: 4KiB, bandwidth: 5GB/s}
  inter_node: {latency: 10us, eager_threshold: 64KiB, bandwidth: 1GB/s}
nic: {bandwidth: 10Gbps}
network: {topology: star}
models:
  maxmin: {}
  taulop:
    Q: 3
    channels:
      shared_memory: {o: 0, L: 1us, gamma: {2: 1}, concurrency: {1: 1, 2: 1.5}}
      network: {o: 1us, L: 2us, gamma: {2: 1}}
# the end
)";
  const Platform before = parse_platform(YamlField::load_string(platform_text, "p.yaml"));
  const std::string written =
      replace_model_section(platform_text, "taulop", taulop_section(c, before.model_section("taulop"), "unit test"));
  BOOST_TEST(written.find("# the end") != std::string::npos);
  BOOST_TEST(written.find("  maxmin: {}") != std::string::npos);
  const Platform after = parse_platform(YamlField::load_string(written, "p.yaml"));
  const taulop::Parameters p = taulop::parse_parameters(after.model_section("taulop"));
  BOOST_TEST(p.q(8192) == 1.5);
  BOOST_TEST(p.kchain_fanout == 3);
  BOOST_TEST(p.channels[taulop::kSharedMemory].L(100) == 1e-6);         // kept: not measured here
  BOOST_TEST(p.channels[taulop::kSharedMemory].concurrency(2) == 1.5);  // kept
  BOOST_TEST(p.channels[taulop::kNetwork].gamma(4) == 1.5);             // written
  const Mapping mapping = make_mapping("block", 8, after.nodes, false);
  const taulop::BcastModels models(p, mapping);
  for (const auto& f : c.algorithms) {
    const auto name = bcast_algorithm_info(f.algorithm).name;
    const auto model_algorithm = taulop::bcast_algorithm_by_name(name);
    BOOST_REQUIRE(model_algorithm.has_value());
    for (std::uint64_t m = 16384; m <= 262144; m *= 4) {
      const Coefficients k =
          bcast_coefficients(Experiment{f.algorithm, m, 8192, 3, two_quad_nodes()}, c.nbft.parameters);
      const double fitted = k[0] * f.o0 + k[1] * f.o1 + k[2] * f.l0 + k[3] * f.l1;
      BOOST_TEST_INFO(name << " m = " << m);
      BOOST_TEST(models.predict(*model_algorithm, static_cast<double>(m)) == fitted,
                 tt::tolerance(1e-6));  // 6 digits in the file
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
