// The search against planted partitions: groups of ranks with heavy traffic
// inside and light traffic between them, rank ids scrambled. Putting each
// group on a node of its own is the planted optimum; the search must find a
// mapping within 2% of its simulated makespan, from starting points that
// know nothing of the groups. Each candidate is simulated in a child
// process, so this suite runs no SimGrid engine itself.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <numeric>
#include <random>
#include <sstream>

#include "models/registry.hpp"
#include "sim/core/hosts.hpp"
#include "sim/core/pattern.hpp"
#include "sim/core/platform.hpp"
#include "sim/search/mapping_search.hpp"
#include "sim/workload/pattern_workload.hpp"

using namespace contend;

namespace {

struct Planted {
  std::string pattern_text;
  Mapping optimum;  // group g's ranks on node g, in the group's order on its cores
};

// `groups` groups of `size` ranks: every pair inside a group exchanges
// `heavy` bytes each way; every rank sends `light` bytes to one rank of the
// next group. Rank ids are a seeded permutation of the group layout.
Planted planted(int groups, int size, const NodeArchitecture& nodes, std::uint64_t seed, long heavy, long light) {
  const int ranks = groups * size;
  std::vector<int> id(static_cast<std::size_t>(ranks));  // id[group * size + member]
  std::iota(id.begin(), id.end(), 0);
  std::mt19937_64 random(seed);
  std::shuffle(id.begin(), id.end(), random);
  auto rank_of = [&](int group, int member) { return id[static_cast<std::size_t>(group * size + member)]; };
  std::ostringstream text;
  text << "ranks " << ranks << "\n";
  std::vector<Placement> optimum(static_cast<std::size_t>(ranks));
  for (int g = 0; g < groups; ++g) {
    for (int a = 0; a < size; ++a) {
      optimum[static_cast<std::size_t>(rank_of(g, a))] =
          Placement{g, a / nodes.cores_per_socket, a % nodes.cores_per_socket};
      for (int b = 0; b < size; ++b)
        if (a != b) text << rank_of(g, a) << ' ' << rank_of(g, b) << ' ' << heavy << "\n";
      text << rank_of(g, a) << ' ' << rank_of((g + 1) % groups, a) << ' ' << light << "\n";
    }
  }
  return {text.str(), Mapping(std::move(optimum))};
}

EvaluationSetup setup_for(const Platform& platform, const Pattern& pattern) {
  EvaluationSetup setup;
  setup.platform = &platform;
  setup.models = &all_models();
  setup.model = "maxmin";
  setup.rank_count = pattern.ranks;
  setup.make_workload = [&pattern] { return std::make_unique<PatternWorkload>(pattern); };
  return setup;
}

// The frozen copy of the calibrated testbed: recalibrating the shipped platform
// must not move the search's outcome.
Platform testbed() {
  return read_platform(std::string(CONTEND_SOURCE_DIR) + "/tests/data/platforms/testbed-frozen.yaml");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(planted_partition)

BOOST_AUTO_TEST_CASE(groups_are_recovered_within_two_percent) {
  const Platform platform = testbed();  // 4 nodes of 4 cores, 100 Mbit/s between them
  const Machine machine = machine_of(platform);
  for (std::uint64_t scramble : {11u, 12u, 13u}) {
    const Planted p = planted(4, 4, platform.nodes, scramble, 256 * 1024, 1024);
    std::istringstream in(p.pattern_text);
    const Pattern pattern = read_pattern(in, "planted");
    const EvaluationSetup setup = setup_for(platform, pattern);
    Evaluator evaluator(setup, 2);
    const double optimum = evaluator.evaluate({p.optimum}, {"planted"}).front().value().makespan;

    SearchOptions options;
    options.jobs = 2;
    options.seed = 1;
    options.max_evaluations = 80;
    const SearchResult result = search_mapping(setup, machine, options);
    BOOST_TEST_INFO("scramble " << scramble << ": planted " << optimum << " s, found " << result.best.name << " "
                                << result.best.evaluation.makespan << " s, block " << result.block.evaluation.makespan
                                << " s");
    BOOST_TEST(result.best.evaluation.makespan <= 1.02 * optimum);
    // The scrambling makes block far from the optimum: the test can fail.
    BOOST_TEST(result.block.evaluation.makespan > 1.5 * optimum);
  }
}

BOOST_AUTO_TEST_CASE(same_seed_same_mapping_whatever_the_jobs) {
  const Platform platform = testbed();
  const Machine machine = machine_of(platform);
  const Planted p = planted(4, 4, platform.nodes, 21, 128 * 1024, 4096);
  std::istringstream in(p.pattern_text);
  const Pattern pattern = read_pattern(in, "planted");
  const EvaluationSetup setup = setup_for(platform, pattern);
  std::vector<Mapping> found;
  for (int jobs : {1, 3}) {
    SearchOptions options;
    options.jobs = jobs;
    options.seed = 7;
    options.max_evaluations = 40;
    found.push_back(search_mapping(setup, machine, options).best.mapping);
  }
  BOOST_TEST((found[0] == found[1]));
}

BOOST_AUTO_TEST_SUITE_END()
