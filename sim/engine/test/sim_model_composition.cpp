// Composed models (`--model A+loggops`, `intra=A,inter=B`; docs/models.md):
// each composition reduces exactly to its parts where the other is neutral,
// and the overheads add up as LogP orders them (o_s, the wire, o_r).
// SimGrid allows one engine per process: the property cases run each
// simulation in a child process.
#include <boost/test/unit_test.hpp>
#include <random>
#include <set>
#include <sstream>

#include "sim/engine/worker_pool.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

const std::vector<std::string> kFluidModels = {"maxmin", "staircase", "flowcut", "taulop"};

// loggops with the same values on every level and both protocol ranges.
std::string loggops_section(const std::string& o_s, const std::string& O_s, const std::string& o_r,
                            const std::string& O_r, const std::string& g) {
  const std::string range = "{L: 7us, g: " + g + ", G: 3ns, datatypes: {contiguous: {o_s: " + o_s + ", O_s: " + O_s +
                            ", o_r: " + o_r + ", O_r: " + O_r + "}}}";
  return "  loggops:\n    default:\n      eager: " + range + "\n      rendezvous: " + range + "\n";
}

// The sections of flowcut and taulop (tests/data/platforms/testbed-frozen.yaml's), and loggops'.
std::string models_yaml(const std::string& loggops) {
  return "models:\n"
         "  flowcut:\n"
         "    same_direction: {odd_conflicts: [0.911, 1.103], even_conflicts: [0.420, 2.418]}\n"
         "    outgo_income: {incoming: 0.102, outgoing: 0.019}\n"
         "    alone: {include: 0.017, start_end: 0.020}\n"
         "  taulop:\n"
         "    segment_size: 8192\n"
         "    Q: 71.7245\n"
         "    channels:\n"
         "      shared_memory: {o: 0, L: {intercept: 0, per_byte: 5.90708e-10}, gamma: {2: 1, 3: 2, 4: 1.08336}}\n"
         "      network: {o: 0, L: {intercept: 0, per_byte: 8.35551e-08}, gamma: {2: 1, 3: 2, 4: 3}}\n"
         "    bcast:\n"
         "      linear: {o0: 0, o1: 0, L0: 0, L1: 0}\n"
         "      chain: {o0: 0, o1: 0, L0: 0, L1: 0}\n"
         "      kchain: {o0: 0, o1: 0, L0: 0, L1: 0}\n"
         "      split_binary: {o0: 0, o1: 0, L0: 0, L1: 0}\n"
         "      binary: {o0: 0, o1: 0, L0: 0, L1: 0}\n"
         "      binomial: {o0: 0, o1: 0, L0: 0, L1: 0}\n" +
         loggops;
}

const std::string kZeroLogGops = loggops_section("0", "0", "0", "0", "0");

struct RandomCase {
  std::string platform;
  std::vector<PatternMessage> messages;
  int ranks = 0;
  int ranks_per_node = 1;
  Progress progress = Progress::Thread;
};

RandomCase random_case(unsigned seed) {
  std::mt19937 rng(seed);
  RandomCase c;
  const int nodes = 2 + static_cast<int>(rng() % 3);
  const int sockets = 1 + static_cast<int>(rng() % 2), cores = 1 + static_cast<int>(rng() % 3);
  const std::string levels =
      levels_yaml({"1us", "2us", std::to_string(1 + rng() % 5) + "us"}, "16KiB",
                  {random_bandwidth_table(rng), random_bandwidth_table(rng), random_bandwidth_table(rng)});
  const std::string net = "{topology: star, link_bandwidth: " + std::to_string(200 + rng() % 800) + "MB/s}";
  const std::string nic = "{bandwidth: " + std::to_string(300 + rng() % 700) + "MB/s}";
  c.platform = platform_yaml(nodes, sockets, cores, levels, net, nic) + models_yaml(kZeroLogGops);
  c.ranks_per_node = sockets * cores;
  c.ranks = nodes * c.ranks_per_node;
  const int count = 4 + static_cast<int>(rng() % 12);
  c.messages = random_messages(rng, c.ranks, count);
  c.progress = rng() % 3 == 0 ? Progress::None : Progress::Thread;
  return c;
}

