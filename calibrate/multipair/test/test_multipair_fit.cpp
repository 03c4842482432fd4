// The multi-pair benchmark's fit (calibrate/multipair/fit): least squares,
// Thune's BW_MP(N) = N / slope, tau at N = 2, raw CSV errors, and the
// platform update that rewrites only the fitted levels.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <sstream>

#include "calibrate/multipair/fit/multipair_fit.hpp"
#include "calibrate/multipair/fit/platform_update.hpp"
#include "sim/core/error.hpp"
#include "sim/core/yaml_field.hpp"
#include "tests/harness/error_message.hpp"
#include "tests/harness/text_lines.hpp"

using namespace contend;
using namespace contend::calibrate;
using contend::test::error_message;

namespace {

// Samples of a machine whose windows take exactly repeats * (tau + N s / BW).
std::vector<MultipairSample> synthetic(Level level, int n, double tau, double bw, const std::string& direction = "bi") {
  std::vector<MultipairSample> out;
  for (std::uint64_t size : {65536u, 131072u, 262144u, 524288u}) {
    for (int sample = 0; sample < 3; ++sample) {
      MultipairSample s;
      s.level = level;
      s.direction = direction;
      s.ranks = level == Level::IntraSocket && direction == "bi" ? n : 2 * n;
      s.n = n;
      s.size = size;
      s.repeats = 4;
      s.time = 4 * (tau + n * static_cast<double>(size) / bw);
      out.push_back(s);
    }
  }
  return out;
}

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::abs(b); }

const char* kPlatform =
    "# header comment\n"
    "name: x\n"
    "nodes: {count: 2, sockets: 2, cores_per_socket: 4, core_speed: 1Gf}\n"
    "levels:\n"
    "  intra_socket:\n"
    "    # measured on the real machine\n"
    "    latency: 1us\n"
    "    eager_threshold: 8KiB\n"
    "    bandwidth: {1: 10GB/s, 2: 16GB/s}\n"
    "\n"
    "  inter_socket: {latency: 3us, eager_threshold: 8KiB, bandwidth: 5GB/s}\n"
    "  inter_node: {latency: 2us, eager_threshold: 64KiB,\n"
    "               bandwidth: 12GB/s}\n"
    "nic: {bandwidth: 12.5GB/s}   # HDR100\n"
    "network: {topology: star}\n";

std::map<Level, LevelFit> two_level_fit() {
  auto samples = synthetic(Level::IntraSocket, 1, 2e-6, 8e9, "uni");
  for (int n : {2, 4}) {
    auto more = synthetic(Level::IntraSocket, n, 3e-6, 8e9 + n * 1e9);
    samples.insert(samples.end(), more.begin(), more.end());
  }
  for (int n : {1, 2}) {
    auto more = synthetic(Level::InterNode, n, 80e-6, 11.9e6);
    samples.insert(samples.end(), more.begin(), more.end());
  }
  return fit_multipair(samples);
}

const std::map<Level, std::string> kSources = {{Level::IntraSocket, "intra.csv"}, {Level::InterNode, "inter.csv"}};

}  // namespace

BOOST_AUTO_TEST_SUITE(multipair_fit)

