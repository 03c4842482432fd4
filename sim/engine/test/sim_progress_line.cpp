// The progress line of a long run (contend simulate on a terminal):
// what it shows, and that it changes no result.
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <string>

#include "sim/engine/mpi.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;

namespace {

// Rank 0 sends 200 messages of growing size to rank 1, one after the other:
// one simulated time step per message at least.
ScriptWorkload message_train() {
  return ScriptWorkload(2, [](Mpi& mpi) {
    for (int i = 1; i <= 200; ++i) {
      if (mpi.rank() == 0) mpi.send(1, static_cast<std::uint64_t>(1000 * i));
      if (mpi.rank() == 1) mpi.recv(0, static_cast<std::uint64_t>(1000 * i));
    }
  });
}

std::string read_all(std::FILE* f) {
  std::rewind(f);
  std::string text;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) text.push_back(static_cast<char>(c));
  return text;
}

}  // namespace

BOOST_AUTO_TEST_CASE(progress_line_is_rewritten_in_place_and_changes_no_result) {
  std::FILE* out = std::tmpfile();
  BOOST_REQUIRE(out != nullptr);
  RunOptions options;
  options.progress_line = {true, 0, 0, out};  // from the start, at every check
  auto workload = message_train();
  const Results shown = run(platform_yaml(2, 1, 1, kGigabyteLevels), workload, options);
  const std::string text = read_all(out);
  std::fclose(out);

  BOOST_TEST(text.rfind("\rsimulated ", 0) == 0);
  // Checked at MPI calls too, so the last line may come before the last
  // post: read the first line's fields, whatever their values.
  double simulated = -1, wall = -1, rate = -1;
  unsigned long long delivered = 0, posted = 0;
  BOOST_TEST(std::sscanf(text.c_str(),
                         "\rsimulated %lf s, %llu of %llu posted messages delivered, wall %lf s, %lf messages/s",
                         &simulated, &delivered, &posted, &wall, &rate) == 5);
  BOOST_TEST(delivered <= posted);
  BOOST_TEST(posted <= 200u);
  BOOST_TEST(text.find("messages/s\033[K\r") != std::string::npos);  // several lines, each over the last
  BOOST_TEST(text.back() == '\n');                                   // the last one ended for what follows
  BOOST_TEST(text.find('\n') == text.size() - 1);

  // The run without the line (one SimGrid engine per process: by closed
  // form): 200 messages one after the other between two nodes, each the
  // inter-node latency plus its bytes at 1 GB/s.
  const double expected = 200 * 10e-6 + 1000.0 * (200 * 201 / 2) / 1e9;
  BOOST_TEST(shown.ranks[0].send_time == expected, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(shown.ranks[1].recv_time == expected, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(progress_line_waits_for_a_long_run) {
  std::FILE* out = std::tmpfile();
  BOOST_REQUIRE(out != nullptr);
  RunOptions options;
  options.progress_line = {true, 3600, 0.5, out};  // a run of an hour: none here
  auto workload = message_train();
  run(platform_yaml(2, 1, 1, kGigabyteLevels), workload, options);
  BOOST_TEST(read_all(out).empty());
  std::fclose(out);
}
