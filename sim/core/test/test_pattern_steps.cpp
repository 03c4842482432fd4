// Pattern datatypes (`type=`) and compute steps (`compute AMOUNT [ranks=LIST] [overlap]`).
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

std::string error_of(const std::string& text) {
  return test::error_message([&] { parse(text); });
}

template <class Step>
const Step& step(const Pattern& w, std::size_t i) {
  BOOST_REQUIRE(i < w.steps.size());
  const auto* s = std::get_if<Step>(&w.steps[i].content);
  BOOST_REQUIRE(s != nullptr);
  return *s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pattern_steps)

BOOST_AUTO_TEST_CASE(messages_carry_datatypes) {
  const auto p =
      parse("0 1 64KiB type=vector:4,1,4:float\n1 0 16 @1us type=contiguous\n2 0 32 type=vector:4,1,4:float @2us\n");
  const auto& x = step<ExchangeSpec>(p, 0);
  BOOST_REQUIRE(p.datatypes.size() == 2u);
  BOOST_TEST(p.datatypes[0].name() == "contiguous");
  BOOST_TEST(p.datatypes[1].name() == "vector:4,1,4:float");
  BOOST_TEST(x.messages[0].datatype == 1);
  BOOST_TEST(x.messages[1].datatype == 0);
  BOOST_TEST(x.messages[1].start == 1e-6);
  BOOST_TEST(x.messages[2].datatype == 1);
  BOOST_TEST(x.messages[2].start == 2e-6);
}

BOOST_AUTO_TEST_CASE(bad_datatype_tokens_point_at_the_field) {
  BOOST_TEST(error_of("0 1 16 type=vector:4,1,4:flaot\n") ==
             "x.pattern:1:8: type=: expected a base type, one of byte, char, short, int, float, long, double "
             "(did you mean 'float'?), got 'flaot', got 'vector:4,1,4:flaot'");
  BOOST_TEST(
      error_of("0 1 16 @1us @2us\n") ==
      "x.pattern:1:13: expected '@TIME' (a start offset such as @2ms) or 'type=DATATYPE' (each once), got '@2us'");
}

BOOST_AUTO_TEST_CASE(compute_steps_in_seconds_or_flops) {
  const auto p = parse("ranks 4\ncompute 1ms\ncompute 2Gf ranks=0,2-3\ncompute 1e9flop\n");
  BOOST_REQUIRE(p.steps.size() == 3u);
  const auto& a = step<ComputeSpec>(p, 0);
  BOOST_TEST(a.amount == 1e-3);
  BOOST_TEST((a.unit == ComputeSpec::Unit::Seconds));
  BOOST_TEST(a.ranks.empty());
  BOOST_TEST(!a.overlap);
  const auto& b = step<ComputeSpec>(p, 1);
  BOOST_TEST(b.amount == 2e9);
  BOOST_TEST((b.unit == ComputeSpec::Unit::Flops));
  BOOST_TEST(b.ranks == (std::vector<int>{0, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(step<ComputeSpec>(p, 2).amount == 1e9);
}

BOOST_AUTO_TEST_CASE(overlapping_compute_joins_the_exchange_above) {
  const auto p = parse("0 1 1MB\n1 0 1MB\ncompute 2ms overlap\n0 1 10\n---\n1 0 10\n");
  // The overlap does not end the exchange: messages after it still belong to it.
  BOOST_REQUIRE(p.steps.size() == 2u);
  const auto& x = step<ExchangeSpec>(p, 0);
  BOOST_TEST(x.messages.size() == 3u);
  BOOST_REQUIRE(x.overlapped.size() == 1u);
  BOOST_TEST(summary(x) == "exchange of 3 messages overlapping compute 0.002 s");
}

BOOST_AUTO_TEST_CASE(compute_errors) {
  BOOST_TEST(error_of("compute 5\n") ==
             "x.pattern:1:9: compute: expected an amount of computation: a duration with its unit (1ms, 2e-3s) or "
             "flops (2Gf, 1e9flop), got '5'");
  BOOST_TEST(error_of("compute 1ms overlap\n") ==
             "x.pattern:1:1: an overlapping step runs between the posts and the waits of an exchange: it must follow "
             "the exchange's message lines");
  BOOST_TEST(error_of("ranks 2\ncompute 1ms ranks=0,5\n") ==
             "x.pattern:2:13: rank 5 is out of range: the pattern declares 2 ranks");
  BOOST_TEST(error_of("compute 1ms ranks=3-1\n") == "x.pattern:1:13: ranks=: range '3-1' ends before it begins");
  BOOST_TEST(error_of("compute 1ms sometimes\n") ==
             "x.pattern:1:13: expected 'ranks=LIST' or 'overlap' (each once), got 'sometimes'");
  BOOST_TEST(error_of("compute\n") == "x.pattern:1:1: expected 'compute AMOUNT [ranks=LIST] [overlap]'");
}

BOOST_AUTO_TEST_CASE(written_datatypes_read_back) {
  ManyPairPattern p;
  p.ranks = 2;
  std::string error;
  p.datatypes = {Datatype{}, *parse_datatype("vector:2,1,3:double", error)};
  p.messages = {{0, 1, 32, 0, 1}, {1, 0, 8, 1e-3, 0}};
  std::ostringstream out;
  write_pattern(out, p, "roundtrip");
  BOOST_TEST(out.str() == "# roundtrip\nranks 2\n0 1 32 type=vector:2,1,3:double\n1 0 8 @0.001\n");
  const auto w = parse(out.str());
  const auto& x = step<ExchangeSpec>(w, 0);
  BOOST_TEST(w.datatypes.at(x.messages[0].datatype).name() == "vector:2,1,3:double");
  BOOST_TEST(x.messages[1].datatype == 0);
}

BOOST_AUTO_TEST_CASE(compute_ranks_count_towards_the_rank_count) {
  BOOST_TEST(parse("compute 1ms ranks=0-5\n").ranks == 6);
}

BOOST_AUTO_TEST_SUITE_END()
