// Timeline counter tracks under LogGOPS: the messages at each rank's NIC
// (waiting for its gap or being injected), hand-computed.
#include <boost/test/unit_test.hpp>

#include "sim/engine/mpi.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

// One socket of 4 cores; eager below 4 KiB: L = 1 us, g = 2 us, G = 1 ns,
// o_s = 0.5 us, O_s = 0.5 ns.
const std::string kPlatform =
    platform_yaml(1, 1, 4, levels_yaml("1us", "4KiB", "1GB/s")) +
    "models:\n"
    "  loggops:\n"
    "    default:\n"
    "      eager: {L: 1us, g: 2us, G: 1ns, datatypes: {contiguous: {o_s: 0.5us, O_s: 0.5ns, o_r: 0.3us, O_r: 0.2ns}}}\n"
    "      rendezvous: {L: 5us, g: 1us, G: 0.5ns, datatypes: {contiguous: {o_s: 2us, O_s: 0.1ns, o_r: 1us, O_r: "
    "0.1ns}}}\n";

}  // namespace

BOOST_AUTO_TEST_CASE(loggops_loads_three_messages_queue_at_the_nic) {
  // Rank 0 Isends three eager 1000-B messages to rank 1: o_s + O_s k = 1 us
  // each, so they are posted at 0, 1 and 2 us; g + G k = 3 us each, so the
  // NIC injects them over [0, 3), [3, 6), [6, 9) us. At rank 0's NIC: 1
  // message from 0, 2 from 1 us, 3 from 2 us, then one fewer at 3, 6, 9 us.
  ScriptWorkload w(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.waitall({mpi.isend(1, 1000), mpi.isend(1, 1000), mpi.isend(1, 1000)});
    } else {
      mpi.waitall({mpi.irecv(0, 1000), mpi.irecv(0, 1000), mpi.irecv(0, 1000)});
    }
  });
  const auto r = run(kPlatform, w, RunOptions{.model = "loggops", .timeline = true});
  check_load_samples(r, "loggops:nic@rank0", {{0, 1}, {1e-6, 2}, {2e-6, 3}, {3e-6, 2}, {6e-6, 1}, {9e-6, 0}}, 1e-12);
  BOOST_TEST(load_samples(r, "loggops:nic@rank1").empty());  // rank 1 sends nothing
  BOOST_TEST(r.timeline.resources().at(0).unit == "messages");
}
