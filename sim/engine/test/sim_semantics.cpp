// MPI semantics: protocols, matching, completion times by hand, deadlocks.
#include <boost/test/unit_test.hpp>

#include "sim/engine/mpi.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

std::string two_nodes() { return platform_yaml(2, 1, 2, kGigabyteLevels); }

}  // namespace

BOOST_AUTO_TEST_CASE(one_message_costs_latency_plus_size_over_bandwidth) {
  const auto r = run_pattern(two_nodes(), {{0, 1, 1000000}}, 2, {.mapping = "cyclic"});
  const double expected = 10e-6 + 1e6 / 1e9;
  BOOST_TEST(r.ranks[1].recv_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].send_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].total_time == expected, tt::tolerance(1e-9));  // rendezvous: done at delivery
  BOOST_TEST(r.levels[2].messages == 1u);
  BOOST_REQUIRE(r.messages.size() == 1u);
  BOOST_TEST(r.messages[0].start == 0.0);
  BOOST_TEST(r.messages[0].end == expected, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(two_equal_flows_on_one_link_finish_together_at_twice_the_time) {
  // Block mapping: ranks 0, 1 on node 0, ranks 2, 3 on node 1; both messages
  // leave node 0 through its NIC (1 GB/s for any number of flows).
  const auto r = run_pattern(two_nodes(), {{0, 2, 1000000}, {1, 3, 1000000}}, 4);
  const double expected = 10e-6 + 2 * 1e6 / 1e9;
  BOOST_TEST(r.ranks[2].recv_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[3].recv_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].total_time == r.ranks[1].total_time);
}

