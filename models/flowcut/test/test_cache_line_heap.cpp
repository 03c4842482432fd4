// CacheLineHeap (models/flowcut/cache_line_heap.hpp), flowcut's heap of a
// crowded pair's ends: it gives the order a sorted set gives, through
// pushes, pops and erasures at any position.
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "models/flowcut/cache_line_heap.hpp"

using namespace contend;

namespace {

struct Entry {
  double time;
  std::uint32_t id;
  bool operator<(const Entry& o) const { return time < o.time || (time == o.time && id < o.id); }
  bool operator>(const Entry& o) const { return o < *this; }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(flowcut_cache_line_heap)

BOOST_AUTO_TEST_CASE(four_entries_of_16_bytes_per_line) {
  BOOST_TEST(CacheLineHeap<Entry>::kArity == 4u);
  BOOST_TEST(CacheLineHeap<std::uint64_t>::kArity == 8u);
}

BOOST_AUTO_TEST_CASE(pops_in_order_with_ties_by_id) {
  CacheLineHeap<Entry> heap;
  BOOST_TEST(heap.empty());
  for (std::uint32_t id : {5u, 2u, 9u, 1u, 7u}) heap.push({id == 9 ? 0.5 : 1.0, id});
  BOOST_TEST(heap.size() == 5u);
  std::vector<std::uint32_t> order;
  while (!heap.empty()) {
    order.push_back(heap.top().id);
    heap.pop();
  }
  BOOST_TEST(order == (std::vector<std::uint32_t>{9, 1, 2, 5, 7}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_max_heap_with_greater) {
  CacheLineHeap<int, std::greater<>> heap;
  for (int v : {3, 8, 1, 8, 5}) heap.push(v);
  std::vector<int> order;
  while (!heap.empty()) {
    order.push_back(heap.top());
    heap.pop();
  }
  BOOST_TEST(order == (std::vector<int>{8, 8, 5, 3, 1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(matches_a_sorted_set_on_random_histories) {
  // Property: random pushes (many equal times), pops and erasures anywhere;
  // after each operation the top is the set's least, and for_each visits
  // exactly the set's elements.
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    CacheLineHeap<Entry> heap;
    std::set<std::pair<double, std::uint32_t>> expected;
    std::uint32_t next_id = 0;
    for (int step = 0; step < 3000; ++step) {
      const unsigned what = rng() % 5;
      if (what <= 2 || expected.empty()) {
        const double time = static_cast<double>(rng() % 50);
        heap.push({time, next_id});
        expected.insert({time, next_id++});
      } else if (what == 3) {
        heap.pop();
        expected.erase(expected.begin());
      } else {
        const std::size_t i = rng() % heap.size();
        const Entry e = heap[i];
        BOOST_TEST(heap.find_if([&](const Entry& x) { return x.id == e.id; }) == i);
        heap.erase_at(i);
        expected.erase({e.time, e.id});
      }
      BOOST_TEST_REQUIRE(heap.size() == expected.size());
      if (expected.empty()) continue;
      BOOST_TEST_REQUIRE(heap.top().time == expected.begin()->first);
      BOOST_TEST_REQUIRE(heap.top().id == expected.begin()->second);
    }
    std::set<std::pair<double, std::uint32_t>> seen;
    heap.for_each([&](const Entry& e) { seen.insert({e.time, e.id}); });
    BOOST_TEST((seen == expected));
    BOOST_TEST(heap.find_if([](const Entry& e) { return e.id == 0xffffffffu; }) == heap.size());
  }
}

BOOST_AUTO_TEST_SUITE_END()
