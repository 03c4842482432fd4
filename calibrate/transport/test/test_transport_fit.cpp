// The transport buffering fit (calibrate/transport/fit): a known buffer B
// recovered from synthetic send and receive completions, B = 0 for a single
// copy, the lower bound when every message fits in the buffer, raw CSV
// errors, and the platform update read back with the YAML reader.
#include <boost/test/unit_test.hpp>
#include <random>
#include <sstream>

#include "calibrate/transport/fit/transport_fit.hpp"
#include "sim/core/units.hpp"
#include "sim/core/yaml_field.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using namespace contend::calibrate;
using contend::test::error_message;

namespace {

// A transport that delivers at `bw` after `latency` and completes the send
// when `buffer` bytes remain undelivered (at once for a message that fits),
// with multiplicative noise of +-`noise` on every time.
std::vector<TransportSample> synthetic(Level level, double latency, double bw, double buffer, double noise,
                                       unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(1 - noise, 1 + noise);
  std::vector<TransportSample> out;
  for (std::uint64_t size = 64 * 1024; size <= 8 * 1024 * 1024; size *= 2) {
    for (int sample = 0; sample < 5; ++sample) {
      const double s = static_cast<double>(size);
      const double recv = latency + s / bw;
      const double send = s <= buffer ? latency / 10 : recv - buffer / bw;
      out.push_back({level, "isend", size, send * jitter(rng), recv * jitter(rng)});
    }
  }
  return out;
}

const char* kPlatform = R"(name: small
nodes: {count: 2, sockets: 1, cores_per_socket: 2, core_speed: 1Gf}
levels:
  intra_socket:
    latency: 1us
    eager_threshold: 4KiB   # vader
    bandwidth:
      1: 5GB/s
      2: 8GB/s
  inter_socket: {latency: 1us, eager_threshold: 4KiB, bandwidth: 1GB/s}
  inter_node:
    latency: 50us
    eager_threshold: 64KiB
    bandwidth: 12.5MB/s
nic: {bandwidth: 100Mbps}
network: {topology: star}
)";

}  // namespace

BOOST_AUTO_TEST_SUITE(transport_fit)

