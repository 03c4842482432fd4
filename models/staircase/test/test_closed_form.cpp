// Thune et al.'s closed forms against hand-computed cases.
#include <boost/test/unit_test.hpp>

#include "models/staircase/closed_form.hpp"
#include "sim/core/error.hpp"
#include "sim/core/mapping.hpp"
#include "tests/harness/error_message.hpp"
#include "tests/harness/platform_text.hpp"

using namespace contend;
namespace tt = boost::test_tools;

namespace {

const std::string kLevels =
    test::levels_yaml({"1us", "2us", "3us"}, "1",
                      {"{1: 100MB/s, 2: 150MB/s, 3: 180MB/s}", "{1: 50MB/s, 2: 80MB/s}", "{1: 100MB/s, 2: 150MB/s}"});

Platform platform(int nodes = 1, int sockets = 1, int cores = 4) {
  return test::parse_platform_text(test::platform_yaml(nodes, sockets, cores, kLevels, "{topology: star}"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(closed_form)

BOOST_AUTO_TEST_CASE(eq5_staircase_of_three_processes) {
  // BW_MP(1..3) = 100, 150, 180 MB/s; volumes 1, 2, 4 MB (given out of order).
  const auto t = staircase_receive_times({4e6, 1e6, 2e6}, [](double n) {
    return n >= 3 ? 180e6 : n >= 2 ? 150e6 : 100e6;
  });
  BOOST_TEST(t[1] == 3 * 1e6 / 180e6, tt::tolerance(1e-12));                       // t_0 = N s_0 / BW(N)
  BOOST_TEST(t[2] == 1.0 / 60 + 2 * 1e6 / 150e6, tt::tolerance(1e-12));            // + (N-1)(s_1 - s_0)/BW(N-1)
  BOOST_TEST(t[0] == 1.0 / 60 + 2e6 / 150e6 + 2e6 / 100e6, tt::tolerance(1e-12));  // + (s_2 - s_1)/BW(1)
}

BOOST_AUTO_TEST_CASE(eq9_messages_of_one_process) {
  // Sizes 1 and 3 MB, the process done at 2 s: t_0 = 2 * 1/4 * 2 = 1 s, t_1 = 2 s.
  const auto t = staircase_message_times({3e6, 1e6}, 2.0);
  BOOST_TEST(t[1] == 1.0, tt::tolerance(1e-12));
  BOOST_TEST(t[0] == 2.0, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(eq13_mixed_socket) {
  // p0 receives 1 MB intra-socket, p1 1 MB inter-socket; BW_on(2) = 160,
  // BW_off(2) = 80 MB/s: p0 at 80 MB/s, p1 at 40 MB/s. p0 done at 0.0125 s,
  // p1 has 0.5 MB left, alone at BW_off(1) = 50 MB/s: done at 0.0225 s.
  const auto on = BandwidthTable::from_points({{1, 100e6}, {2, 160e6}});
  const auto off = BandwidthTable::from_points({{1, 50e6}, {2, 80e6}});
  const auto t = mixed_receive_times({1e6, 0}, {0, 1e6}, on, off);
  BOOST_TEST(t[0] == 0.0125, tt::tolerance(1e-12));
  BOOST_TEST(t[1] == 0.0225, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(eq12_theta_mixes_both_bandwidths) {
  // One process with 3 MB on and 1 MB off (theta = 3/4) alone: BW_mix(1) =
  // 3/4 100 + 1/4 50 = 87.5 MB/s for 4 MB.
  const auto on = BandwidthTable::from_points({{1, 100e6}});
  const auto off = BandwidthTable::from_points({{1, 50e6}});
  const auto t = mixed_receive_times({3e6}, {1e6}, on, off);
  BOOST_TEST(t[0] == 4e6 / 87.5e6, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(analyze_staircase_with_latencies_and_send_times) {
  // One socket, block mapping: 0 -> 1 (1 MB) and 2 -> 3 (3 MB), and 1 -> 0 (1 MB).
  const auto p = platform();
  const auto m = make_mapping("block", 4, p.nodes, false);
  const std::vector<PatternMessage> msgs = {{0, 1, 1000000}, {2, 3, 3000000}, {1, 0, 1000000}};
  const auto r = analyze(p, m, msgs, ClosedForm::Staircase);
  // Receivers 0, 1, 3 with 1, 1, 3 MB: n = 3 at 180 MB/s -> 1 MB each after
  // 3/180 s; rank 3 alone then at 100 MB/s for 2 MB: 3/180 + 0.02 s.
  const double t01 = 3e6 / 180e6;
  BOOST_TEST(r[1].intra_node_time == 1e-6 + t01, tt::tolerance(1e-12));
  BOOST_TEST(r[3].intra_node_time == 1e-6 + t01 + 2e6 / 100e6, tt::tolerance(1e-12));
  // Rank 2 receives nothing but waits for its message to reach rank 3 (eq. (8)).
  BOOST_TEST(r[2].intra_node_time == t01 + 0.02, tt::tolerance(1e-12));
  BOOST_TEST(r[2].inter_node_time == 0.0);
  BOOST_TEST(r[3].total_time == r[3].intra_node_time);
}

BOOST_AUTO_TEST_CASE(analyze_max_rate_and_extended) {
  // Two receivers on one socket, 1 MB and 3 MB, BW_SP 100 MB/s, BW_max 180 MB/s.
  const auto p = platform();
  const auto m = make_mapping("block", 4, p.nodes, false);
  const std::vector<PatternMessage> msgs = {{0, 1, 1000000}, {2, 3, 3000000}};
  const auto mr = analyze(p, m, msgs, ClosedForm::MaxRate);
  // Eq. (2)-(3): N V_i / min(N BW_SP, BW_max) = 2 V_i / 180 MB/s.
  BOOST_TEST(mr[1].total_time == 1e-6 + 2e6 / 180e6, tt::tolerance(1e-12));
  BOOST_TEST(mr[3].total_time == 1e-6 + 6e6 / 180e6, tt::tolerance(1e-12));
  const auto emr = analyze(p, m, msgs, ClosedForm::ExtendedMaxRate);
  // Eq. (10): max(min(V_total, N V_i) / BW_max, V_i / BW_SP).
  BOOST_TEST(emr[1].total_time == 1e-6 + std::max(2e6 / 180e6, 1e6 / 100e6), tt::tolerance(1e-12));
  BOOST_TEST(emr[3].total_time == 1e-6 + std::max(4e6 / 180e6, 3e6 / 100e6), tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(analyze_sums_levels_as_eq18) {
  // Two nodes: rank 0 -> 2 inter-node (1 MB), rank 1 -> 0 intra-socket (1 MB).
  const auto p = platform(2, 1, 2);
  const auto m = make_mapping("block", 4, p.nodes, false);
  const std::vector<PatternMessage> msgs = {{0, 2, 1000000}, {1, 0, 1000000}};
  const auto r = analyze(p, m, msgs, ClosedForm::Staircase);
  BOOST_TEST(r[0].inter_node_time == 1e6 / 100e6, tt::tolerance(1e-12));  // its message's delivery (t_send)
  BOOST_TEST(r[0].intra_node_time == 1e-6 + 1e6 / 100e6, tt::tolerance(1e-12));
  BOOST_TEST(r[0].total_time == r[0].intra_node_time + r[0].inter_node_time, tt::tolerance(1e-12));
  BOOST_TEST(r[2].inter_node_time == 3e-6 + 1e6 / 100e6, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(unknown_closed_form) {
  BOOST_TEST(test::error_message([] { closed_form_by_name("maxrate"); }) ==
             "analyze: unknown model 'maxrate' (did you mean 'max-rate'?); valid models: staircase, max-rate, "
             "extended-max-rate");
}

BOOST_AUTO_TEST_SUITE_END()
