// Replay of OTF2 archives (Otf2Workload) written with the OTF2 writer API:
// computation from the gaps between MPI regions, blocking messages,
// requests, and errors naming the archive, the rank and the event.
#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "tests/harness/sim_fixture.hpp"
#include "tests/traces/otf2_sample.hpp"
#include "traces/replay/otf2_workload.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

// 1 GB/s everywhere, 10 us between nodes, eager below 1 KiB; cores at 1 Gflop/s.
std::string two_nodes() { return platform_yaml(2, 1, 1, kGigabyteLevels); }

std::string archive_dir(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("contend-otf2-" + name)).string();
}

}  // namespace

BOOST_AUTO_TEST_CASE(otf2_gap_then_blocking_message) {
  // Rank 0 computes 1 ms after MPI_Init, then MPI_Send of 1 MB; rank 1
  // receives at once: 1 ms + 10 us + 1 ms. Time inside MPI calls is not replayed.
  const auto dir = archive_dir("gap");
  Otf2SampleWriter s(dir, 2);
  for (int r = 0; r < 2; ++r) s.region(r, "MPI_Init", 5000);
  s.compute(0, 1000000);
  s.region(0, "MPI_Send", 7000,
           [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiSend(w, nullptr, t, 1, 0, 3, 1000000); });
  s.region(1, "MPI_Recv", 7000,
           [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiRecv(w, nullptr, t, 0, 0, 3, 1000000); });
  s.close();
  Otf2Workload w(dir + "/traces.otf2");
  const auto r = run(two_nodes(), w);
  const double expected = 1e-3 + 10e-6 + 1e-3;
  BOOST_TEST(r.ranks[1].recv_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].total_time == expected, tt::tolerance(1e-9));
  BOOST_TEST(w.action_counts().at("compute") == 1);
}

BOOST_AUTO_TEST_CASE(otf2_irecv_posted_early_takes_its_sender_from_the_completion) {
  // Rank 1 posts an irecv at once and waits 2 ms later; rank 0 sends 1 MB
  // at 1 ms (rendezvous: moves when both are posted): delivered at 2.01 ms.
  const auto dir = archive_dir("irecv");
  Otf2SampleWriter s(dir, 2);
  s.region(1, "MPI_Irecv", 0,
           [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, 7); });
  s.compute(1, 500000);
  s.region(1, "MPI_Test", 0,
           [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiRequestTest(w, nullptr, t, 7); });
  s.compute(1, 1500000);
  s.region(1, "MPI_Wait", 0,
           [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiIrecv(w, nullptr, t, 0, 0, 4, 1000000, 7); });
  s.region(0, "MPI_Init", 0);  // computation counts from a rank's first event
  s.compute(0, 1000000);
  s.region(0, "MPI_Isend", 0,
           [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiIsend(w, nullptr, t, 1, 0, 4, 1000000, 9); });
  s.region(0, "MPI_Wait", 0,
           [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, 9); });
  s.close();
  Otf2Workload w(dir + "/traces.otf2");
  const auto r = run(two_nodes(), w);
  BOOST_TEST(r.ranks[1].recv_time == 1e-3 + 10e-6 + 1e-3, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[1].total_time == 2e-3 + 10e-6, tt::tolerance(1e-9));
  BOOST_TEST(w.action_counts().at("test") == 1);
  BOOST_TEST(w.action_counts().at("wait") == 2);
}

BOOST_AUTO_TEST_CASE(otf2_completion_of_an_unknown_request_names_rank_and_event) {
  const auto dir = archive_dir("unknown");
  Otf2SampleWriter s(dir, 2);
  s.region(0, "MPI_Init", 0);
  s.region(0, "MPI_Wait", 0,
           [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, 5); });
  s.close();
  Otf2Workload w(dir + "/traces.otf2");
  BOOST_TEST(run_error(two_nodes(), w)
                 .find(dir + "/traces.otf2 (rank 0):4: event 4: request 5 "
                             "completes but was never started") != std::string::npos);
}