BOOST_AUTO_TEST_CASE(rendezvous_sender_completes_when_its_message_is_delivered) {
  auto w = late_receive(1000000, 1e-3);  // the receive is posted late: the data waits for it
  const auto r = run(two_nodes(), w, {.mapping = "cyclic"});
  const double expected = 1e-3 + 10e-6 + 1e-3;
  BOOST_TEST(r.ranks[0].total_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[1].recv_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(r.messages[0].start == 1e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(eager_sender_completes_at_once_and_receive_at_post) {
  auto w = late_receive(100, 1e-3);
  const auto r = run(two_nodes(), w, {.mapping = "cyclic"});
  BOOST_TEST(r.ranks[0].total_time == 0.0);                                 // completed locally
  BOOST_TEST(r.ranks[0].send_time == 10e-6 + 100e-9, tt::tolerance(1e-9));  // delivered into the buffer
  BOOST_TEST(r.ranks[1].recv_time == 1e-3, tt::tolerance(1e-12));           // copied out when posted
}

BOOST_AUTO_TEST_CASE(eager_below_threshold_rendezvous_at_it) {
  // 1023 B is eager (sender done at 0), 1024 B is rendezvous (sender done at delivery).
  ScriptWorkload w(4, [](Mpi& mpi) {
    if (mpi.rank() == 0) mpi.send(1, 1023);
    if (mpi.rank() == 1) mpi.recv(0, 1023);
    if (mpi.rank() == 2) mpi.send(3, 1024);
    if (mpi.rank() == 3) mpi.recv(2, 1024);
  });
  const auto r = run(platform_yaml(4, 1, 1, kGigabyteLevels), w);
  BOOST_TEST(r.ranks[0].total_time == 0.0);
  BOOST_TEST(r.ranks[2].total_time == 10e-6 + 1024e-9, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(messages_match_in_order_without_overtaking) {
  // The 500-byte receive would be truncated if matched with the 900-byte message.
  auto w = two_messages(500, 900);
  const auto r = run(two_nodes(), w);
  const auto m = messages_between(r, 0, 1);
  BOOST_REQUIRE(m.size() == 2u);
  BOOST_TEST(m[0].bytes == 500u);
  BOOST_TEST(m[1].bytes == 900u);
}

BOOST_AUTO_TEST_CASE(truncation_is_an_error) {
  ScriptWorkload w(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) mpi.send(1, 900);
    if (mpi.rank() == 1) mpi.recv(0, 500);
  });
  BOOST_TEST(run_error(two_nodes(), w) ==
             "message truncated: rank 1 receives 900 bytes from rank 0 (tag 0) into a 500-byte receive");
}

BOOST_AUTO_TEST_CASE(tags_select_messages) {
  ScriptWorkload w(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.send(1, 100, 5);
      mpi.send(1, 200, 7);
    } else {
      mpi.recv(0, 200, 7);  // tag 7 first, though it was sent second
      mpi.recv(0, 100, 5);
    }
  });
  const auto r = run(two_nodes(), w);
  BOOST_TEST(r.messages.size() == 2u);
  BOOST_TEST(r.warnings.empty());
}

BOOST_AUTO_TEST_CASE(any_source_takes_the_earliest_arrival) {
  ScriptWorkload w(3, [](Mpi& mpi) {
    if (mpi.rank() == 1) {
      mpi.sleep(1e-3);
      mpi.send(0, 300);
    } else if (mpi.rank() == 2) {
      mpi.send(0, 200);
    } else {
      mpi.sleep(2e-3);
      mpi.recv(Mpi::kAnySource, 200);  // rank 2's message arrived first; rank 1's would not fit
      mpi.recv(Mpi::kAnySource, 300);
    }
  });
  const auto r = run(platform_yaml(1, 1, 3, kGigabyteLevels), w);
  BOOST_TEST(r.warnings.empty());
  BOOST_TEST(r.ranks[0].recv_time == 2e-3, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(deadlock_of_two_blocking_rendezvous_sends_is_reported) {
  ScriptWorkload w(2, [](Mpi& mpi) {
    const int peer = 1 - mpi.rank();
    mpi.send(peer, 1 << 20);
    mpi.recv(peer, 1 << 20);
  });
  BOOST_TEST(run_error(two_nodes(), w) ==
             "deadlock at t = 0 s: 2 of 2 ranks can never progress\n"
             "  rank 0 (node 0 socket 0 core 0) waits for its rendezvous send to rank 1 (tag 0, comm 0, 1048576 B, "
             "posted at 0 s) that no receive matches\n"
             "  rank 1 (node 0 socket 0 core 1) waits for its rendezvous send to rank 0 (tag 0, comm 0, 1048576 B, "
             "posted at 0 s) that no receive matches");
}

BOOST_AUTO_TEST_CASE(deadlock_on_a_receive_nobody_sends) {
  ScriptWorkload w(3, [](Mpi& mpi) {
    if (mpi.rank() == 0) mpi.recv(2, 8, 3);
    if (mpi.rank() == 1) mpi.sleep(0.5);
  });
  BOOST_TEST(run_error(two_nodes(), w) ==
             "deadlock at t = 0.5 s: 1 of 3 ranks can never progress\n"
             "  rank 0 (node 0 socket 0 core 0) waits for a receive from rank 2 (tag 3, comm 0, 8 B, posted at 0 s) "
             "that no send matches");
}

BOOST_AUTO_TEST_CASE(unreceived_message_is_a_warning) {
  ScriptWorkload w(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) mpi.send(1, 100);
  });
  const auto r = run(two_nodes(), w);
  BOOST_REQUIRE(r.warnings.size() == 1u);
  BOOST_TEST(r.warnings[0] == "rank 1 never received a 100-byte message from rank 0 (tag 0)");
}

BOOST_AUTO_TEST_CASE(message_to_self) {
  ScriptWorkload w(1, [](Mpi& mpi) {
    auto s = mpi.isend(0, 1000000);
    auto q = mpi.irecv(0, 1000000);
    mpi.waitall({s, q});
  });
  const auto r = run(two_nodes(), w);
  BOOST_TEST(r.levels[0].messages == 1u);
  BOOST_TEST(r.ranks[0].total_time == 1e-6 + 1e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(compute_takes_flops_over_core_speed) {
  ScriptWorkload w(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) mpi.compute(5e8);  // 1 Gflop/s cores
    mpi.send(1 - mpi.rank(), 10);
    mpi.recv(1 - mpi.rank(), 10);
  });
  const auto r = run(two_nodes(), w);
  // Rank 1's eager message waits in rank 0's buffer; rank 0 is done right after computing.
  BOOST_TEST(r.ranks[0].total_time == 0.5, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[1].total_time == 0.5 + 1e-6 + 10e-9, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(oversubscribed_ranks_share_their_core) {
  ScriptWorkload w(2, [](Mpi& mpi) { mpi.compute(1e9); });
  const auto r = run(platform_yaml(1, 1, 1, kGigabyteLevels), w, {.oversubscribe = true});
  BOOST_TEST(r.ranks[0].total_time == 2.0, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[1].total_time == 2.0, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(peer_out_of_range_is_an_error) {
  ScriptWorkload w(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) mpi.send(5, 10);
  });
  BOOST_TEST(run_error(two_nodes(), w) == "rank 0: send to rank 5 is out of range (the run has 2 ranks, 0..1)");
}

BOOST_AUTO_TEST_CASE(test_polls_until_the_message_is_delivered) {
  ScriptWorkload w(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.send(1, 1000000);
      return;
    }
    auto q = mpi.irecv(0, 1000000);
    int polls = 0;
    while (!mpi.test(q)) {
      mpi.sleep(1e-4);
      ++polls;
    }
    if (polls != 11) throw std::runtime_error("expected 11 polls, got " + std::to_string(polls));
  });
  const auto r = run(two_nodes(), w, {.mapping = "cyclic"});
  BOOST_TEST(r.ranks[1].total_time == 1.1e-3, tt::tolerance(1e-9));  // first poll after delivery at 1.01 ms
}
