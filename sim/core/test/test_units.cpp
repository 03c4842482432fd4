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

BOOST_AUTO_TEST_CASE(formats_in_platform_units) {
  BOOST_TEST(format_bandwidth(11.934e6) == "11.93MB/s");
  BOOST_TEST(format_bandwidth(2.5e9) == "2.5GB/s");
  BOOST_TEST(format_bandwidth(12.5e3) == "12.5kB/s");
  BOOST_TEST(format_bandwidth(512) == "512");
  BOOST_TEST(format_duration(85.314e-6) == "85.31us");
  BOOST_TEST(format_duration(1.5e-3) == "1.5ms");
  BOOST_TEST(format_duration(2.5) == "2.5s");
  BOOST_TEST(format_duration(0) == "0us");
  BOOST_TEST(format_duration(-2.5e-6) == "-2.5us");     // a fitted intercept, in a table
  BOOST_TEST(format_duration(0.99999999e-3) == "1ms");  // rounded before the unit is chosen
  BOOST_TEST(format_bandwidth(999.99999e6) == "1GB/s");
  // Per-byte values are durations too, down to fractions of a nanosecond.
  BOOST_TEST(format_duration(1.23456e-6) == "1.235us");
  BOOST_TEST(format_duration(8.0e-11) == "0.08ns");
  BOOST_TEST(format_duration(1.5e-14) == "1.5e-05ns");
  BOOST_TEST(format_size(4096) == "4KiB");
  BOOST_TEST(format_size(3 << 20) == "3MiB");
  BOOST_TEST(format_size(1000) == "1000");
  BOOST_TEST(format_size(1536) == "1536");  // 1.5 KiB: not a whole number of KiB
  BOOST_TEST(format_size(1536 * 1024) == "1536KiB");
  BOOST_TEST(format_size(16384, SizeSuffix::letter) == "16K");
  BOOST_TEST(format_size(4 << 20, SizeSuffix::letter) == "4M");
  BOOST_TEST(format_size(3000, SizeSuffix::letter) == "3000");
}

BOOST_AUTO_TEST_CASE(formats_are_read_back) {
  for (double s : {85.314e-6, 1.5e-3, 2.5, 8.0e-11, 0.0, 1.7e-6, 999.99996e-6}) {
    BOOST_TEST_INFO(s);
    BOOST_TEST(*parse_duration(format_duration(s)) == s, boost::test_tools::tolerance(5e-4));
  }
  for (double b : {11.934e6, 2.5e9, 12.5e3, 512.0}) {
    BOOST_TEST_INFO(b);
    BOOST_TEST(*parse_bandwidth(format_bandwidth(b)) == b, boost::test_tools::tolerance(5e-4));
  }
  for (std::uint64_t k : {1ull, 1000ull, 4096ull, 3ull << 20, 1536ull * 1024}) {
    BOOST_TEST(*parse_size(format_size(k)) == k);
    BOOST_TEST(*parse_size(format_size(k, SizeSuffix::letter)) == k);
  }
}

BOOST_AUTO_TEST_CASE(human_readable_forms) {
  BOOST_TEST(human_duration(0) == "0 s");
  BOOST_TEST(human_duration(850e-9) == "850.000 ns");
  BOOST_TEST(human_duration(12.3e-6) == "12.300 us");
  BOOST_TEST(human_duration(1.2344e-3) == "1.234 ms");
  BOOST_TEST(human_duration(2) == "2.000 s");
  BOOST_TEST(human_size(512) == "512 B");
  BOOST_TEST(human_size(12.34 * 1024) == "12.34 KiB");
  BOOST_TEST(human_size(1.5 * 1024 * 1024 * 1024) == "1.50 GiB");
  BOOST_TEST(human_size(2048.0 * 1024 * 1024 * 1024 * 1024) == "2048.00 TiB");  // no unit beyond TiB
}

BOOST_AUTO_TEST_CASE(numbers_in_a_named_unit) {
  BOOST_TEST(in_microseconds(1.5e-6) == "1.5");
  BOOST_TEST(in_microseconds(12.3456e-6) == "12.35");
  BOOST_TEST(in_microseconds(61.23e-6, 3) == "61.2");
  BOOST_TEST(in_milliseconds(0.0669876) == "66.99");
  BOOST_TEST(in_giga(12.5e9) == "12.5");
  BOOST_TEST(in_giga(112.2e6) == "0.1122");
}

BOOST_AUTO_TEST_SUITE_END()
