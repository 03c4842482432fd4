#include <boost/test/unit_test.hpp>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/pattern.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;

namespace {

Pattern parse(const std::string& text) {
  std::istringstream in(text);
  return read_pattern(in, "x.pattern");
}

const ExchangeSpec& exchange(const Pattern& w, std::size_t i) {
  BOOST_REQUIRE(i < w.steps.size());
  const auto* step = std::get_if<ExchangeSpec>(&w.steps[i].content);
  BOOST_REQUIRE(step != nullptr);
  return *step;
}

std::string error_of(const std::string& text) {
  return test::error_message([&] { parse(text); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pattern)

BOOST_AUTO_TEST_CASE(reads_messages_in_order) {
  const auto p = parse("# a comment\n0 1 65536\n\n1 0 64KiB   # trailing comment\n2 0 1\n");
  BOOST_TEST(p.ranks == 3);
  const auto& m = exchange(p, 0).messages;
  BOOST_TEST(m.size() == 3u);
  BOOST_TEST(m[1].src == 1);
  BOOST_TEST(m[1].bytes == 65536u);
  BOOST_TEST(m[2].bytes == 1u);
  BOOST_TEST(m[2].start == 0.0);
  BOOST_TEST(describe(p) == "pattern x.pattern (exchange of 3 messages)");
}

BOOST_AUTO_TEST_CASE(ranks_directive) {
  const auto p = parse("ranks 8\n0 1 10\n");
  BOOST_TEST(p.ranks == 8);
  BOOST_TEST(parse("ranks 4\n").steps.empty());
}

BOOST_AUTO_TEST_CASE(start_offsets_and_separate_exchanges) {
  const auto p = parse("0 1 1MB @2ms\n1 0 1MB\n---\n0 2 10 @1.5us\n");
  BOOST_TEST(p.ranks == 3);
  BOOST_REQUIRE(p.steps.size() == 2u);
  BOOST_TEST(exchange(p, 0).messages[0].start == 2e-3);
  BOOST_TEST(exchange(p, 0).messages[1].start == 0.0);
  BOOST_TEST(exchange(p, 1).messages[0].start == 1.5e-6);
}

BOOST_AUTO_TEST_CASE(errors_name_line_and_column) {
  BOOST_TEST(error_of("0 1\n") ==
             "x.pattern:1:1: expected 'src dst bytes [@start] [type=DATATYPE]' (or 'ranks N'), got 2 fields");
  BOOST_TEST(error_of("0 1 10 2ms\n") ==
             "x.pattern:1:8: expected '@TIME' (a start offset such as @2ms) or 'type=DATATYPE' (each once), got '2ms'");
  BOOST_TEST(error_of("0 1 10 @soon\n") ==
             "x.pattern:1:8: start: expected @ and a duration such as 1.7us, 5ms or 2e-6 (s), got '@soon'");
  // The list of step keywords grows with the step kinds (pattern_keywords()).
  BOOST_TEST(error_of("bcats 0 10\n")
                 .starts_with("x.pattern:1:1: unknown step 'bcats' (did you mean 'bcast'?); expected 'src dst bytes' "
                              "or one of: ranks, ---, "));
  BOOST_TEST(error_of("--- x\n") == "x.pattern:1:5: expected nothing after '---'");
  BOOST_TEST(error_of("0 1 10\n0 -1 10\n") == "x.pattern:2:3: dst: expected a rank (an integer >= 0), got '-1'");
  BOOST_TEST(
      error_of("  a 1 10\n")
          .starts_with(
              "x.pattern:1:3: unknown step 'a'; expected 'src dst bytes' or one of: ranks, ---, barrier, bcast"));
  BOOST_TEST(error_of("-1 1 10\n") == "x.pattern:1:1: src: expected a rank (an integer >= 0), got '-1'");
  BOOST_TEST(error_of("0 1 ten\n") ==
             "x.pattern:1:5: bytes: expected a size in bytes such as 4096, 8KiB, 16K or 1MB, got 'ten'");
  BOOST_TEST(error_of("ranks 2\n0 2 10\n") == "x.pattern:2:3: rank 2 is out of range: the pattern declares 2 ranks");
  BOOST_TEST(error_of("ranks 2\nranks 3\n") == "x.pattern:2:1: 'ranks' given twice (first on line 1)");
  BOOST_TEST(error_of("0 1 1\nranks 3\n") == "x.pattern:2:1: 'ranks' must come before the steps");
  BOOST_TEST(error_of("ranks 0\n") == "x.pattern:1:7: ranks: must be at least 1");
  BOOST_TEST(error_of("# nothing\n") == "x.pattern: the pattern names no rank and has no 'ranks N' line");
  BOOST_CHECK_THROW(read_pattern("/nonexistent.pattern"), Error);
}

BOOST_AUTO_TEST_CASE(write_then_read_round_trip) {
  ManyPairPattern p;
  p.ranks = 5;
  p.messages = {{0, 4, 100}, {4, 0, 200}, {2, 3, 1, 0.002}};
  std::ostringstream out;
  write_pattern(out, p, "two lines\nof header");
  BOOST_TEST(out.str().rfind("# two lines\n# of header\nranks 5\n", 0) == 0u);
  const auto q = parse(out.str());
  BOOST_TEST(q.ranks == 5);
  BOOST_REQUIRE(exchange(q, 0).messages.size() == 3u);
  BOOST_TEST(exchange(q, 0).messages[1].bytes == 200u);
  BOOST_TEST(exchange(q, 0).messages[2].start == 0.002);
}

BOOST_AUTO_TEST_SUITE_END()
