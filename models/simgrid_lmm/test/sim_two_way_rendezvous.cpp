// A rendezvous each way between two ranks (`0 1 64KiB` / `1 0 64KiB`) under
// every registered model and every progression mode. Without a progress
// thread each rank answers the other's request to send from inside its
// MPI_Waitall; SimGrid's LMM used to leave a rank blocked on a SimGrid
// communication where the engine expected it to answer, and reported a
// deadlock. Each run is a child process (one SimGrid engine per process).
#include <boost/test/unit_test.hpp>
#include <sstream>

#include "models/registry.hpp"
#include "sim/core/file_io.hpp"
#include "sim/engine/worker_pool.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;

namespace {

const std::vector<PatternMessage> kTwoWay = {{0, 1, 65536}, {1, 0, 65536}};

// Each message's start and end ("src dst start end" lines), or the error.
std::string two_way(const std::string& platform, const std::string& model, Progress progress) {
  try {
    return run_in_child_process([&] {
      const Results r =
          run_pattern(platform, kTwoWay, 2, RunOptions{.mapping = "cyclic", .model = model, .progress = progress});
      std::ostringstream out;
      out.precision(17);
      for (const auto& m : r.messages) out << m.src << ' ' << m.dst << ' ' << m.start << ' ' << m.end << '\n';
      return out.str();
    });
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  }
}

struct Record {
  int src = 0, dst = 0;
  double start = 0, end = 0;
};

std::vector<Record> records(const std::string& text) {
  std::vector<Record> out;
  std::istringstream in(text);
  Record r;
  while (in >> r.src >> r.dst >> r.start >> r.end) out.push_back(r);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(two_way_rendezvous_under_every_model_and_progression) {
  // The shipped testbed platform has every model's parameters.
  const std::string testbed = read_text(std::string(CONTEND_SOURCE_DIR) + "/platforms/testbed.yaml");
  for (const std::string& model : all_models().names()) {
    for (const std::string& mode : progress_names()) {
      BOOST_TEST_CONTEXT(model << " under progress " << mode) {
        const std::string out = two_way(testbed, model, progress_by_name(mode));
        BOOST_TEST(out.find("error") == std::string::npos, out);
        const auto messages = records(out);
        BOOST_TEST(messages.size() == 2u);
        for (const auto& m : messages) BOOST_TEST(m.end > m.start);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(two_way_rendezvous_by_hand_under_the_max_min_models) {
  // Two nodes, 1 GB/s NIC links and 10 us between them, a network that does
  // not limit: each direction has its own NIC links, so both messages start
  // at once, whatever the progression (each rank waits inside MPI_Waitall
  // when the other's request comes), and end after 10 us + 64 KiB / 1 GB/s.
  const double expected = 10e-6 + 65536 / 1e9;
  for (const std::string model : {"maxmin", "simgrid-lmm"}) {
    for (const std::string& mode : progress_names()) {
      BOOST_TEST_CONTEXT(model << " under progress " << mode) {
        const std::string platform = platform_yaml(2, 1, 2, kGigabyteLevels);
        const auto messages = records(two_way(platform, model, progress_by_name(mode)));
        BOOST_REQUIRE(messages.size() == 2u);
        for (const auto& m : messages) {
          BOOST_TEST(m.start == 0.0);
          BOOST_TEST(m.end == expected, boost::test_tools::tolerance(1e-9));
        }
      }
    }
  }
}