// Only the messages between nodes (inter = true) or within them (block mapping).
RandomCase only(RandomCase c, bool inter) {
  std::erase_if(c.messages, [&](const PatternMessage& m) {
    return (m.src / c.ranks_per_node != m.dst / c.ranks_per_node) != inter;
  });
  return c;
}

// Every message's end and every rank's times, printed exactly.
std::string outcome(const RandomCase& c, const std::string& model) {
  return run_in_child_process([&c, &model] {
    RunOptions options;
    options.model = model;
    options.progress = c.progress;
    const Results r = run_pattern(c.platform, c.messages, c.ranks, options);
    std::ostringstream out;
    out.precision(17);
    out << exact_message_ends(r);
    for (const auto& rank : r.ranks) out << rank.send_time << ' ' << rank.recv_time << ' ' << rank.total_time << '\n';
    return out.str();
  });
}

std::string describe(const RandomCase& c) { return describe_pattern(c.messages, c.ranks, c.progress); }

constexpr unsigned kCases = 12;

}  // namespace

BOOST_AUTO_TEST_CASE(composition_with_zero_loggops_is_the_data_model) {
  for (unsigned seed = 1; seed <= kCases; ++seed) {
    const RandomCase c = random_case(seed);
    BOOST_TEST_CONTEXT("case " << seed << "\n" << c.platform << describe(c)) {
      for (const std::string a : {"maxmin", "simgrid-lmm", "staircase", "flowcut", "taulop"}) {
        BOOST_TEST_CONTEXT("model " << a) {
          const std::string alone = outcome(c, a);
          BOOST_TEST(outcome(c, a + "+loggops") == alone);
          BOOST_TEST(outcome(c, "intra=" + a + ",inter=" + a) == alone);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(composition_per_level_is_the_model_of_the_level_used) {
  for (unsigned seed = 1; seed <= kCases; ++seed) {
    const RandomCase c = random_case(seed);
    const RandomCase inter = only(c, true), intra = only(c, false);
    BOOST_TEST_CONTEXT("case " << seed << "\n" << c.platform << describe(c)) {
      for (std::size_t i = 0; i < kFluidModels.size(); ++i) {
        const std::string& a = kFluidModels[i];
        const std::string& b = kFluidModels[(i + 1 + seed) % kFluidModels.size()];
        BOOST_TEST_CONTEXT("intra " << a << ", inter " << b) {
          BOOST_TEST(outcome(inter, "intra=" + a + ",inter=" + b) == outcome(inter, b));
          BOOST_TEST(outcome(intra, "intra_socket=" + a + ",inter_socket=" + a + ",inter_node=" + b) ==
                     outcome(intra, a));
          BOOST_TEST(outcome(inter, "intra=" + a + ",inter=" + b + "+loggops") == outcome(inter, b));
        }
      }
    }
  }
}

// One 100 kB message between two nodes: staircase alone, then with loggops'
// o_s = 3 us, O_s = 0.01 ns/B, o_r = 2 us, O_r = 0.02 ns/B on top: the
// receive completes o_s + O_s k = 4 us later (the data leaves after the
// sender's CPU) plus o_r + O_r k = 4 us (the receiver's CPU after the last
// byte): 8 us in all; the sender (rendezvous) is done 4 us later.
BOOST_AUTO_TEST_CASE(staircase_plus_loggops_adds_the_overheads_to_one_message) {
  const std::string platform =
      star_cluster_yaml(2, 1, kGigabyteLevels) + models_yaml(loggops_section("3us", "0.01ns", "2us", "0.02ns", "1us"));
  const std::vector<PatternMessage> one = {{0, 1, 100000}};
  // The sender's send time, the receiver's receive time, the message's end.
  auto times = [&](const std::string& model) {
    return run_in_child_process([&] {
      const Results r = run_pattern(platform, one, 2, {.model = model});
      std::ostringstream out;
      out.precision(17);
      out << r.ranks[0].send_time << ' ' << r.ranks[1].recv_time << ' ' << r.messages.at(0).end;
      return out.str();
    });
  };
  std::istringstream alone(times("staircase")), composed(times("staircase+loggops"));
  double send = 0, recv = 0, end = 0, composed_send = 0, composed_recv = 0, composed_end = 0;
  alone >> send >> recv >> end;
  composed >> composed_send >> composed_recv >> composed_end;
  const double o_s = 3e-6 + 0.01e-9 * 1e5, o_r = 2e-6 + 0.02e-9 * 1e5;
  BOOST_TEST(end == 10e-6 + 100e-6, tt::tolerance(1e-12));  // the route's latency, then 100 kB at 1 GB/s
  BOOST_TEST(composed_end == end + o_s, tt::tolerance(1e-12));
  BOOST_TEST(composed_send == send + o_s, tt::tolerance(1e-12));
  BOOST_TEST(composed_recv == recv + o_s + o_r, tt::tolerance(1e-12));
}

// Rank 0 sends three empty eager messages to ranks 1, 2, 3 (one per node)
// at once: o_s = 1 us each, but consecutive sends begin g = 5 us apart, so
// the data leaves at 1, 6 and 11 us and arrives the route's latency (10 us)
// later.
BOOST_AUTO_TEST_CASE(loggops_gap_spaces_the_sends_of_a_rank) {
  const std::string platform =
      star_cluster_yaml(4, 1, kGigabyteLevels) + models_yaml(loggops_section("1us", "0", "0", "0", "5us"));
  const std::string composed = run_in_child_process([&] {
    const Results r = run_pattern(platform, {{0, 1, 0}, {0, 2, 0}, {0, 3, 0}}, 4, {.model = "maxmin+loggops"});
    std::ostringstream out;
    out.precision(17);
    for (int dst = 1; dst <= 3; ++dst) out << messages_between(r, 0, dst).at(0).end << ' ';
    return out.str();
  });
  std::istringstream in(composed);
  for (int dst = 1; dst <= 3; ++dst) {
    double end = 0;
    in >> end;
    BOOST_TEST(end == 1e-6 + (dst - 1) * 5e-6 + 10e-6, tt::tolerance(1e-12));
  }
}

// Attribution names both parts: the sender's CPU (o_s + O_s k = 4 us), then
// the staircase's latency and its node group.
BOOST_AUTO_TEST_CASE(staircase_plus_loggops_attribution_names_both_parts) {
  const std::string cluster = star_cluster_yaml(2, 1, kGigabyteLevels);
  const std::string overheads = loggops_section("3us", "0.01ns", "2us", "0.02ns", "0");
  const Results r = run_pattern(cluster + models_yaml(overheads), {{0, 1, 100000}}, 2,
                                {.model = "staircase+loggops", .attribution = true});
  const auto& m = attribution_of(r, 0, 1);
  BOOST_TEST_INFO(describe_intervals(m));
  BOOST_TEST_REQUIRE(m.intervals.size() == 3u);
  BOOST_TEST(m.intervals[0].resource == "cpu:o_s");
  BOOST_TEST(m.intervals[0].begin == 0.0);
  BOOST_TEST(m.intervals[0].end == 4e-6, tt::tolerance(1e-12));
  BOOST_TEST(m.intervals[1].resource == "latency");
  BOOST_TEST(m.intervals[2].resource.rfind("staircase:node1", 0) == 0u);
  BOOST_TEST(m.intervals[2].end == r.messages.at(0).end, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(simgrid_lmm_next_to_a_fluid_model_is_an_error) {
  ScriptWorkload idle(2, [](Mpi&) {});
  const std::string e =
      run_error(star_cluster_yaml(2, 1, kGigabyteLevels), idle, {.model = "intra=maxmin,inter=simgrid-lmm"});
  BOOST_TEST(e.find("model 'intra=maxmin,inter=simgrid-lmm': simgrid-lmm") == 0u, e);
  BOOST_TEST(e.find("use maxmin") != std::string::npos, e);
}
