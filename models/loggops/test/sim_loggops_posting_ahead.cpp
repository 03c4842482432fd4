// Posting ahead (EngineCore::allow_posting_ahead): a rank alone on its core
// posts its sends without sleeping each send's CPU overhead, stamped with
// the instants the overheads end. Property: the results equal those of the
// same run with a sleep per send (the workload declaring receives from any
// source, which turns posting ahead off), message by message within 1e-9
// relative, on random patterns under loggops and maxmin+loggops: eager and
// rendezvous messages (a rendezvous one matched late starts before eager
// ones its rank posted after it: the NIC's order must hold), several
// messages per pair, delayed sends. SimGrid allows one engine per process:
// each simulation runs in a child process.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <map>
#include <random>
#include <simgrid/s4u/Engine.hpp>
#include <sstream>

#include "sim/engine/mpi.hpp"
#include "sim/engine/worker_pool.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

// A pattern that says it may receive from any source: every send sleeps its overhead.
class SleepingPattern final : public Workload {
 public:
  SleepingPattern(const std::vector<PatternMessage>& messages, int ranks)
      : pattern_(ManyPairPattern{.name = "random", .ranks = ranks, .messages = messages, .datatypes = {}}) {}
  int rank_count() const override { return pattern_.rank_count(); }
  std::string description() const override { return pattern_.description(); }
  void run(Mpi& mpi) override { pattern_.run(mpi); }
  bool receives_from_any_source() const override { return true; }

 private:
  PatternWorkload pattern_;
};

struct RandomCase {
  std::string platform;
  std::vector<PatternMessage> messages;
  int ranks = 0;
  Progress progress = Progress::Thread;
  std::string model;
};

// Durations with picoseconds and non-zero per-byte costs: two ranks' CPUs
// rarely end overheads at the very same instant, where posting ahead and a
// sleep per send may order a rank's NIC differently (SimGrid resumes actors
// whose sleeps end together in its own order).
std::string duration(std::mt19937& rng) {
  return std::to_string(100 + rng() % 3000) + "." + std::to_string(rng() % 1000) + "ns";
}
std::string per_byte(std::mt19937& rng) { return "0." + std::to_string(1 + rng() % 999) + "ns"; }

std::string range(std::mt19937& rng) {
  return "{L: " + duration(rng) + ", g: 1" + duration(rng) + ", G: " + per_byte(rng) +
         ", datatypes: {contiguous: {o_s: " + duration(rng) + ", O_s: " + per_byte(rng) + ", o_r: " + duration(rng) +
         ", O_r: " + per_byte(rng) + "}}}";
}

RandomCase random_case(unsigned seed) {
  std::mt19937 rng(seed);
  RandomCase c;
  const int nodes = 1 + static_cast<int>(rng() % 3), cores = 2 + static_cast<int>(rng() % 3);
  const std::string threshold = std::to_string(1 + rng() % 8) + "KiB";
  c.platform = platform_yaml(nodes, 1, cores, levels_yaml({"1us", "2us", "5us"}, threshold, "1GB/s"),
                             "{topology: star, link_bandwidth: 2GB/s}", "{bandwidth: 1GB/s}") +
               "models:\n  loggops:\n    default: {eager: " + range(rng) + ", rendezvous: " + range(rng) +
               "}\n    inter_node: {eager: " + range(rng) + ", rendezvous: " + range(rng) + "}\n";
  c.ranks = nodes * cores;
  const int count = 2 + static_cast<int>(rng() % 40);
  std::map<std::pair<int, int>, std::uint64_t> sizes;  // by (src, dst)
  for (int i = 0; i < count; ++i) {
    PatternMessage m;
    m.src = static_cast<int>(rng() % static_cast<unsigned>(c.ranks));
    m.dst = static_cast<int>(rng() % static_cast<unsigned>(c.ranks));
    if (m.src == m.dst) continue;
    m.bytes = rng() % 8 == 0 ? 0 : 1 + rng() % 20000;
    // A delayed send may pass an earlier one of its pair: they have one size.
    if (auto [at, first] = sizes.try_emplace({m.src, m.dst}, m.bytes); !first) m.bytes = at->second;
    if (rng() % 4 == 0) m.start = static_cast<double>(rng() % 30000) * 1e-9;
    c.messages.push_back(m);
  }
  c.progress = rng() % 3 == 0 ? Progress::DedicatedCore : Progress::Thread;
  c.model = rng() % 3 == 0 ? "maxmin+loggops" : "loggops";
  return c;
}

RunOptions options_of(const RandomCase& c) {
  RunOptions options;
  options.model = c.model;
  options.progress = c.progress;
  return options;
}

