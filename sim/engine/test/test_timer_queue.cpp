// TimerQueue: FluidModel's per-transfer timers in lanes and a heap
// (sim/engine/timer_queue.hpp). Whatever lane a timer is given, the queue
// pops in (time, id) order, as one IndexedHeap of them would.
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/engine/timer_queue.hpp"

using namespace contend;

namespace {

using Popped = std::tuple<double, TransferId, std::uint8_t>;

std::vector<Popped> drain(TimerQueue& queue) {
  std::vector<Popped> out;
  while (!queue.empty()) {
    const auto t = queue.top();
    out.emplace_back(t.time, t.id, t.tag);
    queue.pop();
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(timer_queue)

BOOST_AUTO_TEST_CASE(lanes_and_heap_merge_by_time_then_id) {
  TimerQueue queue;
  queue.set(4, 2.0, 0, TimerQueue::family_lane(0));
  queue.set(9, 3.0, 0, TimerQueue::family_lane(0));
  queue.set(2, 2.0, 1, TimerQueue::kNoLane);
  queue.set(6, 1.0, 1, TimerQueue::family_lane(1));
  queue.set(3, 2.0, 0, TimerQueue::kAnyLane);
  queue.set(1, 3.0, 1, TimerQueue::kAnyLane);
  const std::vector<Popped> expected{{1.0, 6, 1}, {2.0, 2, 1}, {2.0, 3, 0}, {2.0, 4, 0}, {3.0, 1, 1}, {3.0, 9, 0}};
  BOOST_TEST((drain(queue) == expected));
}

BOOST_AUTO_TEST_CASE(a_timer_out_of_its_lanes_order_still_comes_in_order) {
  TimerQueue queue;
  const auto lane = TimerQueue::family_lane(3);
  queue.set(5, 2.0, 0, lane);
  queue.set(7, 1.0, 0, lane);  // earlier than the lane's last: the heap takes it
  queue.set(4, 2.0, 0, lane);  // same time, smaller id: the heap too
  const std::vector<Popped> expected{{1.0, 7, 0}, {2.0, 4, 0}, {2.0, 5, 0}};
  BOOST_TEST((drain(queue) == expected));
}

BOOST_AUTO_TEST_CASE(moved_timers_leave_nothing_that_fires) {
  TimerQueue queue;
  const auto lane = TimerQueue::family_lane(0);
  for (TransferId id = 0; id < 4; ++id) queue.set(id, 1.0 + id, 0, lane);
  queue.set(0, 10.0, 1, lane);                 // the front moves behind the others
  queue.set(2, 0.5, 1, TimerQueue::kNoLane);   // one behind the front moves to the heap, earlier
  queue.set(1, 2.5, 0, TimerQueue::kAnyLane);  // another moves to a shared lane
  const std::vector<Popped> expected{{0.5, 2, 1}, {2.5, 1, 0}, {4.0, 3, 0}, {10.0, 0, 1}};
  BOOST_TEST((drain(queue) == expected));
}

BOOST_AUTO_TEST_CASE(pops_as_one_heap_would_on_random_operations) {
  std::mt19937 random(18);
  for (int round = 0; round < 40; ++round) {
    TimerQueue queue;
    std::set<std::pair<double, TransferId>> reference;
    std::map<TransferId, std::pair<double, std::uint8_t>> timers;
    double clock = 0;
    for (int step = 0; step < 3000; ++step) {
      const int what = static_cast<int>(random() % 10);
      if (what < 3 && !reference.empty()) {
        const auto top = queue.top();
        const auto expected = *reference.begin();
        BOOST_TEST_REQUIRE(top.time == expected.first);
        BOOST_TEST_REQUIRE(top.id == expected.second);
        BOOST_TEST_REQUIRE(top.tag == timers.at(top.id).second);
        clock = top.time;
        queue.pop();
        reference.erase(reference.begin());
        timers.erase(expected.second);
        continue;
      }
      const auto id = static_cast<TransferId>(random() % 200);
      // Mostly a few latencies or gaps after the clock (ties included), sometimes anything later.
      const double time = what < 8 ? clock + 0.25 * static_cast<double>(random() % 4)
                                   : clock + static_cast<double>(random() % 1000) / 100;
      const auto tag = static_cast<std::uint8_t>(random() % 2);
      const int lane_kind = static_cast<int>(random() % 3);
      const auto lane = lane_kind == 0   ? TimerQueue::kNoLane
                        : lane_kind == 1 ? TimerQueue::kAnyLane
                                         : TimerQueue::family_lane(static_cast<std::uint32_t>(id % 5));
      if (const auto it = timers.find(id); it != timers.end()) reference.erase({it->second.first, id});
      timers[id] = {time, tag};
      reference.insert({time, id});
      queue.set(id, time, tag, lane);
    }
    while (!reference.empty()) {
      BOOST_TEST_REQUIRE(!queue.empty());
      BOOST_TEST_REQUIRE(queue.top().time == reference.begin()->first);
      BOOST_TEST_REQUIRE(queue.top().id == reference.begin()->second);
      queue.pop();
      reference.erase(reference.begin());
    }
    BOOST_TEST(queue.empty());
  }
}

BOOST_AUTO_TEST_SUITE_END()
