// IndexedHeap: the fluid models' one event heap (sim/engine/indexed_heap.hpp).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "sim/engine/indexed_heap.hpp"

using namespace contend;

namespace {

// Pops everything, in order.
template <typename Id>
std::vector<std::pair<double, Id>> drain(IndexedHeap<Id>& heap) {
  std::vector<std::pair<double, Id>> out;
  while (!heap.empty()) {
    out.emplace_back(heap.top().time, heap.top().id);
    heap.pop();
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(indexed_heap)

BOOST_AUTO_TEST_CASE(simultaneous_events_come_out_by_id) {
  IndexedHeap<std::uint32_t> heap;
  for (std::uint32_t id : {7u, 3u, 9u, 0u}) heap.set(id, 2.0);
  heap.set(5, 1.0);
  const std::vector<std::pair<double, std::uint32_t>> expected{{1.0, 5}, {2.0, 0}, {2.0, 3}, {2.0, 7}, {2.0, 9}};
  BOOST_TEST((drain(heap) == expected));
}

BOOST_AUTO_TEST_CASE(set_moves_an_event_either_way) {
  IndexedHeap<int> heap;
  for (int id = 0; id < 8; ++id) heap.set(id, 10.0 + id);
  heap.set(6, 1.0);   // earlier: to the top
  heap.set(0, 20.0);  // later: to the bottom
  BOOST_TEST(heap.size() == 8u);
  BOOST_TEST(heap.time_of(6) == 1.0);
  BOOST_TEST(heap.time_of(0) == 20.0);
  const std::vector<std::pair<double, int>> expected{{1.0, 6},  {11.0, 1}, {12.0, 2}, {13.0, 3},
                                                     {14.0, 4}, {15.0, 5}, {17.0, 7}, {20.0, 0}};
  BOOST_TEST((drain(heap) == expected));
}

BOOST_AUTO_TEST_CASE(erase_removes_only_that_id) {
  IndexedHeap<std::uint32_t> heap;
  heap.set(4, 3.0);
  heap.set(2, 1.0);
  heap.set(8, 2.0);
  heap.erase(2);
  heap.erase(99);  // absent: nothing happens
  BOOST_TEST(!heap.contains(2));
  BOOST_TEST(!heap.contains(99));
  BOOST_TEST(heap.contains(8));
  const std::vector<std::pair<double, std::uint32_t>> expected{{2.0, 8}, {3.0, 4}};
  BOOST_TEST((drain(heap) == expected));
  heap.set(2, 5.0);  // an id may come back once gone
  BOOST_TEST(heap.top().id == 2u);
}

BOOST_AUTO_TEST_CASE(an_event_keeps_the_tag_it_was_last_set_with) {
  IndexedHeap<std::uint32_t> heap;
  heap.set(1, 5.0, 1);
  heap.set(2, 3.0);  // tag 0
  BOOST_TEST(heap.top().tag == 0);
  heap.set(1, 1.0, 2);  // moved up, new tag
  BOOST_TEST(heap.top().id == 1u);
  BOOST_TEST(heap.top().tag == 2);
  heap.set(1, 9.0, 3);  // moved down, new tag
  heap.pop();
  BOOST_TEST(heap.top().id == 1u);
  BOOST_TEST(heap.top().tag == 3);
}

BOOST_AUTO_TEST_CASE(matches_a_sorted_set) {
  // Property: random inserts, moves, erases and pops keep the heap's top
  // equal to the smallest (time, id) of a std::set holding the same events.
  std::mt19937 rng(7);
  IndexedHeap<std::uint32_t> q;
  std::set<std::pair<double, std::uint32_t>> ref;
  std::map<std::uint32_t, double> time_of;
  for (int step = 0; step < 20000; ++step) {
    const auto id = static_cast<std::uint32_t>(rng() % 64);
    const double t = static_cast<double>(rng() % 1000);  // ties happen
    switch (rng() % 4) {
      case 0:
      case 1:
        if (time_of.count(id)) ref.erase({time_of[id], id});
        q.set(id, t);
        ref.insert({t, id});
        time_of[id] = t;
        break;
      case 2:
        q.erase(id);
        if (time_of.count(id)) ref.erase({time_of[id], id});
        time_of.erase(id);
        break;
      default:
        if (!ref.empty()) {
          time_of.erase(q.top().id);
          q.pop();
          ref.erase(ref.begin());
        }
    }
    BOOST_TEST_REQUIRE(q.size() == ref.size());
    if (!ref.empty()) {
      BOOST_TEST_REQUIRE(q.top().time == ref.begin()->first);
      BOOST_TEST_REQUIRE(q.top().id == ref.begin()->second);
    }
  }
}

BOOST_AUTO_TEST_CASE(drains_in_the_order_of_a_sorted_reference) {
  // Property: after random operations on signed ids (staircase's classes and
  // groups), every id's time and membership agree with a sorted reference,
  // and popping everything yields exactly the reference's order.
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 200; ++trial) {
    IndexedHeap<int> heap;
    std::map<int, double> reference;  // id -> time
    const int ids = 1 + static_cast<int>(rng() % 200);
    const int steps = static_cast<int>(rng() % 2000);
    for (int step = 0; step < steps; ++step) {
      const int id = static_cast<int>(rng() % static_cast<unsigned>(ids));
      const double t = static_cast<double>(rng() % 50) * 0.125;  // exact, with ties
      if (rng() % 3 == 0) {
        heap.erase(id);
        reference.erase(id);
      } else {
        heap.set(id, t);
        reference[id] = t;
      }
    }
    for (int id = 0; id < ids; ++id) {
      BOOST_TEST_REQUIRE(heap.contains(id) == (reference.count(id) == 1));
      if (reference.count(id)) BOOST_TEST_REQUIRE(heap.time_of(id) == reference.at(id));
    }
    std::vector<std::pair<double, int>> sorted;
    for (const auto& [id, t] : reference) sorted.emplace_back(t, id);
    std::sort(sorted.begin(), sorted.end());
    BOOST_TEST_REQUIRE((drain(heap) == sorted), "trial " << trial);
  }
}

BOOST_AUTO_TEST_SUITE_END()
