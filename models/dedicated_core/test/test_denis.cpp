// Denis et al.'s dedicated-core model (CCGRID 2022, Sec. III-D) and the
// profile CSV it reads.
#include <boost/test/unit_test.hpp>
#include <sstream>

#include "models/dedicated_core/denis_model.hpp"
#include "sim/core/error.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
namespace tt = boost::test_tools;

namespace {

// Table I, Kripke case #1 (N_blocking is not in the table: 10 here).
ProgressProfile kripke1() {
  ProgressProfile p;
  p.t_noprogress = 147;
  p.t_comp = 73.6;
  p.n_nonblocking = 480000;
  p.t_min_nonblocking = 2.14e-5;
  p.n_test = 1119810;
  p.t_min_test = 2.05e-5;
  p.n_wait = 10000;
  p.t_min_wait = 3.2e-5;
  p.n_blocking = 10;
  p.t_blocking = 11.7;
  p.t_other = 0;
  return p;
}

std::vector<ProgressProfile> read(const std::string& text) {
  std::istringstream in(text);
  return read_progress_profile(in, "p.csv");
}

std::string error_of(const std::string& text) {
  return test::error_message([&] { read(text); });
}

const std::string kHeader =
    "rank,t_noprogress,t_comp,n_nonblocking,t_min_nonblocking,n_test,t_min_test,n_wait,t_min_wait,n_blocking,"
    "t_blocking,t_other\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(denis_model)

BOOST_AUTO_TEST_CASE(every_term_of_section_3d) {
  const auto t = denis_dedicated(kripke1(), 16, 0);
  BOOST_TEST(t.t_newcomp == 73.6 * 16 / 15, tt::tolerance(1e-14));
  BOOST_TEST(t.t_overhead == 73.6 / 15, tt::tolerance(1e-12));
  BOOST_TEST(t.nonblocking == 10.272, tt::tolerance(1e-14));
  BOOST_TEST(t.tests == 22.956105, tt::tolerance(1e-14));
  BOOST_TEST(t.waits == 0.32, tt::tolerance(1e-14));
  BOOST_TEST(t.blocking_com == 1.17, tt::tolerance(1e-14));
  BOOST_TEST(t.transformed == 0.0);
  BOOST_TEST(t.kept_blocking == 11.7, tt::tolerance(1e-14));
  BOOST_TEST(t.t_mpi_dedicated == 10.272 + 22.956105 + 0.32 + 11.7, tt::tolerance(1e-14));
  BOOST_TEST(t.t_dedicated == 73.6 * 16 / 15 + 45.248105, tt::tolerance(1e-14));
  BOOST_TEST(t.t_mpi == 147 - 73.6, tt::tolerance(1e-14));  // no t_mpi column
  BOOST_TEST(t.speedup == 147 / (73.6 * 16 / 15 + 45.248105), tt::tolerance(1e-14));
}

BOOST_AUTO_TEST_CASE(alpha_turns_blocking_calls_into_minimal_nonblocking_ones) {
  const auto t = denis_dedicated(kripke1(), 16, 1);
  BOOST_TEST(t.transformed == 10 * (2.14e-5 + 3.2e-5), tt::tolerance(1e-14));
  BOOST_TEST(t.kept_blocking == 0.0);
  const auto half = denis_dedicated(kripke1(), 16, 0.5);
  BOOST_TEST(half.kept_blocking == 5.85, tt::tolerance(1e-14));
  BOOST_TEST(half.transformed == 5 * (2.14e-5 + 3.2e-5), tt::tolerance(1e-14));
}

BOOST_AUTO_TEST_CASE(the_slowest_rank_decides) {
  auto a = kripke1();
  auto b = kripke1();
  b.rank = 1;
  b.t_comp = 100;  // slower with a dedicated core
  const auto v = denis_verdict({a, b}, 16, 0);
  BOOST_TEST(v.slowest_rank == 1);
  BOOST_TEST(v.t_dedicated == denis_dedicated(b, 16, 0).t_dedicated);
  BOOST_TEST(v.t_noprogress == 147);
  BOOST_TEST(v.pays_off() == (v.t_dedicated < 147));
}

BOOST_AUTO_TEST_CASE(bad_cores_and_alpha) {
  BOOST_TEST(test::error_message([] { denis_dedicated(kripke1(), 1, 0); }) ==
             "--cores: a dedicated core needs at least 2 cores per rank, got 1");
  BOOST_TEST(test::error_message([] { denis_dedicated(kripke1(), 16, 1.5); }) ==
             "--alpha: expected a ratio in [0, 1], got 1.5");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(progress_profile)

BOOST_AUTO_TEST_CASE(reads_columns_in_any_order) {
  const auto rows = read(
      "# Kripke\nt_other,rank,t_noprogress,t_comp,n_nonblocking,t_min_nonblocking,n_test,"
      "t_min_test,n_wait,t_min_wait,n_blocking,t_blocking,t_mpi\n"
      "0.5, 3, 147, 73.6, 480000, 2.14e-05, 1119810, 2.05e-05, 10000, 3.2e-05, 4, 11.7, 73.4  # x\n");
  BOOST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(rows[0].rank == 3);
  BOOST_TEST(rows[0].t_other == 0.5);
  BOOST_TEST(rows[0].n_test == 1119810);
  BOOST_TEST(rows[0].mpi_time() == 73.4);
}

BOOST_AUTO_TEST_CASE(errors_name_line_and_column) {
  BOOST_TEST(error_of("rank,t_noprogres\n") ==
             "p.csv:1:6: unknown column 't_noprogres' (did you mean 't_noprogress'?); expected rank, t_noprogress, "
             "t_comp, n_nonblocking, t_min_nonblocking, n_test, t_min_test, n_wait, t_min_wait, n_blocking, "
             "t_blocking, t_other, t_mpi");
  BOOST_TEST(error_of("rank,t_comp\n") ==
             "p.csv:1:1: missing column 't_noprogress'; the header needs rank, t_noprogress, t_comp, n_nonblocking, "
             "t_min_nonblocking, n_test, t_min_test, n_wait, t_min_wait, n_blocking, t_blocking, t_other");
  BOOST_TEST(error_of(kHeader + "0,10,5,1,1e-6,0,0,1,x,0,0,0\n") ==
             "p.csv:2:21: t_min_wait: expected a time in seconds (a number >= 0), got 'x'");
  BOOST_TEST(error_of(kHeader + "0,10,5,1.5,1e-6,0,0,1,0,0,0,0\n") ==
             "p.csv:2:8: n_nonblocking: expected a count (an integer >= 0), got '1.5'");
  BOOST_TEST(error_of(kHeader + "0,10,5,1,1e-6,0,0,1,0,0,0,0\n0,10,5,1,1e-6,0,0,1,0,0,0,0\n") ==
             "p.csv:3:1: rank 0 given twice");
  BOOST_TEST(error_of(kHeader + "0,10,11,1,1e-6,0,0,1,0,0,0,0\n") ==
             "p.csv:2:6: t_comp (11) exceeds t_noprogress (10): the time outside MPI cannot exceed the run time");
  BOOST_TEST(error_of(kHeader + "0,10,5,1,1e-6,0,0,1,0,0,2,0\n") ==
             "p.csv:2:23: n_blocking: t_blocking is 2 s but no blocking call is counted");
  BOOST_TEST(error_of(kHeader + "0,10,5\n") == "p.csv:2:1: expected 12 fields as in the header, got 3");
  BOOST_TEST(error_of(kHeader) == "p.csv:1: the profile has a header but no rank");
}

BOOST_AUTO_TEST_SUITE_END()
