#include <boost/test/unit_test.hpp>

#include "sim/core/bandwidth_table.hpp"

using contend::BandwidthTable;

BOOST_AUTO_TEST_SUITE(bandwidth_table)

// Epyc Rome intra-socket, Thune Table I.
BandwidthTable rome() {
  return BandwidthTable::from_points({{1, 10.2e9}, {2, 16.8e9}, {4, 17.6e9}, {8, 19.2e9}, {16, 23.4e9}, {64, 51.0e9}});
}

BOOST_AUTO_TEST_CASE(tabulated_points_exact) {
  const auto t = rome();
  BOOST_TEST(t.aggregate(1) == 10.2e9);
  BOOST_TEST(t.aggregate(4) == 17.6e9);
  BOOST_TEST(t.aggregate(64) == 51.0e9);
  BOOST_TEST(t.single() == 10.2e9);
  BOOST_TEST(t.max() == 51.0e9);
}

BOOST_AUTO_TEST_CASE(linear_between_constant_after) {
  const auto t = rome();
  BOOST_TEST(t.aggregate(3) == 17.2e9, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(t.aggregate(12) == 21.3e9, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(t.aggregate(40) == 23.4e9 + (51.0e9 - 23.4e9) * 24.0 / 48.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(t.aggregate(100) == 51.0e9);
  BOOST_TEST(t.per_process(2) == 8.4e9);
}

BOOST_AUTO_TEST_CASE(constant_table) {
  const auto t = BandwidthTable::constant(1e9);
  BOOST_TEST(t.is_constant());
  BOOST_TEST(t.aggregate(1) == 1e9);
  BOOST_TEST(t.aggregate(7) == 1e9);
  BOOST_TEST(t.per_process(4) == 0.25e9);
}

BOOST_AUTO_TEST_CASE(invalid_tables_rejected) {
  BOOST_CHECK_THROW(BandwidthTable::from_points({}), std::invalid_argument);
  BOOST_CHECK_THROW(BandwidthTable::from_points({{2, 1e9}}), std::invalid_argument);
  BOOST_CHECK_THROW(BandwidthTable::from_points({{1, 1e9}, {1, 2e9}}), std::invalid_argument);
  BOOST_CHECK_THROW(BandwidthTable::from_points({{1, 1e9}, {4, 2e9}, {2, 3e9}}), std::invalid_argument);
  BOOST_CHECK_THROW(BandwidthTable::from_points({{1, 0}}), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
