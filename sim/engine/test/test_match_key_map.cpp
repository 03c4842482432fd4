#include <boost/test/unit_test.hpp>
#include <map>
#include <random>
#include <tuple>

#include "sim/engine/match_key_map.hpp"

using namespace contend;

namespace {
auto as_tuple(const MatchKey& k) { return std::make_tuple(k.source, k.tag, k.comm); }
using Reference = std::map<std::tuple<int, int, int>, int>;

void check_same(const MatchKeyMap<int>& map, const Reference& reference) {
  BOOST_TEST(map.size() == reference.size());
  Reference listed;
  map.for_each([&](const MatchKey& k, int v) { listed.emplace(as_tuple(k), v); });
  BOOST_TEST((listed == reference));
}
}  // namespace

BOOST_AUTO_TEST_SUITE(match_key_map)

BOOST_AUTO_TEST_CASE(insert_find_erase) {
  MatchKeyMap<int> map;
  BOOST_TEST(map.empty());
  BOOST_TEST(map.find({1, 2, 3}) == nullptr);
  map.erase({1, 2, 3});  // absent: nothing happens
  auto [value, inserted] = map.try_emplace({1, 2, 3}, 7);
  BOOST_TEST(inserted);
  BOOST_TEST(*value == 7);
  auto [again, inserted_again] = map.try_emplace({1, 2, 3}, 9);
  BOOST_TEST(!inserted_again);
  BOOST_TEST(*again == 7);  // the first value stays
  BOOST_TEST(map.find({1, 2, 4}) == nullptr);
  map.erase({1, 2, 3});
  BOOST_TEST(map.empty());
  BOOST_TEST(map.find({1, 2, 3}) == nullptr);
}

// Random inserts and erases over few keys (long probe runs, erases that
// shift entries back across the end of the table) equal a std::map.
BOOST_AUTO_TEST_CASE(random_operations_equal_a_std_map) {
  for (unsigned seed = 1; seed <= 50; ++seed) {
    std::mt19937 rng(seed);
    const int span = 1 + static_cast<int>(seed % 40);
    std::uniform_int_distribution<int> part(-1, span);
    MatchKeyMap<int> map;
    Reference reference;
    for (int step = 0; step < 2000; ++step) {
      const MatchKey key{part(rng), part(rng) % 3, part(rng) % 2};
      const int op = static_cast<int>(rng() % 3);
      if (op == 0) {
        const auto [value, inserted] = map.try_emplace(key, step);
        const auto [it, ref_inserted] = reference.try_emplace(as_tuple(key), step);
        BOOST_TEST(inserted == ref_inserted);
        BOOST_TEST(*value == it->second);
      } else if (op == 1) {
        map.erase(key);
        reference.erase(as_tuple(key));
      } else {
        const int* value = map.find(key);
        const auto it = reference.find(as_tuple(key));
        BOOST_TEST((value == nullptr) == (it == reference.end()));
        if (value != nullptr && it != reference.end()) BOOST_TEST(*value == it->second);
      }
    }
    check_same(map, reference);
    for (const auto& [k, v] : Reference(reference)) {
      map.erase({std::get<0>(k), std::get<1>(k), std::get<2>(k)});
      reference.erase(k);
      BOOST_TEST(map.size() == reference.size());
    }
    BOOST_TEST(map.empty());
  }
}

BOOST_AUTO_TEST_SUITE_END()
