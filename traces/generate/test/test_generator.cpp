#include <boost/test/unit_test.hpp>
#include <map>
#include <set>

#include "sim/core/error.hpp"
#include "traces/generate/halo_mesh.hpp"

using namespace contend;

BOOST_AUTO_TEST_SUITE(generator)

BOOST_AUTO_TEST_CASE(same_seed_same_pattern) {
  HaloMeshOptions o;
  o.parts = 16;
  o.cells_per_part = 200;
  const auto a = generate_halo_pattern(o);
  const auto b = generate_halo_pattern(o);
  BOOST_REQUIRE(a.messages.size() == b.messages.size());
  for (std::size_t i = 0; i < a.messages.size(); ++i) {
    BOOST_TEST(a.messages[i].src == b.messages[i].src);
    BOOST_TEST(a.messages[i].dst == b.messages[i].dst);
    BOOST_TEST(a.messages[i].bytes == b.messages[i].bytes);
  }
  o.seed = 2;
  const auto c = generate_halo_pattern(o);
  bool differs = c.messages.size() != a.messages.size();
  for (std::size_t i = 0; !differs && i < a.messages.size(); ++i) differs = a.messages[i].bytes != c.messages[i].bytes;
  BOOST_TEST(differs);
}

BOOST_AUTO_TEST_CASE(halo_is_a_neighbour_relation) {
  HaloMeshOptions o;
  o.parts = 32;
  o.cells_per_part = 300;
  o.bytes_per_cell = 8;
  HaloMeshStats stats;
  const auto p = generate_halo_pattern(o, &stats);
  BOOST_TEST(p.ranks == 32);
  std::set<std::pair<int, int>> pairs;
  std::set<int> active;
  for (const auto& m : p.messages) {
    BOOST_TEST(m.src != m.dst);
    BOOST_TEST(m.bytes % 8 == 0u);
    BOOST_TEST(m.bytes > 0u);
    BOOST_TEST(pairs.insert({m.src, m.dst}).second);  // one message per ordered pair
    active.insert(m.src);
  }
  // Face adjacency is symmetric: whoever sends to a neighbour also receives from it.
  for (const auto& [a, b] : pairs) BOOST_TEST(pairs.count({b, a}) == 1u);
  BOOST_TEST(active.size() == 32u);
  BOOST_TEST(stats.active_cells > 32 * 200);
  BOOST_TEST(stats.max_messages_per_rank >= 2);
}

BOOST_AUTO_TEST_CASE(wider_overlap_more_neighbours) {
  HaloMeshOptions o;
  o.parts = 64;
  o.total_cells = 20000;
  const auto one = generate_halo_pattern(o);
  o.overlap = 3;
  const auto three = generate_halo_pattern(o);
  BOOST_TEST(three.messages.size() > one.messages.size());
}

BOOST_AUTO_TEST_CASE(rejects_bad_options) {
  HaloMeshOptions o;
  o.parts = 100;
  o.total_cells = 50;
  BOOST_CHECK_THROW(generate_halo_pattern(o), Error);
  o.total_cells = 0;
  o.overlap = 0;
  BOOST_CHECK_THROW(generate_halo_pattern(o), Error);
}

BOOST_AUTO_TEST_SUITE_END()
