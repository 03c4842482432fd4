// Running a sweep whoever runs it: shards, what is left to run after an
// earlier run, the progress line.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "sim/core/sweep_output.hpp"
#include "sim/core/sweep_progress.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using contend::test::error_message;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(sweep_output)

BOOST_AUTO_TEST_CASE(shards_take_every_nth_case) {
  const Shard shard = parse_shard("2/3");
  BOOST_TEST(shard.k == 2u);
  BOOST_TEST(shard.n == 3u);
  BOOST_TEST(shard_cases(8, shard) == (std::vector<std::size_t>{1, 4, 7}), boost::test_tools::per_element());
  BOOST_TEST(shard_cases(8, Shard{}).size() == 8u);
  BOOST_TEST(shard_cases(1, Shard{2, 2}).empty());
  for (const char* bad : {"0/2", "3/2", "2", "a/b", "1/0", "1/2/3", "-1/2"})
    BOOST_TEST(error_message([&] { parse_shard(bad); }) ==
               std::string("--shard: expected K/N with 1 <= K <= N (the K-th of N shards), got '") + bad + "'");
}

BOOST_AUTO_TEST_CASE(a_rerun_keeps_finished_cases_with_their_hash) {
  const auto dir = fs::temp_directory_path() / "contend-sweep-output-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string source = CONTEND_SOURCE_DIR;
  std::ofstream(dir / "sweep.yaml") << "platform: " << source << "/platforms/epyc-rome-2node.yaml\npattern: " << source
                                    << "/traces/samples/bidirectional-pairs-4.pattern\n"
                                    << "mapping: [block, cyclic, socket, cross]\n";
  const auto spec = read_sweep((dir / "sweep.yaml").string());
  const auto output = (dir / "results.csv").string();
  const std::vector<std::size_t> all = {0, 1, 2, 3};
  const auto first = plan_sweep(spec, all, output, "1.0");
  BOOST_TEST(first.pending == all, boost::test_tools::per_element());
  BOOST_TEST(first.rows.empty());
  CaseOutcome ok;
  ok.ok = true;
  {
    SweepOutput results(output, spec, {});
    results.add(sweep_row(spec.cases[0], first.hashes[0], encode_outcome(ok)));
    results.add(sweep_row(spec.cases[3], first.hashes[3], failed_outcome("no such mapping", 0.1)));
    results.add(sweep_row(spec.cases[2], "0123456789abcdef", encode_outcome(ok)));  // another case's inputs
    results.finish();
  }
  // Case 0 is kept; 3 failed and 2 changed: they run again, as 1 that never ran.
  const auto second = plan_sweep(spec, all, output, "1.0");
  BOOST_TEST(second.pending == (std::vector<std::size_t>{1, 2, 3}), boost::test_tools::per_element());
  BOOST_REQUIRE(second.rows.size() == 1u);
  BOOST_TEST(second.rows.begin()->first == 0u);
  // Another contend: everything runs again.
  BOOST_TEST(plan_sweep(spec, all, output, "2.0").pending.size() == 4u);
  // A shard reads only its cases.
  BOOST_TEST(plan_sweep(spec, {1, 3}, output, "1.0").pending == (std::vector<std::size_t>{1, 3}),
             boost::test_tools::per_element());
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(the_progress_line_says_what_is_left) {
  BOOST_TEST(SweepProgress::line(0, 10, 0, 0) == "[....................] 0/10 cases");
  BOOST_TEST(SweepProgress::line(5, 10, 1, 30) == "[##########..........] 5/10 cases, 1 failed, 10/min, ETA 30s");
  BOOST_TEST(SweepProgress::line(10, 10, 0, 60) == "[####################] 10/10 cases, 10/min, ETA 0s");
  BOOST_TEST(short_duration(59.2) == "1m00s");
  BOOST_TEST(short_duration(3725) == "1h02m");
  BOOST_TEST(short_duration(12) == "12s");
}

BOOST_AUTO_TEST_SUITE_END()
