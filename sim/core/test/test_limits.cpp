#include <boost/test/unit_test.hpp>
#include <cstdint>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/size_list.hpp"
#include "sim/core/units.hpp"

using namespace contend;

BOOST_AUTO_TEST_SUITE(input_limits)

// Values that overflow as their unit scales them are refused, never infinite.
BOOST_AUTO_TEST_CASE(scaled_values_never_become_infinite) {
  BOOST_TEST(!units::parse_bandwidth("1e308GB/s"));
  BOOST_TEST(!units::parse_speed("1e308Gf"));
  BOOST_TEST(!units::parse_duration("1e308s"));
  BOOST_TEST(!units::parse_size("1e400"));
  BOOST_TEST(!units::parse_flops("1e308Gf"));
  BOOST_TEST(units::limit_breach(units::QuantityKind::bandwidth, "1e308GB/s") ==
             "the bandwidth '1e308GB/s' is outside contend's limits, 1 B/s to 1e15 B/s (docs/limits.md)");
  BOOST_TEST(units::limit_breach(units::QuantityKind::speed, "1e400") ==
             "the speed '1e400' is outside contend's limits, 1 to 1e18 flop/s (docs/limits.md)");
  BOOST_TEST(units::limit_breach(units::QuantityKind::size, "2048GiB") ==
             "the size '2048GiB' exceeds contend's limit of 1 TiB (2^40 bytes) (docs/limits.md)");
  // Not a quantity at all, or accepted: no limit to name.
  BOOST_TEST(units::limit_breach(units::QuantityKind::bandwidth, "fast").empty());
  BOOST_TEST(units::limit_breach(units::QuantityKind::bandwidth, "-1GB/s").empty());
  BOOST_TEST(units::limit_breach(units::QuantityKind::bandwidth, "10GB/s").empty());
}

BOOST_AUTO_TEST_CASE(the_limits_themselves_are_accepted) {
  BOOST_TEST(*units::parse_size("1024GiB") == limits::kMaxMessageBytes);
  BOOST_TEST(!units::parse_size("1099511627777"));
  BOOST_TEST(*units::parse_bandwidth("1e15") == 1e15);
  BOOST_TEST(*units::parse_speed("1e18") == 1e18);
  BOOST_TEST(*units::parse_duration("1e9s") == 1e9);
  BOOST_TEST(*units::parse_flops("1e24") == 1e24);
}

// Two messages of 1e19 bytes would wrap a 64-bit sum: the checks say so.
BOOST_AUTO_TEST_CASE(byte_sums_do_not_wrap) {
  const std::uint64_t big = 10'000'000'000'000'000'000ULL;
  BOOST_TEST(!limits::checked_add(big, big));
  BOOST_TEST(*limits::checked_add(big, 1) == big + 1);
  BOOST_TEST(!limits::checked_multiply(big, 2));
  BOOST_TEST(*limits::checked_multiply(limits::kMaxMessageBytes, limits::kMaxMessages) ==
             limits::kMaxMessageBytes * limits::kMaxMessages);
}

BOOST_AUTO_TEST_CASE(errors_read_the_same_way) {
  BOOST_TEST(limits::exceeds("rank 300000", limits::kMaxRanksText) ==
             "rank 300000 exceeds contend's limit of 262144 ranks (docs/limits.md)");
  BOOST_TEST(limits::outside("x", "1 to 2") == "x is outside contend's limits, 1 to 2 (docs/limits.md)");
}

// A limit refusal is its own error type (exit status 3), still an Error;
// an input that is merely wrong is not one.
BOOST_AUTO_TEST_CASE(limit_refusals_are_limit_errors) {
  BOOST_CHECK_THROW(parse_size_list("1:2048GiB", "--sizes"), LimitError);
  BOOST_CHECK_THROW(parse_size_list("1:2048GiB", "--sizes"), Error);
  try {
    parse_size_list("1:fast", "--sizes");
    BOOST_FAIL("a malformed size is refused");
  } catch (const LimitError&) {
    BOOST_FAIL("a malformed size is bad input, not a limit");
  } catch (const Error&) {
  }
}

// A binary input echoed in an error is printed as \xNN, and an endless line is cut.
BOOST_AUTO_TEST_CASE(messages_are_printable) {
  BOOST_TEST(std::string(Error(std::string("got '\x01\xff' and é")).what()) == "got '\\x01\\xff' and é");
  const std::string long_message(3000, 'a');
  const std::string printed = Error(long_message).what();
  BOOST_TEST(printed == std::string(kMaxMessageLine, 'a') + "... (1000 more bytes)");
}

BOOST_AUTO_TEST_SUITE_END()
