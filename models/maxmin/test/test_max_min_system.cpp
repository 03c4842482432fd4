// MaxMinSystem (max_min_system.hpp): links crossed by the same route classes
// solved as one constraint give the values of one constraint per link, and
// without merging the bottleneck named is the one SimGrid's rounds name
// (what `--explain` reports), not the group's.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "models/maxmin/max_min_system.hpp"

using namespace contend;

namespace {

using Policy = MaxMinSystem::Policy;

// SimGrid's walk sets up the first modified link first (a variable marks its
// links in its order), then the links its variables reach: with the route
// [1, 0] over two links of the same capacity, link 1 is first in the order
// of the links that may saturate, and the round names it.
MaxMinSystem two_equal_links(bool merge_links) {
  MaxMinSystem system(merge_links);
  system.add_link(1e9, Policy::Shared);
  system.add_link(1e9, Policy::Shared);
  const auto v = system.add_variable({1, 0}, 1.0, 0.0);
  system.add_flows(v, 2);
  system.solve();
  return system;
}

// By node: an out link and an up link, a down link and an in link, with
// capacities drawn from few values (ties), some out links NONLINEAR; and
// one FATPIPE link (returned). The same `seed` gives the same links.
struct Star {
  std::vector<std::vector<MaxMinSystem::LinkId>> out, in;

