// The flowcut calibration's arithmetic (RR-5910 Sec. 6.1's linear equation)
// and its rewriting of platform files.
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <fstream>

#include "calibrate/flowcut/fit/cut_fit.hpp"
#include "sim/core/error.hpp"

using namespace contend;
using namespace contend::calibrate;
namespace tt = boost::test_tools;

namespace {

// Times the flowcut model gives with the GigaEth / Mpich row of Table 2
// (odd 1, even (3/4, 4/3), C->X-> (0, 3), include 1/2, start/end 0), in
// units of the data time tau, for each flow of conflicts.hpp.
std::vector<RawTime> synthetic_raw(double latency, double tau) {
  const std::vector<std::pair<std::string, std::vector<double>>> runs = {
      {"reference", {1}},
      {"outgo", {2, 2}},
      {"income", {2, 2}},
      {"outgo_income", {1, 1.75}},
      {"even_chain", {1.75, 2, 1.75}},
      {"include", {2, 2, 1.5, 2, 2}},
      {"start_end", {1, 1.75, 1}},
  };
  std::vector<RawTime> raw = {{"latency", 0, 0, 1, latency}};
  for (int rep = 0; rep < 3; ++rep) {
    for (const auto& [name, multiples] : runs) {
      for (std::size_t f = 0; f < multiples.size(); ++f) {
        // Noise on one repetition only: the medians ignore it.
        const double noise = rep == 1 ? 1.3 : 1.0;
        raw.push_back({name, rep, static_cast<int>(f), 8e6, latency + multiples[f] * tau * noise});
      }
    }
  }
  return raw;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(flowcut_calibration)

BOOST_AUTO_TEST_CASE(linear_equation_inverts_the_rate_reading) {
  // Sec. 6.1: T(f1) = T(NC), T(f2) = 1.75 T(NC) gives cuts (0, 3).
  auto [a, b] = cuts_of_two(1.0, 1.75, 1.0);
  BOOST_TEST(a == 0.0);
  BOOST_TEST(b == 3.0, tt::tolerance(1e-12));
  std::tie(a, b) = cuts_of_two(2.0, 2.0, 1.0);  // fair sharing
  BOOST_TEST(a == 1.0);
  BOOST_TEST(b == 1.0);
  std::tie(a, b) = cuts_of_two(1.5, 2.0, 1.0);  // (1/2, 2): ends at 1.5 and 2
  BOOST_TEST(a == 0.5);
  BOOST_TEST(b == 2.0, tt::tolerance(1e-12));
  std::tie(a, b) = cuts_of_two(1.0, 2.5, 1.0);  // the slower one never moved: clamped
  BOOST_TEST(b == kMaxCut);
  std::tie(a, b) = cuts_of_two(0.98, 0.99, 1.0);  // noise below T(NC)
  BOOST_TEST(a == 0.0);
}

BOOST_AUTO_TEST_CASE(fit_recovers_the_table_that_made_the_times) {
  const Calibration c = fit_calibration(synthetic_raw(20e-6, 0.05));
  BOOST_TEST(c.latency == 20e-6);
  BOOST_TEST(c.tau == 0.05, tt::tolerance(1e-9));
  BOOST_TEST(c.repetitions == 3);
  BOOST_TEST(c.table.odd_conflicts.size() == 1u);
  BOOST_TEST(c.table.odd_conflicts[0] == 1.0, tt::tolerance(1e-9));
  BOOST_TEST(c.table.even_conflicts.size() == 2u);
  BOOST_TEST(c.table.even_conflicts[0] == 0.75, tt::tolerance(1e-9));
  BOOST_TEST(c.table.even_conflicts[1] == 4.0 / 3, tt::tolerance(1e-9));
  BOOST_TEST(c.table.incoming == 0.0, tt::tolerance(1e-9));
  BOOST_TEST(c.table.outgoing == 3.0, tt::tolerance(1e-9));
  BOOST_TEST(c.table.include == 0.5, tt::tolerance(1e-9));
  BOOST_TEST(c.table.start_end == 0.0, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(fit_needs_every_conflict) {
  auto raw = synthetic_raw(20e-6, 0.05);
  std::erase_if(raw, [](const RawTime& r) { return r.conflict == "include" && r.flow == 4; });
  BOOST_CHECK_EXCEPTION(fit_calibration(raw), Error, [](const Error& e) {
    return std::string(e.what()).find("lack conflict 'include'") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(section_replaces_only_the_flowcut_block) {
  const std::string section = "  flowcut:\n    new: 1\n";
  const std::string head = "# comment\nname: x\nmodels:\n  maxmin: {}\n";
  BOOST_TEST(replace_flowcut_section(head + "  flowcut:   # old\n    old: 2\n\n    more: 3\n  other: {}\ntail: 1\n",
                                     section) == head + section + "  other: {}\ntail: 1\n");
  BOOST_TEST(replace_flowcut_section(head + "\nnetwork: {}\n", section) == head + section + "\nnetwork: {}\n");
  BOOST_TEST(replace_flowcut_section("name: x\n", section) == "name: x\nmodels:\n" + section);
}

BOOST_AUTO_TEST_CASE(raw_csv_errors_name_the_line) {
  const std::string path = "flowcut-calibration-test.csv";
  const std::string header = "conflict,repetition,flow,src,dst,bytes,seconds\nlatency,0,0,0,1,1,2e-5\n";
  std::ofstream(path) << header << "reference,0,x\n";
  BOOST_CHECK_EXCEPTION(read_raw_csv(path), Error, [&](const Error& e) {
    return std::string(e.what()) == path + ":3:1: expected 7 fields as in the header, got 3";
  });
  std::ofstream(path) << header << "reference,0,x,0,1,8000000,0.05\n";
  BOOST_CHECK_EXCEPTION(read_raw_csv(path), Error, [&](const Error& e) {
    return std::string(e.what()) == path + ":3:13: flow: expected a count (an integer >= 0), got 'x'";
  });
  std::ofstream(path) << header << "reference,0,0,0,1,8000000,-0.05\n";
  BOOST_CHECK_EXCEPTION(read_raw_csv(path), Error, [&](const Error& e) {
    return std::string(e.what()) == path + ":3:27: seconds: expected a time in seconds (a number >= 0), got '-0.05'";
  });
  std::remove(path.c_str());
}

BOOST_AUTO_TEST_SUITE_END()
