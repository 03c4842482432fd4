// The maxmin model's latency ends (latency_ends.hpp) come out as the heap of
// (time, transfer) they replace would give them: soonest first, ties by
// transfer id, each instant's batch within the timing precision.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "models/maxmin/latency_ends.hpp"

using namespace contend;

BOOST_AUTO_TEST_SUITE(maxmin_latency_ends)

BOOST_AUTO_TEST_CASE(simultaneous_ends_come_out_by_transfer_id_whatever_the_start_order) {
  LatencyEnds ends;
  BOOST_TEST(ends.next() == LatencyEnds::kNever);
  // Started at t = 0 in the order 7, 3, 5 on one latency, 1 on another that
  // ends at the same time.
  ends.add(7, 2e-6, 0.0);
  ends.add(3, 2e-6, 0.0);
  ends.add(5, 2e-6, 0.0);
  ends.add(1, 1e-6, 1e-6);
  ends.add(9, 5e-6, 0.0);
  BOOST_TEST(ends.next() == 2e-6);
  std::vector<TransferId> due;
  ends.take_due(2e-6, 1e-9, due);
  BOOST_TEST(due == (std::vector<TransferId>{1, 3, 5, 7}), boost::test_tools::per_element());
  BOOST_TEST(ends.next() == 5e-6);
  due.clear();
  ends.take_due(4e-6, 1e-9, due);
  BOOST_TEST(due.empty());
  ends.take_due(5e-6 - 0.5e-9, 1e-9, due);  // within the precision: due now
  BOOST_TEST(due == (std::vector<TransferId>{9}), boost::test_tools::per_element());
  BOOST_TEST(ends.next() == LatencyEnds::kNever);
}

BOOST_AUTO_TEST_CASE(a_start_a_rounding_error_early_keeps_the_order) {
  LatencyEnds ends;
  ends.add(1, 1e-6, 1.0);
  ends.add(2, 1e-6, 1.0 - 1e-15);  // before the previous start
  BOOST_TEST(ends.next() == 1e-6 + (1.0 - 1e-15));
  std::vector<TransferId> due;
  ends.take_due(1.0 + 1e-6, 1e-12, due);
  BOOST_TEST(due == (std::vector<TransferId>{2, 1}), boost::test_tools::per_element());
}

// Random starts in clock order on a few latencies, drained at random
// instants: the same batches, in the same order, as a set of (time, id).
BOOST_AUTO_TEST_CASE(equals_a_heap_of_time_and_id_on_random_cases) {
  std::mt19937 random(18);
  for (int round = 0; round < 200; ++round) {
    LatencyEnds ends;
    std::set<std::pair<double, TransferId>> reference;
    const std::vector<double> latencies = {1.858e-6, 25e-6, 27e-6};
    std::uniform_int_distribution<int> pick(0, 2), coin(0, 3);
    std::uniform_real_distribution<double> step(0.0, 3e-6);
    std::vector<TransferId> ids(60);
    for (TransferId i = 0; i < ids.size(); ++i) ids[i] = i;
    std::shuffle(ids.begin(), ids.end(), random);
    double clock = 0;
    std::size_t next_id = 0;
    while (next_id < ids.size() || !reference.empty()) {
      if (next_id < ids.size() && (reference.empty() || coin(random) != 0)) {
        if (coin(random) == 0) clock += step(random);  // else a start at the same instant
        const double latency = latencies[static_cast<std::size_t>(pick(random))];
        ends.add(ids[next_id], latency, clock);
        reference.insert({latency + clock, ids[next_id]});
        ++next_id;
        continue;
      }
      const double now = reference.begin()->first;
      BOOST_TEST(ends.next() == now);
      std::vector<TransferId> due, expected;
      ends.take_due(now, 1e-9, due);
      while (!reference.empty() && reference.begin()->first - now < 1e-9) {
        expected.push_back(reference.begin()->second);
        reference.erase(reference.begin());
      }
      BOOST_TEST(due == expected, boost::test_tools::per_element());
      clock = std::max(clock, now);
    }
    BOOST_TEST(ends.next() == LatencyEnds::kNever);
  }
}

BOOST_AUTO_TEST_SUITE_END()
