// Replay of SimGrid time-independent traces (TiWorkload): completion times
// by hand, SimGrid's request semantics (test then wait, waitall), and errors
// that name the trace's file and line.
#include <fmt/format.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "tests/harness/sim_fixture.hpp"
#include "traces/replay/ti_workload.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;
namespace fs = std::filesystem;

namespace {

// 1 GB/s everywhere, eager below 1 KiB, 10 us between nodes; cores at 1 Gflop/s.
std::string two_nodes() { return platform_yaml(2, 1, 1, kGigabyteLevels); }

std::string trace_file(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() / ("contend-ti-replay-" + name + ".txt");
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

BOOST_AUTO_TEST_CASE(ti_compute_then_rendezvous_message) {
  // Rank 0 computes 1 ms (1e6 flops at 1 Gflop/s), then sends 1 MB (125000
  // doubles): it arrives 10 us + 1 ms later; the receiver waited from 0.
  TiWorkload w(trace_file("compute",
                          "0 init\n1 init\n0 compute 1000000\n0 send 1 0 125000 0\n"
                          "1 recv 0 0 125000 0\n0 finalize\n1 finalize\n"));
  const auto r = run(two_nodes(), w);
  const double expected = 1e-3 + 10e-6 + 1e6 / 1e9;
  BOOST_TEST(r.ranks[1].recv_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].total_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(w.action_counts().at("compute") == 1);
  BOOST_TEST(w.action_counts().at("init") == 2);
}

BOOST_AUTO_TEST_CASE(ti_wait_after_a_successful_test_returns_at_once) {
  // The eager 100 B message arrives at 10.1 us; rank 1 tests it at 1 ms
  // (done), sleeps 1 ms more, then waits: nothing left to wait for.
  TiWorkload w(trace_file("test",
                          "0 init\n0 isend 1 4 100 6\n0 wait 0 1 4\n"
                          "1 init\n1 irecv 0 4 100 6\n1 sleep 0.001\n1 test 0 1 4\n1 sleep 0.001\n"
                          "1 wait 0 1 4\n"));
  const auto r = run(two_nodes(), w);
  BOOST_TEST(r.ranks[1].total_time == 2e-3, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[1].recv_time == 10e-6 + 100 / 1e9, tt::tolerance(1e-6));
}

BOOST_AUTO_TEST_CASE(ti_waitall_waits_for_every_pending_request) {
  // Two 1 MB messages from rank 0 to rank 1 share the link: both end at
  // 10 us + 2 ms; waitall on rank 1 returns then.
  TiWorkload w(trace_file("waitall",
                          "0 isend 1 1 1000000\n0 isend 1 2 1000000\n0 waitall 2\n"
                          "1 irecv 0 2 1000000\n1 irecv 0 1 1000000\n1 waitall 2\n"));
  const auto r = run(two_nodes(), w);
  BOOST_TEST(r.ranks[1].total_time == 10e-6 + 2e-3, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].total_time == 10e-6 + 2e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(ti_requests_left_at_the_end_are_completed) {
  TiWorkload w(trace_file("leftover", "0 isend 1 1 1000000\n1 irecv 0 1 1000000\n"));
  const auto r = run(two_nodes(), w);
  BOOST_TEST(r.ranks[1].total_time == 10e-6 + 1e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(ti_wait_for_nothing_posted_names_the_line) {
  const auto path = trace_file("nothing", "0 init\n0 wait 0 1 3\n1 init\n");
  TiWorkload w(path);
  BOOST_TEST(run_error(two_nodes(), w)
                 .find(path + ":2: wait 0 1 3: no isend or irecv with this source, "
                              "destination and tag is pending") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(ti_bad_line_met_during_the_replay_names_the_file_and_line) {
  const auto path = trace_file("bad", "0 init\n1 init\n1 compute 10\n1 recv 0 0 8 77\n");
  TiWorkload w(path);
  BOOST_TEST(run_error(two_nodes(), w).find(path + ":4:14: unknown datatype id '77'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(ti_bcast_of_two_ranks_is_one_message) {
  // 100 B (eager) from root 1 to rank 0: 10 us + 100 ns.
  TiWorkload w(trace_file("bcast", "0 init\n1 init\n0 bcast 100 1 6\n1 bcast 100 1 6\n"));
  const auto r = run(two_nodes(), w);
  BOOST_TEST(r.ranks[0].total_time == 10e-6 + 100 / 1e9, tt::tolerance(1e-9));
  BOOST_TEST(r.total_messages() == 1u);
  BOOST_REQUIRE(messages_between(r, 1, 0).size() == 1u);
}

BOOST_AUTO_TEST_CASE(ti_split_orders_members_by_key_and_carries_their_messages) {
  // Colors by parity, keys reversed: on communicator 1 of the even ranks,
  // local rank 0 is world rank 2 and local rank 1 is world rank 0.
  std::string text;
  for (int r = 0; r < 4; ++r) text += fmt::format("{0} comm_split 0 {1} {2}\n", r, r % 2, -r);
  text += "2 send 1 9 4096 6 comm=1\n0 recv 0 9 4096 6 comm=1\n";
  text += "3 send 1 9 4096 6 comm=1\n1 recv 0 9 4096 6 comm=1\n";
  for (int r = 0; r < 4; ++r)
    text += fmt::format("{} allreduce 8 0 6 comm=1\n{} comm_dup 1\n{} barrier comm=2\n", r, r, r);
  TiWorkload w(trace_file("split", text));
  const auto r = run(platform_yaml(4, 1, 1, kGigabyteLevels), w);
  auto carries_4096 = [&](int src, int dst) {
    const auto list = messages_between(r, src, dst);
    return std::any_of(list.begin(), list.end(), [](const MessageRecord& m) { return m.bytes == 4096; });
  };
  BOOST_TEST(carries_4096(2, 0));
  BOOST_TEST(carries_4096(3, 1));
  BOOST_TEST(!carries_4096(0, 2));
  BOOST_TEST(w.action_counts().at("comm_split") == 4);
  BOOST_TEST(w.action_counts().at("barrier") == 4);
}

BOOST_AUTO_TEST_CASE(ti_a_communicator_never_created_names_the_line) {
  const auto path = trace_file("nocomm", "0 init\n0 barrier comm=1\n1 init\n");
  TiWorkload w(path);
  BOOST_TEST(run_error(two_nodes(), w).find(path + ":2:11: communicator 1 was not created") != std::string::npos);
}
