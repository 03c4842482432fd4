// The FluidModel driver: a model that computes its own completion times is
// run on SimGrid's clock and its completions delivered at the exact times it
// computed. Exercised with a test double where every transfer takes
// 1 us + bytes / 1 GB/s, whatever else is moving: a 1 us latency phase, then
// a delivery timer.
#include <boost/test/unit_test.hpp>

#include "sim/engine/fluid_model.hpp"
#include "sim/engine/mpi.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

class IndependentTransfers final : public FluidModel {
 public:
  explicit IndependentTransfers(const ModelContext& c) : FluidModel(c) {}

 protected:
  // FluidModel's latency phase, then a delivery at a known time.
  double latency(const Transfer&) const override { return 1e-6; }
  void on_data_start(TransferId id, double at) override {
    deliver_at(id, at + static_cast<double>(sink().transfer(id).bytes) / 1e9);
  }
};

Results run_independent(Workload& w, int ranks) {
  const ModelRegistry registry =
      registry_of("independent", "test double: every transfer takes 1 us + bytes / 1 GB/s",
                  [](const ModelContext& c) { return std::make_unique<IndependentTransfers>(c); });
  return run(platform_yaml(1, 1, ranks, levels_yaml("0us", "1KiB", "1GB/s")), w,
             {.model = "independent", .models = &registry});
}

}  // namespace

BOOST_AUTO_TEST_CASE(fluid_driver_delivers_at_the_model_times) {
  // Rank 0 sends 1 MB to rank 1 at t = 0 (done at 1.001 ms); rank 2 sends
  // 100 kB to rank 3 at t = 0.5 ms, while the driver sleeps towards 1.001 ms:
  // it must wake for the new, earlier completion (0.601 ms).
  ScriptWorkload w(4, [](Mpi& mpi) {
    if (mpi.rank() == 0) mpi.send(1, 1000000);
    if (mpi.rank() == 1) mpi.recv(0, 1000000);
    if (mpi.rank() == 2) {
      mpi.sleep(0.5e-3);
      mpi.send(3, 100000);
    }
    if (mpi.rank() == 3) mpi.recv(2, 100000);
  });
  const auto r = run_independent(w, 4);
  BOOST_TEST(r.ranks[1].recv_time == 1e-6 + 1e-3, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[3].recv_time == 0.5e-3 + 1e-6 + 1e-4, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[2].total_time == r.ranks[3].recv_time);  // rendezvous sender
}

BOOST_AUTO_TEST_CASE(fluid_driver_handles_many_simultaneous_completions) {
  // 16 ranks each send the same 10 kB to the next: all complete at once.
  ScriptWorkload w(16, [](Mpi& mpi) {
    const int n = mpi.size();
    auto s = mpi.isend((mpi.rank() + 1) % n, 10000);
    auto q = mpi.irecv((mpi.rank() + n - 1) % n, 10000);
    mpi.waitall({s, q});
  });
  const auto r = run_independent(w, 16);
  BOOST_TEST(r.messages.size() == 16u);
  for (const auto& x : r.ranks) BOOST_TEST(x.total_time == 1e-6 + 1e-5, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(fluid_driver_completes_tests_and_eager_sends) {
  ScriptWorkload w(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.send(1, 500);  // eager: delivered by the driver while rank 1 polls
      return;
    }
    auto q = mpi.irecv(0, 500);
    while (!mpi.test(q)) mpi.sleep(1e-7);
  });
  const auto r = run_independent(w, 2);
  BOOST_TEST(r.ranks[0].total_time == 0.0);
  BOOST_TEST(r.ranks[0].send_time == 1e-6 + 5e-7, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[1].total_time >= r.ranks[0].send_time);
  BOOST_TEST(r.ranks[1].total_time <= r.ranks[0].send_time + 1.01e-7);
}

BOOST_AUTO_TEST_CASE(fluid_driver_wakes_a_rank_whose_sends_end_together) {
  // Rank 0's two rendezvous sends are delivered in one batch. Waking it for
  // the first lets it block on the second while the driver delivers that
  // one: the engine must not lose that wake-up (it did: a SimGrid deadlock).
  ScriptWorkload w(3, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      auto a = mpi.isend(1, 1000000);
      auto b = mpi.isend(2, 1000000);
      mpi.waitall({a, b});
    } else {
      mpi.recv(0, 1000000);
    }
  });
  const auto r = run_independent(w, 3);
  BOOST_TEST(r.ranks[0].total_time == 1e-6 + 1e-3, tt::tolerance(1e-12));
}