BOOST_AUTO_TEST_CASE(recovers_a_known_buffer_exactly) {
  const auto fits = fit_transport(synthetic(Level::InterNode, 1e-3, 11.7e6, 320 * 1024, 0, 1));
  const auto& f = fits.at(Level::InterNode);
  BOOST_TEST(f.bandwidth == 11.7e6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(f.latency == 1e-3, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(f.buffer == 320 * 1024.0, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(f.buffer_bytes() == 320u * 1024);
  BOOST_TEST(!f.lower_bound);
  // 64 KiB .. 256 KiB fit in the buffer (sends complete at once); the largest
  // backlog is 320 KiB, so sizes from 640 KiB are informative: 1 MiB .. 8 MiB
  BOOST_TEST(f.informative_sizes == 4);
  for (const auto& e : f.sizes) BOOST_TEST(e.informative == (e.size >= 1024 * 1024));
}

BOOST_AUTO_TEST_CASE(recovers_a_known_buffer_under_noise) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const double buffer = 100 * 1024.0 * seed;
    const auto f = fit_transport(synthetic(Level::InterNode, 25e-6, 11.7e6, buffer, 0.002, seed)).at(Level::InterNode);
    // 0.2 % on times of up to 0.7 s moves B by up to ~2 * 0.002 * 0.7 s * 11.7 MB/s: allow 20 % or 40 KiB
    BOOST_TEST(std::abs(f.buffer - buffer) <= std::max(0.2 * buffer, 40 * 1024.0), "seed " << seed << ": " << f.buffer);
    BOOST_TEST(f.spread_low <= f.buffer);
    BOOST_TEST(f.spread_high >= f.buffer);
  }
}

BOOST_AUTO_TEST_CASE(single_copy_gives_zero) {
  // The sender completes after the receiver (the copy's acknowledgement): nothing buffered.
  std::vector<TransportSample> samples;
  for (std::uint64_t size = 64 * 1024; size <= 8 * 1024 * 1024; size *= 2) {
    const double recv = 2e-6 + static_cast<double>(size) / 5e9;
    samples.push_back({Level::IntraSocket, "isend", size, recv + 1e-6, recv});
  }
  const auto f = fit_transport(samples).at(Level::IntraSocket);
  BOOST_TEST(f.buffer == 0);
  BOOST_TEST(f.buffer_bytes() == 0u);
  BOOST_TEST(f.informative_sizes == 8);
}

BOOST_AUTO_TEST_CASE(every_message_buffered_is_a_lower_bound) {
  const auto f = fit_transport(synthetic(Level::InterNode, 1e-3, 11.7e6, 64e6, 0, 1)).at(Level::InterNode);
  BOOST_TEST(f.lower_bound);
  BOOST_TEST(f.informative_sizes == 0);
  BOOST_TEST(f.buffer_bytes() == 8u * 1024 * 1024);  // the largest message, clamped to its size
}

BOOST_AUTO_TEST_CASE(unfittable_series_are_refused) {
  BOOST_TEST(
      error_message([] {
        fit_transport({{Level::InterNode, "isend", 1024, 0.1, 0.2}, {Level::InterNode, "isend", 1024, 0.1, 0.2}});
      }) == "inter_node: one message size only: the delivery rate needs two or more");
  BOOST_TEST(
      error_message([] {
        fit_transport({{Level::InterNode, "isend", 1024, 0.1, 0.2}, {Level::InterNode, "isend", 2048, 0.1, 0.2}});
      }) == "inter_node: the receive time does not grow with the message size: no delivery rate can be fitted");
  BOOST_TEST(error_message([] {
               fit_transport({{Level::InterNode, "isend", 1024, 0.1, 0.2}, {Level::InterNode, "send", 2048, 0.1, 0.3}});
             }) == "inter_node: samples of both --call isend and send: fit one call per level");
}

BOOST_AUTO_TEST_CASE(raw_csv_and_its_errors) {
  std::istringstream good("# comment\nlevel,call,size,sample,send_s,recv_s\ninter_node,send,65536,0,1e-4,0.006\n");
  const auto samples = read_transport_csv(good, "raw.csv");
  BOOST_TEST(samples.size() == 1u);
  BOOST_TEST(samples[0].call == "send");
  BOOST_TEST(samples[0].size == 65536u);
  auto fails = [](const std::string& text) {
    return error_message([&] {
      std::istringstream in(text);
      read_transport_csv(in, "raw.csv");
    });
  };
  const std::string header = "level,call,size,sample,send_s,recv_s\n";
  BOOST_TEST(fails(header + "inter_nod,isend,1,0,0,1\n") ==
             "raw.csv:2:1: level: unknown 'inter_nod' (did you mean 'inter_node'?); expected one of: intra_socket, "
             "inter_socket, inter_node");
  BOOST_TEST(fails(header + "inter_node,irecv,1,0,0,1\n") ==
             "raw.csv:2:12: call: expected 'isend' or 'send', got 'irecv'");
  BOOST_TEST(fails(header + "inter_node,isend,1,0,-1,1\n") == "raw.csv:2:22: send_s: expected a time in seconds (a number >= 0), got '-1'");
  BOOST_TEST(fails(header + "inter_node,isend,1,0,0,0\n") ==
             "raw.csv:2:24: recv_s: expected a positive number of seconds");
  BOOST_TEST(fails(header) == "raw.csv:1: no measurements after the header");
}

BOOST_AUTO_TEST_CASE(platform_update_writes_only_the_key_and_its_comment) {
  auto fits = fit_transport(synthetic(Level::InterNode, 1e-3, 11.7e6, 320 * 1024, 0, 1));
  const std::string once = update_platform_transport(kPlatform, "small.yaml", fits, {{Level::InterNode, "raw.csv"}});
  const YamlField root = YamlField::load_string(once, "small.yaml");
  BOOST_TEST(root.child("levels").child("inter_node").child("transport_buffer").as_string() == "320KiB");
  BOOST_TEST(!root.child("levels").child("intra_socket").child("transport_buffer").present());
  // Every line of the input is still there, in order; two lines were added.
  std::istringstream before(kPlatform), after(once);
  std::string a, b;
  int added = 0;
  while (std::getline(before, a)) {
    while (std::getline(after, b) && b != a) ++added;
    BOOST_TEST(b == a);
  }
  while (std::getline(after, b)) ++added;
  BOOST_TEST(added == 2);
  BOOST_TEST(once.find("    # transport_buffer: bytes undelivered when MPI_Isend + MPI_Wait completed") !=
             std::string::npos);
  // A second fit replaces the first one's comment and value.
  fits = fit_transport(synthetic(Level::InterNode, 1e-3, 11.7e6, 100 * 1024, 0, 1));
  const std::string twice = update_platform_transport(once, "small.yaml", fits, {{Level::InterNode, "raw2.csv"}});
  const YamlField again = YamlField::load_string(twice, "small.yaml");
  BOOST_TEST(again.child("levels").child("inter_node").child("transport_buffer").as_string() == "100KiB");
  BOOST_TEST(std::count(twice.begin(), twice.end(), '\n') == std::count(once.begin(), once.end(), '\n'));
  BOOST_TEST(twice.find("raw.csv") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(platform_update_keeps_nested_maps_and_refuses_flow_levels) {
  auto fits = fit_transport(synthetic(Level::IntraSocket, 2e-6, 5e9, 0, 0, 1));
  const std::string out = update_platform_transport(kPlatform, "small.yaml", fits, {});
  const YamlField intra = YamlField::load_string(out, "small.yaml").child("levels").child("intra_socket");
  BOOST_TEST(intra.child("bandwidth").child("2").as_string() == "8GB/s");
  BOOST_TEST(intra.child("transport_buffer").as_string() == "0");
  fits = fit_transport(synthetic(Level::InterSocket, 2e-6, 5e9, 0, 0, 1));
  BOOST_TEST(error_message([&] { update_platform_transport(kPlatform, "small.yaml", fits, {}); }) ==
             "small.yaml:10:3: levels.inter_socket: cannot add transport_buffer to this level in place: write "
             "'inter_socket' in block style (one key per line)");
}

BOOST_AUTO_TEST_SUITE_END()
