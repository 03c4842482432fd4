// Attribution under LogGOPS: which of the sender's CPU (o_s + O_s k) and NIC
// (its gap, then g + G k) bounded the message, then L; hand-computed with
// the parameters of sim_loggops.cpp.
#include <boost/test/unit_test.hpp>

#include "sim/core/datatype.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

const std::string kLogGops =
    "models:\n"
    "  loggops:\n"
    "    default:\n"
    "      eager:\n"
    "        {L: 1us, g: 2us, G: 1ns, datatypes: {contiguous: {o_s: 0.5us, O_s: 0.5ns, o_r: 0.3us, O_r: 0.2ns},\n"
    "         'vector:4,1,4:float': {o_s: 1us, O_s: 2ns, o_r: 1us, O_r: 3ns}}}\n"
    "      rendezvous:\n"
    "        {L: 5us, g: 1us, G: 0.5ns, datatypes: {contiguous: {o_s: 2us, O_s: 0.1ns, o_r: 1us, O_r: 0.1ns}}}\n";

std::string platform() { return platform_yaml(1, 1, 4, levels_yaml("1us", "4KiB", "1GB/s")) + kLogGops; }

const RunOptions kLogGopsAttributed{.model = "loggops", .attribution = true};

}  // namespace

BOOST_AUTO_TEST_CASE(loggops_attribution_nic_gap_then_injection_then_latency) {
  // Two eager 1000-B messages from rank 0: o_s + O_s k = 1 us, g + G k = 3 us.
  // First: the NIC injects it [0, 3 us), then L [3, 4 us). Second: posted at
  // 1 us, waits for the NIC's gap until 3 us, injected [3, 6 us), L [6, 7 us).
  auto w = two_messages(1000, 1000);
  const auto r = run(platform(), w, kLogGopsAttributed);
  const auto& first = attribution_of(r, 0, 1, 0);
  BOOST_TEST_INFO(describe_intervals(first));
  BOOST_TEST_REQUIRE(first.intervals.size() == 2u);
  BOOST_TEST(first.intervals[0].resource == "loggops:nic@rank0");
  BOOST_TEST(first.intervals[0].end == 3e-6, tt::tolerance(1e-12));
  BOOST_TEST(first.intervals[0].rate == 1000 / 3e-6, tt::tolerance(1e-12));
  BOOST_TEST(first.intervals[1].resource == "latency");
  BOOST_TEST(first.intervals[1].end == 4e-6, tt::tolerance(1e-12));
  BOOST_TEST(first.slowdown() == 1.0, tt::tolerance(1e-12));

  const auto& second = attribution_of(r, 0, 1, 1);
  BOOST_TEST_INFO(describe_intervals(second));
  BOOST_TEST_REQUIRE(second.intervals.size() == 3u);
  BOOST_TEST(second.intervals[0].resource == "loggops:nic@rank0");
  BOOST_TEST(second.intervals[0].begin == 1e-6, tt::tolerance(1e-12));
  BOOST_TEST(second.intervals[0].end == 3e-6, tt::tolerance(1e-12));
  BOOST_TEST(second.intervals[0].rate == 0.0);
  BOOST_TEST(second.intervals[0].detail.find("previous message") != std::string::npos);
  BOOST_TEST(second.intervals[1].resource == "loggops:nic@rank0");
  BOOST_TEST(second.intervals[1].end == 6e-6, tt::tolerance(1e-12));
  BOOST_TEST(second.intervals[2].resource == "latency");
  BOOST_TEST(second.intervals[2].end == 7e-6, tt::tolerance(1e-12));
  BOOST_TEST(second.limited_by() == "loggops:nic@rank0");
  BOOST_TEST(second.slowdown() == 6e-6 / 4e-6, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(loggops_attribution_send_overhead_bounds_a_costly_datatype) {
  // 2000 B of vector:4,1,4:float: o_s + O_s k = 1 us + 4 us = 5 us outlasts
  // g + G k = 4 us: the CPU bounds [0, 5 us), then L [5, 6 us).
  std::string error;
  auto w = typed_message(*parse_datatype("vector:4,1,4:float", error), 2000);
  const auto r = run(platform(), w, kLogGopsAttributed);
  const auto& m = attribution_of(r, 0, 1);
  BOOST_TEST_INFO(describe_intervals(m));
  BOOST_TEST_REQUIRE(m.intervals.size() == 2u);
  BOOST_TEST(m.intervals[0].resource == "cpu:o_s");
  BOOST_TEST(m.intervals[0].end == 5e-6, tt::tolerance(1e-12));
  BOOST_TEST(m.intervals[1].resource == "latency");
  BOOST_TEST(m.intervals[1].end == 6e-6, tt::tolerance(1e-12));
  BOOST_TEST(m.limited_by() == "cpu:o_s");
  BOOST_TEST(m.slowdown() == 1.0, tt::tolerance(1e-12));
}