// Each message's end, then each rank's receive, send and total times, printed exactly.
std::string outcome(const Results& r) {
  std::ostringstream out;
  out << exact_message_ends(r);
  out.precision(17);
  for (const auto& rank : r.ranks)
    out << rank.rank << ' ' << rank.recv_time << ' ' << rank.send_time << ' ' << rank.total_time << '\n';
  return out.str();
}

std::vector<double> numbers(const std::string& text) {
  std::vector<double> out;
  std::istringstream in(text);
  double x = 0;
  while (in >> x) out.push_back(x);
  return out;
}

// Rank 0 Isends twice to rank 1 and notes how far its time is ahead of
// SimGrid's clock; rank 1 receives both.
class TwoIsends final : public Workload {
 public:
  explicit TwoIsends(double& ahead) : ahead_(ahead) {}
  int rank_count() const override { return 2; }
  std::string description() const override { return "two Isends"; }
  bool receives_from_any_source() const override { return false; }
  void run(Mpi& mpi) override {
    if (mpi.rank() == 0) {
      const RequestId a = mpi.isend(1, 100), b = mpi.isend(1, 100);
      ahead_ = mpi.now() - simgrid::s4u::Engine::get_clock();
      mpi.waitall({a, b});
    } else {
      mpi.recv(0, 100);
      mpi.recv(0, 100);
    }
  }

 private:
  double& ahead_;
};

std::string time_ahead_after_two_isends(int cores, bool oversubscribe) {
  const std::string range =
      "{L: 1us, g: 1us, G: 0ns, datatypes: {contiguous: {o_s: 2us, O_s: 0ns, o_r: 0us, O_r: 0ns}}}";
  const std::string platform = platform_yaml(1, 1, cores, levels_yaml("1us", "4KiB", "1GB/s")) +
                               "models:\n  loggops:\n    default: {eager: " + range + ", rendezvous: " + range + "}\n";
  return run_in_child_process([&] {
    double ahead = -1;
    TwoIsends workload(ahead);
    run(platform, workload, {.model = "loggops", .oversubscribe = oversubscribe});
    std::ostringstream out;
    out.precision(17);
    out << ahead;
    return out.str();
  });
}

}  // namespace

BOOST_AUTO_TEST_CASE(loggops_posting_ahead_equals_a_sleep_per_send) {
  const unsigned cases = 150;
  double worst = 0;
  for (unsigned seed = 1; seed <= cases; ++seed) {
    const RandomCase c = random_case(seed);
    BOOST_TEST_CONTEXT("case " << seed << ", " << c.model << "\n"
                               << c.platform << describe_pattern(c.messages, c.ranks, c.progress)) {
      std::vector<double> ahead, sleeping;
      try {
        ahead = numbers(run_in_child_process(
            [&c] { return outcome(run_pattern(c.platform, c.messages, c.ranks, options_of(c))); }));
        sleeping = numbers(run_in_child_process([&c] {
          SleepingPattern workload(c.messages, c.ranks);
          return outcome(run(c.platform, workload, options_of(c)));
        }));
      } catch (const std::exception& e) {
        BOOST_ERROR(e.what());
        continue;
      }
      BOOST_REQUIRE_EQUAL(ahead.size(), sleeping.size());
      // SimGrid ends a sleep up to surf/precision (1 ns) early when its clock
      // stops that close to its end: the sleeps per send (and per wait)
      // drift by at most that much each. A NIC taken in the wrong order
      // would move a message by a slot, g + G k >= 1 us.
      const double drift = 1e-9 * static_cast<double>(c.messages.size() + 2 * static_cast<std::size_t>(c.ranks));
      for (std::size_t i = 0; i < ahead.size(); ++i) {
        const double difference = std::abs(ahead[i] - sleeping[i]);
        worst = std::max(worst, difference);
        BOOST_TEST(difference <= std::max(drift, 1e-9 * std::abs(sleeping[i])),
                   "value " << i << ": posting ahead " << ahead[i] << ", a sleep per send " << sleeping[i]);
      }
    }
  }
  BOOST_TEST_MESSAGE(cases << " random cases, largest difference " << worst << " s");
}

// The property above holds only if posting ahead happens: after two Isends
// with an overhead of 2 us each, rank 0's time is 4 us ahead of SimGrid's
// clock. Not on a shared core (--oversubscribe), where an overhead is an
// execution sharing the core.
BOOST_AUTO_TEST_CASE(loggops_ranks_alone_on_their_core_post_ahead) {
  BOOST_TEST(std::stod(time_ahead_after_two_isends(2, false)) == 4e-6, tt::tolerance(1e-12));
  BOOST_TEST(std::stod(time_ahead_after_two_isends(1, true)) == 0);
}
