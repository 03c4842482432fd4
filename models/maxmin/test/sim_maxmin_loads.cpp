// Timeline counter tracks under maxmin: the flows crossing each shared link,
// hand-computed.
#include <boost/test/unit_test.hpp>

#include "sim/engine/mpi.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

constexpr std::uint64_t MB = 1000000;
// One core per node, NICs of 1 GB/s, a star network much faster than them.
std::string cluster(int nodes) {
  return platform_yaml(nodes, 1, 1, levels_yaml({"1us", "2us", "10us"}, "1KiB", "1GB/s"),
                       "{topology: star, link_bandwidth: 1e12}", "{bandwidth: 1GB/s}");
}

// Rank 0 posts three receives at t = 0; rank r (1, 2, 3) sends it 1 MB at
// (r - 1) x 0.5 ms.
ScriptWorkload staggered_fan_in() {
  return ScriptWorkload(4, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.waitall({mpi.irecv(1, MB), mpi.irecv(2, MB), mpi.irecv(3, MB)});
    } else {
      if (mpi.rank() > 1) mpi.sleep((mpi.rank() - 1) * 0.5e-3);
      mpi.send(0, MB);
    }
  });
}

}  // namespace

BOOST_AUTO_TEST_CASE(maxmin_loads_fan_in_of_three_on_one_nic) {
  // Node 0's NIC in (1 GB/s) carries flow 1 alone from its latency L on
  // (0.5 MB in 0.5 ms), then flows 1 and 2 (0.25 MB each in 0.5 ms), then all
  // three at 1/3 GB/s: flow 1 has 0.25 MB left and ends at L + 1.75 ms; flow
  // 2 then has 0.5 MB left at 0.5 GB/s (ends at L + 2.75 ms), flow 3 has
  // 0.5 MB left: 0.5 ms of it shared, the last 0.25 MB alone (L + 3 ms).
  auto workload = staggered_fan_in();
  const auto r = run(cluster(4), workload, RunOptions{.model = "maxmin", .timeline = true});
  const auto samples = load_samples(r, "nic:node0/in");
  BOOST_TEST_REQUIRE(samples.size() == 6u);
  const double L = samples[0].first;
  BOOST_TEST(L > 0);
  const std::vector<std::pair<double, double>> expected = {{L, 1},           {L + 0.5e-3, 2},  {L + 1e-3, 3},
                                                           {L + 1.75e-3, 2}, {L + 2.75e-3, 1}, {L + 3e-3, 0}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    BOOST_TEST_INFO("sample " << i);
    BOOST_TEST(samples[i].first == expected[i].first, tt::tolerance(1e-9));
    BOOST_TEST(samples[i].second == expected[i].second);
  }
  // The last flow's end is the run's last message arrival.
  BOOST_TEST(samples.back().first == messages_between(r, 3, 0).at(0).end, tt::tolerance(1e-12));
  // Each sender's NIC out carries its one flow, from L after its send.
  BOOST_TEST((load_values(r, "nic:node2/out") == std::vector<double>{1, 0}));
  BOOST_TEST(load_samples(r, "nic:node2/out").at(0).first == L + 0.5e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(maxmin_loads_are_not_recorded_without_a_timeline) {
  auto workload = staggered_fan_in();
  const auto r = run(cluster(4), workload, RunOptions{.model = "maxmin"});
  BOOST_TEST(r.timeline.resources().empty());
  BOOST_TEST(r.timeline.loads().empty());
}
