// ResourceLoads: what models report becomes one sample per change.
#include <boost/test/unit_test.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/timeline_loads.hpp"

using namespace contend;

namespace {

using Sample = std::tuple<std::string, double, double>;  // resource, time, load

std::vector<Sample> samples(const ResourceLoads& loads, double end) {
  Timeline t;
  loads.write_to(t, end);
  std::vector<Sample> out;
  for (const auto& l : t.loads()) out.emplace_back(t.resources()[l.resource].name, l.time, l.load);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(timeline_loads)

BOOST_AUTO_TEST_CASE(a_name_is_one_resource) {
  ResourceLoads loads;
  const auto a = loads.resource("nic:node0/in", "flows");
  const auto b = loads.resource("nic:node1/in", "flows");
  BOOST_TEST(a != b);
  BOOST_TEST(loads.resource("nic:node0/in", "flows") == a);
  BOOST_TEST(loads.resource_count() == 2u);
  Timeline t;
  loads.write_to(t, 1);
  BOOST_TEST_REQUIRE(t.resources().size() == 2u);
  BOOST_TEST(t.resources()[1].name == "nic:node1/in");
  BOOST_TEST(t.resources()[1].unit == "flows");
  BOOST_TEST(t.loads().empty());  // never loaded: no samples
}

BOOST_AUTO_TEST_CASE(set_writes_only_changes) {
  ResourceLoads loads;
  const auto r = loads.resource("nic:node0/in", "flows");
  loads.set(r, 1, 1);
  loads.set(r, 2, 1);  // no change
  loads.set(r, 3, 2);
  loads.set(r, 4, 0);
  BOOST_TEST((samples(loads, 10) ==
              std::vector<Sample>{{"nic:node0/in", 1, 1}, {"nic:node0/in", 3, 2}, {"nic:node0/in", 4, 0}}));
}

BOOST_AUTO_TEST_CASE(an_instant_keeps_its_last_value) {
  // 1 -> 2 -> 1 within one instant is no change; 1 -> 3 -> 2 is one sample of 2.
  ResourceLoads loads;
  const auto r = loads.resource("link:x", "flows");
  loads.set(r, 1, 1);
  loads.set(r, 2, 2);
  loads.set(r, 2, 1);
  loads.set(r, 3, 3);
  loads.set(r, 3, 2);
  loads.set(r, 5, 0);
  BOOST_TEST((samples(loads, 10) == std::vector<Sample>{{"link:x", 1, 1}, {"link:x", 3, 2}, {"link:x", 5, 0}}));
}

BOOST_AUTO_TEST_CASE(an_instant_is_a_nanosecond) {
  // Two changes a rounding error apart print at the same nanosecond: one
  // sample, the later value.
  ResourceLoads loads;
  const auto r = loads.resource("taulop:memory@node1", "transfers");
  loads.set(r, 0.413391834, 2);
  loads.set(r, 0.413391834 + 1e-16, 1);
  loads.set(r, 0.5, 0);
  BOOST_TEST((samples(loads, 1) ==
              std::vector<Sample>{{"taulop:memory@node1", 0.413391834, 1}, {"taulop:memory@node1", 0.5, 0}}));
}

BOOST_AUTO_TEST_CASE(changes_in_any_order_are_summed_in_time_order) {
  // Three messages queued at a NIC, reported when they start: +1 at their
  // start, -1 at their known end.
  ResourceLoads loads;
  const auto r = loads.resource("loggops:nic@rank0", "messages");
  loads.change(r, 0, +1);
  loads.change(r, 2, -1);
  loads.change(r, 1, +1);
  loads.change(r, 4, -1);
  loads.change(r, 2, +1);  // starts as the first ends: stays at 2
  loads.change(r, 6, -1);
  BOOST_TEST((samples(loads, 10) == std::vector<Sample>{{"loggops:nic@rank0", 0, 1},
                                                        {"loggops:nic@rank0", 1, 2},
                                                        {"loggops:nic@rank0", 4, 1},
                                                        {"loggops:nic@rank0", 6, 0}}));
}

BOOST_AUTO_TEST_CASE(every_resource_returns_to_zero_at_the_end) {
  ResourceLoads loads;
  const auto busy = loads.resource("staircase:node0/socket0", "processes");
  const auto idle = loads.resource("staircase:node1", "processes");
  loads.set(busy, 1, 3);
  loads.set(idle, 1, 1);
  loads.set(idle, 2, 0);
  BOOST_TEST((samples(loads, 7) == std::vector<Sample>{{"staircase:node0/socket0", 1, 3},
                                                       {"staircase:node0/socket0", 7, 0},
                                                       {"staircase:node1", 1, 1},
                                                       {"staircase:node1", 2, 0}}));
}

BOOST_AUTO_TEST_CASE(samples_come_sorted_as_the_writers_need) {
  ResourceLoads loads;
  const auto a = loads.resource("a", "flows");
  const auto b = loads.resource("b", "flows");
  loads.set(b, 1, 1);
  loads.set(a, 2, 1);
  loads.set(b, 3, 0);
  loads.set(a, 4, 0);
  Timeline t;
  loads.write_to(t, 5);
  auto sorted = t;
  sorted.sort();
  BOOST_TEST_REQUIRE(sorted.loads().size() == t.loads().size());
  for (std::size_t i = 0; i < t.loads().size(); ++i) {
    BOOST_TEST(sorted.loads()[i].resource == t.loads()[i].resource);
    BOOST_TEST(sorted.loads()[i].time == t.loads()[i].time);
  }
}

BOOST_AUTO_TEST_SUITE_END()
