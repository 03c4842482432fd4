// Size lists of the command line (--sizes of contend select and pingpong).
#include <boost/test/unit_test.hpp>

#include "sim/core/size_list.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;

namespace {

std::string error_of(std::string_view text) {
  return test::error_message([&] { parse_size_list(text, "--sizes"); });
}

using Sizes = std::vector<std::uint64_t>;

}  // namespace

BOOST_AUTO_TEST_SUITE(size_list)

BOOST_AUTO_TEST_CASE(ranges_double_and_lists_mix) {
  BOOST_TEST(parse_size_list("16K:128K", "--sizes") == (Sizes{16384, 32768, 65536, 131072}),
             boost::test_tools::per_element());
  BOOST_TEST(parse_size_list("16K,512K,4M", "--sizes") == (Sizes{16384, 524288, 4194304}),
             boost::test_tools::per_element());
  BOOST_TEST(parse_size_list("1M", "--sizes") == (Sizes{1048576}), boost::test_tools::per_element());
  BOOST_TEST(parse_size_list("1:4, 3000", "--sizes") == (Sizes{1, 2, 4, 3000}), boost::test_tools::per_element());
  BOOST_TEST(parse_size_list("3:20", "--sizes") == (Sizes{3, 6, 12}),
             boost::test_tools::per_element());  // doubling, not powers
  BOOST_TEST(parse_size_list("8:8", "--sizes") == (Sizes{8}), boost::test_tools::per_element());
  // Up to the largest message (docs/limits.md), and no further.
  BOOST_TEST(parse_size_list("8G:1024G", "--sizes").size() == 8u);
  BOOST_TEST(error_of("8G:16000000000G") ==
             "--sizes: the size '16000000000G' exceeds contend's limit of 1 TiB (2^40 bytes) (docs/limits.md)");
}

BOOST_AUTO_TEST_CASE(errors_say_what_a_size_list_is) {
  const std::string expected =
      "--sizes: expected sizes: A:B (powers of two from A to B), or a comma list of sizes and ranges (each size a size "
      "in "
      "bytes such as 4096, 8KiB, 16K or 1MB, at least 1), got ";
  BOOST_TEST(error_of("1:4x") == expected + "'4x'");
  BOOST_TEST(error_of("0") == expected + "'0'");
  BOOST_TEST(error_of("1K,") == expected + "''");
  BOOST_TEST(error_of("") == expected + "''");
  BOOST_TEST(error_of("4M:16K") == "--sizes: the range '4M:16K' ends below its start");
  BOOST_TEST(error_of("1,4M:16K") == "--sizes: the range '4M:16K' ends below its start");
}

BOOST_AUTO_TEST_SUITE_END()
