#include <boost/test/unit_test.hpp>

#include "sim/core/units.hpp"

using namespace contend::units;

BOOST_AUTO_TEST_SUITE(units)

BOOST_AUTO_TEST_CASE(bandwidth_prefixes_are_decimal_bits_are_bits) {
  BOOST_TEST(*parse_bandwidth("10.2GB/s") == 10.2e9);
  BOOST_TEST(*parse_bandwidth("112.2MB/s") == 112.2e6);
  BOOST_TEST(*parse_bandwidth("1e9") == 1e9);
  BOOST_TEST(*parse_bandwidth("100Mbps") == 12.5e6);
  BOOST_TEST(*parse_bandwidth("1GiB/s") == 1073741824.0);
  BOOST_TEST(*parse_bandwidth(" 12.5 GB/s ") == 12.5e9);
}

BOOST_AUTO_TEST_CASE(bandwidth_rejects_nonsense) {
  BOOST_TEST(!parse_bandwidth("fast"));
  BOOST_TEST(!parse_bandwidth("10GB"));
  BOOST_TEST(!parse_bandwidth("0GB/s"));
  BOOST_TEST(!parse_bandwidth("-1GB/s"));
  BOOST_TEST(!parse_bandwidth(""));
  BOOST_TEST(!parse_bandwidth("12.5GB/s/s"));
}

BOOST_AUTO_TEST_CASE(durations) {
  BOOST_TEST(*parse_duration("1.7us") == 1.7e-6);
  BOOST_TEST(*parse_duration("5ms") == 5e-3);
  BOOST_TEST(*parse_duration("2") == 2.0);
  BOOST_TEST(*parse_duration("0") == 0.0);
  BOOST_TEST(!parse_duration("-1us"));
  BOOST_TEST(!parse_duration("1 hour"));
}

BOOST_AUTO_TEST_CASE(sizes_binary_for_single_letters_decimal_for_B) {
  BOOST_TEST(*parse_size("4096") == 4096u);
  BOOST_TEST(*parse_size("8KiB") == 8192u);
  BOOST_TEST(*parse_size("16K") == 16384u);
  BOOST_TEST(*parse_size("1M") == 1048576u);
  BOOST_TEST(*parse_size("1MB") == 1000000u);
  BOOST_TEST(*parse_size("10kB") == 10000u);
  BOOST_TEST(!parse_size("1.5"));  // fractional bytes
  BOOST_TEST(!parse_size("-4"));
  BOOST_TEST(!parse_size("4 apples"));
}

BOOST_AUTO_TEST_CASE(speeds) {
  BOOST_TEST(*parse_speed("36Gf") == 36e9);
  BOOST_TEST(*parse_speed("2.25e9") == 2.25e9);
  BOOST_TEST(*parse_speed("1Gflop/s") == 1e9);
  BOOST_TEST(!parse_speed("0"));
  BOOST_TEST(!parse_speed("1GHz"));
}

BOOST_AUTO_TEST_SUITE_END()
