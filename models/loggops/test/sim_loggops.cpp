// The LogGOPS model through the engine: the ping-pong identity with Bacon et
// al.'s eq. (2), NIC gaps, CPU overheads sharing the core with compute, and
// progression modes with exact expected times.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "sim/engine/mpi.hpp"
#include "sim/workload/pingpong_workload.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

// One socket of 4 cores at 1 Gflop/s; eager below 4 KiB (S).
const std::string kLevels = levels_yaml("1us", "4KiB", "1GB/s");

const std::string kLogGops =
    "models:\n"
    "  loggops:\n"
    "    default:\n"
    "      eager:\n"
    "        {L: 1us, g: 2us, G: 1ns, datatypes: {contiguous: {o_s: 0.5us, O_s: 0.5ns, o_r: 0.3us, O_r: 0.2ns},\n"
    "         'vector:4,1,4:float': {o_s: 1us, O_s: 2ns, o_r: 1us, O_r: 3ns}}}\n"
    "      rendezvous:\n"
    "        {L: 5us, g: 1us, G: 0.5ns, datatypes: {contiguous: {o_s: 2us, O_s: 0.1ns, o_r: 1us, O_r: 0.1ns},\n"
    "         'vector:4,1,4:float': {o_s: 3us, O_s: 1ns, o_r: 2us, O_r: 1.5ns}}}\n";

std::string platform(const std::string& progress) {
  return platform_yaml(1, 1, 4, kLevels) + "progress: " + progress + "\n" + kLogGops;
}

// The parameters above, written out again (not read through the model's code).
struct Range {
  double L, g, G, o_s, O_s, o_r, O_r;
};
Range range(std::uint64_t k, bool vector) {
  if (k < 4096)
    return vector ? Range{1e-6, 2e-6, 1e-9, 1e-6, 2e-9, 1e-6, 3e-9}
                  : Range{1e-6, 2e-6, 1e-9, 0.5e-6, 0.5e-9, 0.3e-6, 0.2e-9};
  return vector ? Range{5e-6, 1e-6, 0.5e-9, 3e-6, 1e-9, 2e-6, 1.5e-9}
                : Range{5e-6, 1e-6, 0.5e-9, 2e-6, 0.1e-9, 1e-6, 0.1e-9};
}
// Bacon et al. eq. (2).
double bacon(std::uint64_t bytes, bool vector) {
  const Range p = range(bytes, vector);
  const double k = static_cast<double>(bytes);
  return 2 * (std::max(p.o_s + p.O_s * k, p.g + p.G * k) + p.L + p.O_r * k + p.o_r);
}