  MaxMinSystem::LinkId add_links(MaxMinSystem& system, int nodes, std::uint64_t seed) {
    const double capacities[] = {1e9, 2e9, 1.25e9};
    std::mt19937_64 same(seed);
    out.assign(static_cast<std::size_t>(nodes), {});
    in.assign(static_cast<std::size_t>(nodes), {});
    for (int n = 0; n < nodes; ++n) {
      for (int k = 0; k < 2; ++k) {
        const double c = capacities[same() % 3];
        const bool nonlinear = same() % 4 == 0;
        out[n].push_back(nonlinear ? system.add_link(c, Policy::NonLinear, [c](int f) { return c * (1 + 1.0 / f); })
                                   : system.add_link(c, Policy::Shared));
      }
      for (int k = 0; k < 2; ++k) in[n].push_back(system.add_link(capacities[same() % 3], Policy::Shared));
    }
    return system.add_link(1.5e9, Policy::FatPipe);
  }
};

// Both systems agree on every variable's value (within 1e-9).
void check_agree(const MaxMinSystem& merged, const MaxMinSystem& per_link, std::uint32_t variables, int trial,
                 int step) {
  for (MaxMinSystem::VariableId x = 0; x < variables; ++x) {
    const double expected = per_link.value(x);
    BOOST_TEST(std::abs(merged.value(x) - expected) <= 1e-9 * std::abs(expected),
               "trial " << trial << " step " << step << " variable " << x << ": merged " << merged.value(x)
                        << ", per link " << expected);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(maxmin_system)

BOOST_AUTO_TEST_CASE(without_merging_the_first_link_of_simgrids_walk_is_named) {
  const MaxMinSystem system = two_equal_links(false);
  BOOST_TEST(system.value(0) == 0.5e9);
  BOOST_TEST(system.bottleneck(0) == 1u);
  BOOST_TEST(system.capacity(1) == 1e9);
  BOOST_TEST(system.link_flows(1) == 2);
}

BOOST_AUTO_TEST_CASE(merged_links_give_the_same_value) {
  const MaxMinSystem merged = two_equal_links(true);
  BOOST_TEST(merged.value(0) == 0.5e9);
  BOOST_TEST(merged.bottleneck(0) != MaxMinSystem::kNoLink);
}

// The smaller capacity of a group bounds its flows, and names the link.
BOOST_AUTO_TEST_CASE(a_group_is_bounded_by_its_smallest_capacity) {
  for (bool merge : {false, true}) {
    MaxMinSystem system(merge);
    system.add_link(2e9, Policy::Shared);
    system.add_link(1e9, Policy::Shared);
    system.add_link(1e9, Policy::NonLinear, [](int n) { return 3e9 / n; });
    const auto a = system.add_variable({0, 1}, 1.0, 0.0);
    const auto b = system.add_variable({2}, 1.0, 0.0);
    system.add_flows(a, 4);
    system.add_flows(b, 2);
    system.solve();
    BOOST_TEST(system.value(a) == 0.25e9);
    BOOST_TEST(system.bottleneck(a) == 1u);
    BOOST_TEST(system.value(b) == 0.75e9);
  }
}

// Property: on random systems whose links come in sets crossed by the same
// routes (a star's NIC and switch links), with capacities drawn from few
// values (ties), NONLINEAR and FATPIPE links, bounds, flows joining and
// leaving, merged and per-link solves give the same values at every solve.
BOOST_AUTO_TEST_CASE(merged_and_per_link_solves_agree_on_random_systems) {
  std::mt19937_64 random(18);
  for (int trial = 0; trial < 200; ++trial) {
    MaxMinSystem merged(true), per_link(false);
    const int nodes = 2 + static_cast<int>(random() % 6);
    Star star;
    for (auto* system : {&merged, &per_link}) {
      const auto fat = star.add_links(*system, nodes, static_cast<std::uint64_t>(trial));
      std::mt19937_64 routes(static_cast<std::uint64_t>(trial) + 1000);
      for (int from = 0; from < nodes; ++from) {
        for (int to = 0; to < nodes; ++to) {
          if (from == to) continue;
          std::vector<MaxMinSystem::LinkId> links = {star.out[from][0], star.out[from][1]};
          if (routes() % 3 == 0) links.push_back(fat);
          links.push_back(star.in[to][0]);
          links.push_back(star.in[to][1]);
          const double penalty = 1e-6 * static_cast<double>(1 + routes() % 3);
          const double bound = routes() % 5 == 0 ? 0.3e9 : 0.0;
          system->add_variable(links, penalty, bound);
        }
      }
    }
    const auto variables = static_cast<std::uint32_t>(nodes * (nodes - 1));
    for (int step = 0; step < 30; ++step) {
      const auto v = static_cast<MaxMinSystem::VariableId>(random() % variables);
      const int count = 1 + static_cast<int>(random() % 3);
      if (merged.flows(v) >= count && random() % 2 == 0) {
        merged.remove_flows(v, count);
        per_link.remove_flows(v, count);
      } else {
        merged.add_flows(v, count);
        per_link.add_flows(v, count);
      }
      merged.solve();
      per_link.solve();
      check_agree(merged, per_link, variables, trial, step);
    }
  }
}

// Property: route classes added one at a time between solves (as pairs
// start to communicate), some crossing a node's out links in part (which
// splits their group: every link is grouped again) or joining links no
// class crossed yet (a new group): merged and per-link solves still agree
// after every class and every solve.
BOOST_AUTO_TEST_CASE(classes_added_between_solves_keep_merged_and_per_link_solves_equal) {
  std::mt19937_64 random(1818);
  for (int trial = 0; trial < 200; ++trial) {
    MaxMinSystem merged(true), per_link(false);
    const int nodes = 2 + static_cast<int>(random() % 6);
    Star star;
    MaxMinSystem::LinkId fat = 0;
    for (auto* system : {&merged, &per_link}) fat = star.add_links(*system, nodes, static_cast<std::uint64_t>(trial));
    std::uint32_t variables = 0;
    for (int step = 0; step < 40; ++step) {
      const int from = static_cast<int>(random() % static_cast<std::uint64_t>(nodes));
      const int to = (from + 1 + static_cast<int>(random() % static_cast<std::uint64_t>(nodes - 1))) % nodes;
      std::vector<MaxMinSystem::LinkId> links = {star.out[from][0]};
      if (random() % 4 != 0) links.push_back(star.out[from][1]);  // else crosses its node's out links in part
      if (random() % 3 == 0) links.push_back(fat);
      links.push_back(star.in[to][0]);
      if (random() % 4 != 0) links.push_back(star.in[to][1]);
      const double penalty = 1e-6 * static_cast<double>(1 + random() % 3);
      const double bound = random() % 5 == 0 ? 0.3e9 : 0.0;
      const auto v = merged.add_variable(links, penalty, bound);
      BOOST_TEST(per_link.add_variable(links, penalty, bound) == v);
      variables = v + 1;
      const int count = 1 + static_cast<int>(random() % 3);
      merged.add_flows(v, count);
      per_link.add_flows(v, count);
      const auto w = static_cast<MaxMinSystem::VariableId>(random() % variables);
      if (merged.flows(w) > 0 && random() % 3 == 0) {
        merged.remove_flows(w, 1);
        per_link.remove_flows(w, 1);
      }
      merged.solve();
      per_link.solve();
      check_agree(merged, per_link, variables, trial, step);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