BOOST_AUTO_TEST_CASE(least_squares_recovers_a_line) {
  const auto f = least_squares({1, 2, 4}, {3, 5, 9});
  BOOST_TEST(f.intercept == 1.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(f.slope == 2.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(f.r_squared == 1.0, boost::test_tools::tolerance(1e-12));
  const auto noisy = least_squares({0, 1, 2, 3}, {0, 1, 1, 3});  // by hand: sxy 4.5, sxx 5, 1.25 - 0.9 x 1.5
  BOOST_TEST(noisy.slope == 0.9, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(noisy.intercept == -0.1, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(noisy.r_squared < 1.0);
}

BOOST_AUTO_TEST_CASE(recovers_tau_and_aggregate_bandwidth) {
  const auto fits = two_level_fit();
  BOOST_REQUIRE(fits.count(Level::IntraSocket) == 1u);
  const auto& intra = fits.at(Level::IntraSocket);
  BOOST_REQUIRE(intra.by_n.size() == 3u);
  BOOST_TEST(intra.by_n[0].n == 1);
  BOOST_TEST(intra.by_n[0].direction == "uni");
  BOOST_TEST(close(intra.by_n[0].bandwidth, 8e9, 1e-9));
  BOOST_TEST(close(intra.by_n[1].bandwidth, 10e9, 1e-9));  // N = 2: 8e9 + 2e9
  BOOST_TEST(close(intra.by_n[2].bandwidth, 12e9, 1e-9));
  BOOST_TEST(close(intra.tau, 3e-6, 1e-6));  // N = 2's intercept, not N = 1's 2 us (Thune Sec. II-B)
  BOOST_TEST(intra.tau_n == 2);
  const auto table = intra.table();
  BOOST_TEST(table.points().size() == 3u);
  BOOST_TEST(close(table.aggregate(3), 11e9, 1e-9));  // interpolated
  const auto& inter = fits.at(Level::InterNode);
  BOOST_TEST(close(inter.by_n[1].bandwidth, 11.9e6, 1e-9));
  BOOST_TEST(close(inter.tau, 80e-6, 1e-6));
}

BOOST_AUTO_TEST_CASE(median_per_size_resists_an_outlier) {
  auto samples = synthetic(Level::InterNode, 1, 50e-6, 10e6);
  samples[0].time *= 5;  // one disturbed window of the smallest size
  const auto fit = fit_multipair(samples).at(Level::InterNode);
  BOOST_TEST(close(fit.by_n[0].bandwidth, 10e6, 1e-9));
  BOOST_TEST(fit.by_n[0].points[0].samples == 3);
}

BOOST_AUTO_TEST_CASE(negative_intercept_is_clamped_and_said) {
  auto samples = synthetic(Level::InterNode, 1, 0, 10e6);
  for (auto& s : samples) s.time -= 4 * 1e-4;
  const auto fit = fit_multipair(samples).at(Level::InterNode);
  BOOST_TEST(fit.tau_n == 1);  // no N = 2: the smallest N's intercept
  BOOST_TEST(fit.tau == 0.0);
  BOOST_TEST(fit.tau_clamped);
}

BOOST_AUTO_TEST_CASE(rejects_unfittable_series) {
  auto one_size = synthetic(Level::InterNode, 1, 1e-5, 1e7);
  std::erase_if(one_size, [](const MultipairSample& s) { return s.size != 65536u; });
  BOOST_TEST(error_message([&] { fit_multipair(one_size); }).find("at least two message sizes") != std::string::npos);

  auto flat = synthetic(Level::InterNode, 1, 1e-5, 1e7);
  for (auto& s : flat) s.time = 1e-3;
  BOOST_TEST(error_message([&] { fit_multipair(flat); }).find("does not grow with the message size") !=
             std::string::npos);

  auto twice = synthetic(Level::InterNode, 2, 1e-5, 1e7);
  auto other = synthetic(Level::InterNode, 2, 1e-5, 1e7);
  for (auto& s : other) s.ranks = 8;
  twice.insert(twice.end(), other.begin(), other.end());
  BOOST_TEST(error_message([&] { fit_multipair(twice); }).find("two series for inter_node N = 2") != std::string::npos);

  const auto no_single = fit_multipair(synthetic(Level::InterNode, 2, 1e-5, 1e7)).at(Level::InterNode);
  BOOST_TEST(error_message([&] { no_single.table(); }).find("no N = 1 series") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(reads_the_benchmark_csv) {
  std::istringstream in(
      "# comment\nlevel,direction,P,N,size,repeats,sample,time\n"
      "inter_node,bi,4,2,65536,4,0,0.0443\ninter_node,bi,4,2,131072,4,0,0.0881\n");
  const auto samples = read_multipair_csv(in, "raw.csv");
  BOOST_REQUIRE(samples.size() == 2u);
  BOOST_TEST(samples[1].size == 131072u);
  BOOST_TEST(samples[1].time == 0.0881);
  BOOST_TEST(samples[0].level == Level::InterNode);
}

BOOST_AUTO_TEST_CASE(csv_errors_name_the_place) {
  auto error = [](const std::string& text) {
    return error_message([&] {
      std::istringstream in(text);
      read_multipair_csv(in, "raw.csv");
    });
  };
  const std::string header = "level,direction,P,N,size,repeats,sample,time\n";
  BOOST_TEST(error("rank,time\n0,1\n").find("raw.csv:1:1: expected the header") == 0u);
  BOOST_TEST(error(header + "inter_nod,bi,2,1,65536,4,0,0.1\n") ==
             "raw.csv:2:1: level: unknown 'inter_nod' (did you mean 'inter_node'?); expected one of: intra_socket, "
             "inter_socket, inter_node");
  BOOST_TEST(error(header + "inter_node,bi,2,1,64k,4,0,0.1\n").find("raw.csv:2:19: size: expected a number") == 0u);
  BOOST_TEST(error(header + "inter_node,both,2,1,65536,4,0,0.1\n").find("raw.csv:2:12: direction") == 0u);
  BOOST_TEST(error(header + "inter_node,bi,2,1,65536,4,0,-1\n").find("raw.csv:2:") == 0u);
  BOOST_TEST(error(header).find("no measurements") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(platform_update_rewrites_only_fitted_levels) {
  const auto fits = two_level_fit();
  const std::string updated = update_platform_levels(kPlatform, "x.yaml", fits, kSources);
  const Platform p = parse_platform(YamlField::load_string(updated, "x.yaml"));
  const auto& intra = p.level(Level::IntraSocket);
  BOOST_TEST(close(intra.latency, 3e-6, 1e-3));
  BOOST_TEST(intra.eager_threshold == 8192u);
  BOOST_REQUIRE(intra.bandwidth.points().size() == 3u);
  BOOST_TEST(close(intra.bandwidth.points()[2].second, 12e9, 1e-3));
  const auto& inter = p.level(Level::InterNode);
  BOOST_TEST(close(inter.latency, 80e-6, 1e-3));
  BOOST_TEST(inter.eager_threshold == 65536u);
  BOOST_TEST(close(inter.bandwidth.points()[1].second, 11.9e6, 1e-3));
  BOOST_TEST(p.level(Level::InterSocket).latency == 3e-6);  // untouched

  const auto before = test::lines_of(kPlatform);
  const auto after = test::lines_of(updated);
  // Lines outside the two rewritten entries are byte for byte the same.
  BOOST_TEST(after[0] == before[0]);
  BOOST_TEST(after[3] == "levels:");
  BOOST_TEST(after[4] == "  intra_socket:");
  BOOST_TEST(after[5] == "    # measured on the real machine");  // kept comment
  BOOST_TEST(
      after[6] ==
      "    # latency, bandwidth: Thune Algorithm 1, fitted by contend fit-multipair from intra.csv (N = 1, 2, 4)");
  BOOST_TEST(after[7] == "    latency: 3us");
  BOOST_TEST(after[8] == "    eager_threshold: 8KiB");
  BOOST_TEST(after[9] == "    bandwidth: {1: 8GB/s, 2: 10GB/s, 4: 12GB/s}");
  BOOST_TEST(after[10] == "");
  BOOST_TEST(after[11] == before[10]);  // inter_socket
  BOOST_TEST(after[12] == "  inter_node:");
  BOOST_TEST(after[15] == "    eager_threshold: 64KiB");
  BOOST_TEST(after[after.size() - 2] == before[before.size() - 2]);  // nic line with its comment
  BOOST_TEST(after.back() == before.back());

  // Fitting again replaces the previous fit's comment instead of adding one.
  BOOST_TEST(update_platform_levels(updated, "x.yaml", fits, kSources) == updated);
}

BOOST_AUTO_TEST_CASE(platform_update_refuses_flow_style_levels) {
  const std::string flow =
      "name: x\nnodes: {count: 2, sockets: 2, cores_per_socket: 4, core_speed: 1Gf}\n"
      "levels: {intra_socket: {latency: 1us, eager_threshold: 8KiB, bandwidth: 1GB/s}, "
      "inter_socket: {latency: 1us, eager_threshold: 8KiB, bandwidth: 1GB/s}, "
      "inter_node: {latency: 1us, eager_threshold: 8KiB, bandwidth: 1GB/s}}\n"
      "nic: {bandwidth: 1GB/s}\nnetwork: {topology: star}\n";
  BOOST_TEST(error_message([&] {
               update_platform_levels(flow, "x.yaml", two_level_fit(), kSources);
             }).find("x.yaml:3:10: levels.intra_socket: cannot rewrite this level in place") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