void check_pingpong(const std::string& progress, bool vector) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t k = 16; k <= (16u << 20); k *= 2) sizes.push_back(k);
  for (std::uint64_t k : {4080u, 4096u, 4112u, 1000000u}) sizes.push_back(k);  // around S, and not a power of 2
  Datatype type;
  if (vector) {
    std::string error;
    type = *parse_datatype("vector:4,1,4:float", error);
  }
  PingPongWorkload w(sizes, type);
  run(platform(progress), w, {.model = "loggops"});
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    BOOST_TEST_CONTEXT("k = " << sizes[i]) {
      BOOST_TEST(w.round_trips()[i] == bacon(sizes[i], vector), tt::tolerance(1e-12));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(loggops_pingpong_is_bacon_eq2_contiguous) { check_pingpong("thread", false); }
BOOST_AUTO_TEST_CASE(loggops_pingpong_is_bacon_eq2_vector) { check_pingpong("thread", true); }
BOOST_AUTO_TEST_CASE(loggops_pingpong_is_bacon_eq2_without_progression) { check_pingpong("none", true); }
BOOST_AUTO_TEST_CASE(loggops_pingpong_is_bacon_eq2_dedicated_core) { check_pingpong("dedicated-core", false); }

BOOST_AUTO_TEST_CASE(loggops_nic_gap_spaces_injections) {
  // Two eager 1000-B messages from rank 0: o_s + O_s k = 1 us, g + G k = 3 us.
  // First: max(1, 3) + L = 4 us. Second: posted at 1 us (the CPU was busy),
  // injected at 3 us when the NIC is free, NIC busy until 6 us: arrives at 7 us.
  // Rank 1 then pays 2 x (o_r + O_r k) = 2 x 0.5 us: done at 8 us.
  auto w = two_messages(1000, 1000);
  const auto r = run(platform("thread"), w, {.model = "loggops"});
  BOOST_REQUIRE(r.messages.size() == 2u);
  BOOST_TEST(r.messages[0].end == 4e-6, tt::tolerance(1e-12));
  BOOST_TEST(r.messages[1].end == 7e-6, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[1].total_time == 8e-6, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[0].total_time == 2e-6, tt::tolerance(1e-12));  // two send overheads
}

BOOST_AUTO_TEST_CASE(loggops_overheads_and_compute_share_the_core) {
  // Rank 0: Isend (1 us of CPU), then 10 us of compute: done at 11 us.
  // Rank 1: the data arrives at 4 us, o_r + O_r k = 0.5 us: 4.5 us.
  auto w = isend_compute_wait(1000, 10e-6);
  const auto r = run(platform("thread"), w, {.model = "loggops"});
  BOOST_TEST(r.ranks[0].total_time == 11e-6, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[1].total_time == 4.5e-6, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(loggops_overheads_of_ranks_sharing_a_core_share_its_speed) {
  // Three ranks on one core (--oversubscribe). Rank 0 Isends 1000 B (o_s +
  // O_s k = 1 us of CPU) while rank 2 computes 10 us: each gets half the
  // core, so rank 0 is done at 2 us. The model's own arrival time counts
  // 1 us of o_s: max(1, g + G k = 3) + L = 4 us. Rank 1 (asleep until then)
  // pays o_r + O_r k = 0.5 us, again at half speed: done at 5 us. Rank 2:
  // 1 us of work by 2 us, alone until 4 us (3 us), half speed until 5 us
  // (3.5 us), then its 6.5 us left alone: 11.5 us.
  ScriptWorkload w(3, [](Mpi& mpi) {
    if (mpi.rank() == 0) mpi.wait(mpi.isend(1, 1000));
    if (mpi.rank() == 1) mpi.recv(0, 1000);
    if (mpi.rank() == 2) mpi.compute_seconds(10e-6);
  });
  const auto r = run(platform_yaml(1, 1, 1, kLevels) + "progress: thread\n" + kLogGops, w,
                     {.model = "loggops", .oversubscribe = true});
  BOOST_TEST(r.ranks[0].total_time == 2e-6, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[1].total_time == 5e-6, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[2].total_time == 11.5e-6, tt::tolerance(1e-12));
}

namespace {

// Rank 0: rendezvous Isend of 1e6 B (CPU o_s + O_s k = 102 us), 1 ms of
// compute, Wait. Rank 1 posts its receive at `receive_posted`.
// g + G k = 501 us, L = 5 us, o_r + O_r k = 101 us.
struct Rendezvous {
  double receive_posted, data_moves, rank0_done, rank1_done;
};

void check_rendezvous(const std::string& progress, const Rendezvous& expected) {
  auto w = isend_compute_wait(1000000, 1e-3, expected.receive_posted);
  const auto r = run(platform(progress), w, {.model = "loggops"});
  BOOST_TEST(r.messages.at(0).start == expected.data_moves, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[0].total_time == expected.rank0_done, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[1].total_time == expected.rank1_done, tt::tolerance(1e-12));
}

}  // namespace

BOOST_AUTO_TEST_CASE(loggops_progress_thread_overlaps) {
  // Receive posted at 200 us, after the Isend overhead: the data moves then,
  // arrives 200 + 501 + 5 = 706 us; rank 1 done 807 us.
  check_rendezvous("thread",
                   {.receive_posted = 200e-6, .data_moves = 200e-6, .rank0_done = 1102e-6, .rank1_done = 807e-6});
}

BOOST_AUTO_TEST_CASE(loggops_progress_none_moves_at_the_wait) {
  // The sender computes when the request comes: it answers at its Wait,
  // 102 + 1000 us. Arrival 1102 + 501 + 5 = 1608 us (the rendezvous send
  // completes then); rank 1 done at 1709 us.
  check_rendezvous("none",
                   {.receive_posted = 200e-6, .data_moves = 1102e-6, .rank0_done = 1608e-6, .rank1_done = 1709e-6});
}

BOOST_AUTO_TEST_CASE(loggops_progress_dedicated_core_overlaps_and_slows_compute) {
  // As with a thread, but 1 ms of compute takes 4/3 ms on 3 of the 4 cores;
  // the CPU overhead (MPI time) is not slowed.
  check_rendezvous(
      "dedicated-core",
      {.receive_posted = 200e-6, .data_moves = 200e-6, .rank0_done = 102e-6 + 1e-3 * 4 / 3, .rank1_done = 807e-6});
}

BOOST_AUTO_TEST_CASE(loggops_progress_none_answers_during_the_send_overhead) {
  // The receive is posted at 50 us, while rank 0 still pays its 102 us of
  // Isend overhead (inside MPI): the data moves at 50 us even without
  // progression and has arrived (556 us) before rank 0's Wait at 1102 us.
  check_rendezvous("none", {.receive_posted = 50e-6,
                            .data_moves = 50e-6,
                            .rank0_done = 1102e-6,
                            .rank1_done = 50e-6 + 501e-6 + 5e-6 + 101e-6});
}

BOOST_AUTO_TEST_CASE(loggops_datatype_without_overheads_is_an_error) {
  std::string error;
  auto w = typed_message(*parse_datatype("vector:2,1,2:int", error), 8);
  const std::string e = run_error(platform("thread"), w, {.model = "loggops"});
  BOOST_TEST(e.find("models.loggops.default.eager.datatypes: no overheads for datatype 'vector:2,1,2:int'") !=
                 std::string::npos,
             e);
}

BOOST_AUTO_TEST_CASE(mpi_call_accounting_counts_every_kind) {
  // Rank 0: Isend (1 us of CPU), 10 us of compute, Wait (eager: done),
  // Send (1 us). Rank 1: Irecv, sleeps 20 us, Test (the first message is
  // there: o_r + O_r k = 0.5 us), Recv (the second, there since 15 us: 0.5 us).
  ScriptWorkload w(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      auto q = mpi.isend(1, 1000);
      mpi.compute_seconds(10e-6);
      mpi.wait(q);
      mpi.send(1, 1000);
    } else {
      auto q = mpi.irecv(0, 1000);
      mpi.sleep(20e-6);
      BOOST_TEST(mpi.test(q));
      mpi.recv(0, 1000);
    }
  });
  const auto r = run(platform("thread"), w, {.model = "loggops"});
  BOOST_REQUIRE(r.calls.size() == 2u);
  const auto& a = r.calls[0];
  BOOST_TEST(a.nonblocking.count == 1u);
  BOOST_TEST(a.nonblocking.min == 1e-6, tt::tolerance(1e-9));
  BOOST_TEST(a.wait.count == 1u);
  BOOST_TEST(a.wait.total == 0.0, tt::tolerance(1e-9));
  BOOST_TEST(a.blocking.count == 1u);
  BOOST_TEST(a.blocking.total == 1e-6, tt::tolerance(1e-9));
  BOOST_TEST(a.outside == 10e-6, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].total_time == 12e-6, tt::tolerance(1e-12));
  const auto& b = r.calls[1];
  BOOST_TEST(b.nonblocking.min == 0.0);
  BOOST_TEST(b.test.count == 1u);
  BOOST_TEST(b.test.total == 0.5e-6, tt::tolerance(1e-9));
  BOOST_TEST(b.blocking.total == 0.5e-6, tt::tolerance(1e-9));
  BOOST_TEST(b.outside == 20e-6, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[1].total_time == 21e-6, tt::tolerance(1e-12));
}

// Attribution (docs/explain.md): which of the CPU and the NIC bounded a message, then L.
namespace {
const RunOptions kLogGopsAttributed{.model = "loggops", .attribution = true};
}  // namespace

BOOST_AUTO_TEST_CASE(loggops_attribution_nic_gap_then_injection_then_latency) {
  // Two eager 1000-B messages from rank 0: o_s + O_s k = 1 us, g + G k = 3 us.
  // First: the NIC injects it [0, 3 us), then L [3, 4 us). Second: posted at
  // 1 us, waits for the NIC's gap until 3 us, injected [3, 6 us), L [6, 7 us).
  auto w = two_messages(1000, 1000);
  const auto r = run(platform("thread"), w, kLogGopsAttributed);
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
  const auto r = run(platform("thread"), w, kLogGopsAttributed);
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
