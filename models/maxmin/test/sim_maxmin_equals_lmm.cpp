// Property: the `maxmin` model equals SimGrid's LMM (`simgrid-lmm`) message
// by message, within 1e-9 relative, on random small platforms and patterns:
// star, fat-tree and Dragonfly+ networks, non-linear BW_MP(n) levels,
// staggered starts, eager and rendezvous messages, both progression modes
// that move data by themselves. SimGrid allows one engine per process: each
// simulation runs in a child process.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <random>
#include <set>
#include <sstream>

#include "sim/engine/worker_pool.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;

namespace {

struct RandomCase {
  std::string platform;
  std::vector<PatternMessage> messages;
  int ranks = 0;
  Progress progress = Progress::Thread;
};

std::string network(std::mt19937& rng, int& nodes) {
  switch (rng() % 3) {
    case 0:
      nodes = 2 + static_cast<int>(rng() % 4);
      return "{topology: star, link_bandwidth: " + std::to_string(200 + rng() % 800) +
             "MB/s, link_latency: " + std::to_string(rng() % 3) + "us}";
    case 1:
      nodes = 4;
      return "{topology: fat-tree, levels: 2, down: [2, 2], up: [1, 2], link_count: [1, 1], link_bandwidth: " +
             std::to_string(200 + rng() % 800) + "MB/s, link_latency: 1us}";
    default:
      nodes = 4;
      return "{topology: dragonfly+, groups: 2, leaves_per_group: 1, spines_per_group: 1, nodes_per_leaf: 2, "
             "global_links: 1, node_link_bandwidth: " +
             std::to_string(300 + rng() % 700) +
             "MB/s, local_link_bandwidth: 1GB/s, global_link_bandwidth: " + std::to_string(200 + rng() % 800) +
             "MB/s, node_link_latency: 0.1us, local_link_latency: 0.1us, "
             "global_link_latency: 0.5us}";
  }
}

RandomCase random_case(unsigned seed) {
  std::mt19937 rng(seed);
  RandomCase c;
  int nodes = 2;
  const std::string net = network(rng, nodes);
  const int sockets = 1 + static_cast<int>(rng() % 2), cores = 1 + static_cast<int>(rng() % 3);
  const std::string levels =
      levels_yaml({"1us", "2us", std::to_string(1 + rng() % 5) + "us"}, "16KiB",
                  {random_bandwidth_table(rng), random_bandwidth_table(rng), random_bandwidth_table(rng)});
  const std::string nic = "{bandwidth: " + std::to_string(300 + rng() % 700) + "MB/s}";
  c.platform = platform_yaml(nodes, sockets, cores, levels, net, nic);
  c.ranks = nodes * sockets * cores;
  const int count = 2 + static_cast<int>(rng() % 10);
  c.messages = random_messages(rng, c.ranks, count);
  c.progress = rng() % 3 == 0 ? Progress::None : Progress::Thread;
  return c;
}

// Each message's end time, in the order the simulation recorded them,
// printed exactly.
std::string message_ends(const RandomCase& c, const std::string& model) {
  return run_in_child_process([&c, &model] {
    RunOptions options;
    options.model = model;
    options.progress = c.progress;
    return exact_message_ends(run_pattern(c.platform, c.messages, c.ranks, options));
  });
}

std::string describe(const RandomCase& c) { return describe_pattern(c.messages, c.ranks, c.progress); }

struct Line {
  int src, dst;
  std::uint64_t bytes;
  double end;
};

std::vector<Line> parse(const std::string& text) {
  std::vector<Line> lines;
  std::istringstream in(text);
  Line l{};
  while (in >> l.src >> l.dst >> l.bytes >> l.end) lines.push_back(l);
  return lines;
}

}  // namespace

BOOST_AUTO_TEST_CASE(maxmin_equals_simgrid_lmm_on_random_cases) {
  const unsigned cases = 200;
  int messages = 0;
  double worst = 0;
  for (unsigned seed = 1; seed <= cases; ++seed) {
    const RandomCase c = random_case(seed);
    BOOST_TEST_CONTEXT("case " << seed << "\n" << c.platform << describe(c)) {
      std::vector<Line> fast, reference;
      try {
        fast = parse(message_ends(c, "maxmin"));
        reference = parse(message_ends(c, "simgrid-lmm"));
      } catch (const std::exception& e) {
        BOOST_ERROR(e.what());
        continue;
      }
      BOOST_REQUIRE_EQUAL(fast.size(), c.messages.size());
      BOOST_REQUIRE_EQUAL(reference.size(), c.messages.size());
      for (std::size_t i = 0; i < fast.size(); ++i) {
        BOOST_TEST(fast[i].src == reference[i].src);
        BOOST_TEST(fast[i].dst == reference[i].dst);
        const double error = std::abs(fast[i].end - reference[i].end) / std::max(reference[i].end, 1e-12);
        worst = std::max(worst, error);
        BOOST_TEST(error <= 1e-9,
                   "message " << i << ": maxmin " << fast[i].end << " s, simgrid-lmm " << reference[i].end << " s");
      }
      messages += static_cast<int>(fast.size());
    }
  }
  BOOST_TEST_MESSAGE(cases << " random cases, " << messages << " messages, largest relative difference " << worst);
}
