// SharedProgress (models/flowcut/shared_progress.hpp): the flows of a crowded
// pair on one clock of work give the same ends as moving every flow at every
// change of rate, as flowcut did before (remaining -= rate x elapsed).
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <map>
#include <random>

#include "models/flowcut/shared_progress.hpp"

using namespace contend;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_SUITE(flowcut_shared_progress)

BOOST_AUTO_TEST_CASE(ends_follow_the_changes_of_rate) {
  // Two flows of 1000 and 3000 B at 100 B/s from t = 0; at t = 5 the rate
  // halves: the first has 500 B left, ends at 5 + 500 / 50 = 15; the second
  // then has 3000 - 500 - 500 = 2000 B left: 15 + 2000 / 50 = 55.
  SharedProgress p;
  p.set_rate(0, 100);
  p.join(7, 3000, 0);
  p.join(9, 1000, 0);
  BOOST_TEST(p.first() == 9u);
  BOOST_TEST(p.first_end() == 10.0);
  p.set_rate(5, 50);
  BOOST_TEST(p.first_end() == 15.0);
  p.pop_first();
  BOOST_TEST(p.first() == 7u);
  BOOST_TEST(p.first_end() == 55.0);
  // A third joins at t = 25 with 100 B: it ends first, at 27.
  p.join(3, 100, 25);
  BOOST_TEST(p.first() == 3u);
  BOOST_TEST(p.first_end() == 27.0);
  // The second leaves at t = 25 with 2000 - 10 x 50 = 1500 B to move.
  BOOST_TEST(p.leave(7, 25) == 1500.0);
  BOOST_TEST(p.size() == 1u);
}

BOOST_AUTO_TEST_CASE(equal_ends_come_out_by_id) {
  SharedProgress p;
  p.set_rate(0, 10);
  for (SharedProgress::FlowId id : {5u, 2u, 8u}) p.join(id, 40, 0);
  for (SharedProgress::FlowId id : {2u, 5u, 8u}) {
    BOOST_TEST(p.first() == id);
    BOOST_TEST(p.first_end() == 4.0);
    p.pop_first();
  }
  BOOST_TEST(p.empty());
}

BOOST_AUTO_TEST_CASE(matches_moving_every_flow_on_random_histories) {
  // Property: random joins, changes of rate, ends and departures; after each
  // step the first flow and its end equal those of the direct computation
  // (each flow's own remaining bytes, moved at every change of rate).
  struct Direct {
    double remaining, since;
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> bytes(1e3, 1e7), gap(0, 2e-3), rate(1e8, 1e10);
  for (int trial = 0; trial < 40; ++trial) {
    SharedProgress p;
    std::map<SharedProgress::FlowId, Direct> direct;
    double now = 0, current = rate(rng);
    p.set_rate(now, current);
    SharedProgress::FlowId next_id = 0;
    auto end_of = [&](const Direct& d) { return d.since + d.remaining / current; };
    // Time moves on, never past the next end (as in the model, where an end is an event).
    auto move_on = [&] {
      now += gap(rng);
      if (!direct.empty()) now = std::min(now, end_of(direct.at(p.first())));
    };
    for (int step = 0; step < 400; ++step) {
      const unsigned what = rng() % 4;
      if (what == 0 || direct.empty()) {
        move_on();
        const double b = bytes(rng);
        p.join(next_id, b, now);
        direct[next_id++] = {b, now};
      } else if (what == 1) {
        move_on();
        for (auto& [id, d] : direct) d = {std::max(0.0, d.remaining - current * (now - d.since)), now};
        current = rate(rng);
        p.set_rate(now, current);
      } else if (what == 2) {
        now = end_of(direct.at(p.first()));
        direct.erase(p.first());
        p.pop_first();
      } else {
        auto it = direct.begin();
        std::advance(it, static_cast<long>(rng() % direct.size()));
        const double left = p.leave(it->first, now);
        const double expected = std::max(0.0, it->second.remaining - current * (now - it->second.since));
        BOOST_TEST_REQUIRE(std::abs(left - expected) <= 1e-6);  // bytes, of up to 1e7
        direct.erase(it);
      }
      BOOST_TEST_REQUIRE(p.size() == direct.size());
      if (direct.empty()) continue;
      double earliest = INFINITY;
      for (const auto& [id, d] : direct) earliest = std::min(earliest, end_of(d));
      BOOST_TEST_REQUIRE(p.first_end() == earliest, tt::tolerance(1e-12));
      BOOST_TEST_REQUIRE(end_of(direct.at(p.first())) == earliest, tt::tolerance(1e-12));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
