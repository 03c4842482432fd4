// Progression policies and CPU overheads (Denis et al.; LogGOPS hooks):
// when a rendezvous moves its data, what compute costs with a dedicated core,
// how a model's CPU overheads occupy the ranks.
#include <boost/test/unit_test.hpp>

#include "sim/engine/fluid_model.hpp"
#include "sim/engine/mpi.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

// 1 GB/s everywhere, eager below 1 KiB; 10 us between nodes.
std::string platform(const std::string& progress, int cores = 2) {
  return platform_yaml(2, 1, cores, kGigabyteLevels) + "progress: " + progress + "\n";
}

// Rank 0: a rendezvous Isend of 1 MB to rank 1, 1 ms of compute, Wait.
// Rank 1: Recv.
ScriptWorkload megabyte_isend_compute_wait() { return isend_compute_wait(1000000, 1e-3); }

// Rank 0 sends 1 MB at 0.5 ms; rank 1 posts its receive, computes 2 ms, then waits.
ScriptWorkload send_to_a_computing_receiver() {
  return ScriptWorkload(2, [](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.sleep(0.5e-3);
      mpi.send(1, 1000000);
    } else {
      auto q = mpi.irecv(0, 1000000);
      mpi.compute_seconds(2e-3);
      mpi.wait(q);
    }
  });
}

constexpr double kTransfer = 10e-6 + 1e-3;  // tau + 1 MB at 1 GB/s

}  // namespace

BOOST_AUTO_TEST_CASE(progress_thread_overlaps_a_rendezvous_with_compute) {
  auto w = megabyte_isend_compute_wait();
  const auto r = run(platform("thread"), w, {.mapping = "cyclic", .model = "staircase"});
  BOOST_TEST(r.ranks[1].recv_time == kTransfer, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].total_time == std::max(1e-3, kTransfer), tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(progress_none_moves_a_rendezvous_at_the_wait) {
  // The receiver answers at once (it waits in MPI); the sender sees the
  // answer only when it enters MPI_Wait after computing: data moves at 1 ms.
  auto w = megabyte_isend_compute_wait();
  const auto r = run(platform("none"), w, {.mapping = "cyclic", .model = "staircase"});
  BOOST_TEST(r.ranks[1].recv_time == 1e-3 + kTransfer, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[0].total_time == 1e-3 + kTransfer, tt::tolerance(1e-9));
  BOOST_REQUIRE(r.messages.size() == 1u);
  BOOST_TEST(r.messages[0].start == 1e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(progress_none_waits_for_a_computing_receiver) {
  // Rank 1 posts its receive, computes 2 ms, then waits; rank 0 sends at
  // 0.5 ms and waits. The request to send is seen when rank 1 enters MPI at
  // 2 ms, and rank 0, waiting in MPI, answers at once.
  auto w = send_to_a_computing_receiver();
  const auto none = run(platform("none"), w, {.mapping = "cyclic", .model = "staircase"});
  BOOST_TEST(none.messages.at(0).start == 2e-3, tt::tolerance(1e-9));
  BOOST_TEST(none.ranks[0].total_time == 2e-3 + kTransfer, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(progress_thread_moves_when_matched) {
  auto w = send_to_a_computing_receiver();
  const auto thread = run(platform("thread"), w, {.mapping = "cyclic", .model = "staircase"});
  BOOST_TEST(thread.messages.at(0).start == 0.5e-3, tt::tolerance(1e-9));
  BOOST_TEST(thread.ranks[0].total_time == 0.5e-3 + kTransfer, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(progress_none_under_maxmin) {
  // The same handshake rule when SimGrid moves the data.
  auto w = megabyte_isend_compute_wait();
  const auto r = run(platform("none"), w, {.mapping = "cyclic", .model = "maxmin"});
  BOOST_TEST(r.ranks[1].recv_time == 1e-3 + kTransfer, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(progress_dedicated_core_slows_compute) {
  // Four cores per node: compute runs on three, 4/3 times longer.
  ScriptWorkload w(2, [](Mpi& mpi) { mpi.compute(1e9); });
  const auto r = run(platform("dedicated-core", 4), w);
  BOOST_TEST(r.ranks[0].total_time == 4.0 / 3.0, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(progress_option_overrides_the_platform) {
  auto w = megabyte_isend_compute_wait();
  const auto r = run(platform("thread"), w, {.mapping = "cyclic", .model = "staircase", .progress = Progress::None});
  BOOST_TEST(r.messages.at(0).start == 1e-3, tt::tolerance(1e-9));
}

namespace {

// Test double: every transfer takes 0.1 ms; posting costs the sender 1 ms of
// CPU and completing costs the receiver 2 ms (contiguous) or 3 ms (vector).
class CostlyMessages final : public FluidModel {
 public:
  explicit CostlyMessages(const ModelContext& c) : FluidModel(c) {}
  double send_overhead(const Transfer&) const override { return 1e-3; }
  double receive_overhead(const Transfer& t) const override {
    return sink_datatype(t).kind == Datatype::Kind::Vector ? 3e-3 : 2e-3;
  }

 protected:
  double latency(const Transfer&) const override { return 0; }
  void on_data_start(TransferId id, double at) override { deliver_at(id, at + 1e-4); }

 private:
  const Datatype& sink_datatype(const Transfer& t) const { return context().sink.datatype(t.datatype); }
};

Results run_costly(Workload& w) {
  const ModelRegistry registry = registry_of("costly", "test double with CPU overheads",
                                             [](const ModelContext& c) { return std::make_unique<CostlyMessages>(c); });
  return run(platform("thread"), w, {.mapping = "cyclic", .model = "costly", .models = &registry});
}

}  // namespace

BOOST_AUTO_TEST_CASE(cpu_overheads_occupy_the_ranks) {
  // Rank 0 posts (1 ms of CPU), then computes 1 ms: done at 2 ms. The data
  // arrives at 0.1 ms; rank 1 is then busy 2 ms completing it: 2.1 ms.
  auto w = isend_compute_wait(100, 1e-3);
  const auto r = run_costly(w);
  BOOST_TEST(r.ranks[0].total_time == 2e-3, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[1].recv_time == 2.1e-3, tt::tolerance(1e-9));
  BOOST_TEST(r.ranks[1].total_time == 2.1e-3, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(datatypes_reach_the_model) {
  // A vector datatype costs the receiver 3 ms instead of 2.
  Datatype v;
  v.kind = Datatype::Kind::Vector;
  v.count = 4;
  v.blocklength = 1;
  v.stride = 4;
  v.base = "float";
  v.base_size = 4;
  auto w = typed_message(v, 16);
  const auto r = run_costly(w);
  BOOST_TEST(r.ranks[1].recv_time == 1e-4 + 3e-3, tt::tolerance(1e-9));
}
