// Collective steps of pattern files (sim/core/pattern_collectives.hpp).
#include <boost/test/unit_test.hpp>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/pattern.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using coll::CollectiveOp;

BOOST_AUTO_TEST_SUITE(collective_patterns)

BOOST_AUTO_TEST_CASE(collective_lines_become_collective_steps) {
  std::istringstream in(
      "ranks 4\nbcast 2 1MiB\n0 1 10\nallreduce 64K\ngatherv 1 1K*2,0,512\nalltoallv 8,16*3\n"
      "reduce_scatter 8*4\nreduce_scatter 16\nbarrier\n");
  const Pattern w = read_pattern(in, "x.pattern");
  BOOST_REQUIRE(w.steps.size() == 8u);
  auto call = [&](std::size_t i) {
    const auto* step = std::get_if<coll::CollectiveCall>(&w.steps[i].content);
    BOOST_REQUIRE(step != nullptr);
    return *step;
  };
  BOOST_TEST((call(0).op == CollectiveOp::bcast));
  BOOST_TEST(call(0).root == 2);
  BOOST_TEST(call(0).bytes == 1048576u);
  BOOST_TEST(call(0).element_bytes == 1u);
  BOOST_TEST(std::holds_alternative<ExchangeSpec>(w.steps[1].content));
  BOOST_TEST(call(2).element_bytes == 8u);  // reductions: MPI_DOUBLE
  BOOST_TEST(call(3).counts == (std::vector<std::uint64_t>{1024, 1024, 0, 512}));
  BOOST_TEST(call(4).counts == (std::vector<std::uint64_t>{8, 16, 16, 16}));
  BOOST_TEST(call(5).counts.size() == 4u);
  BOOST_TEST(call(6).counts.empty());
  BOOST_TEST(call(6).bytes == 16u);
  BOOST_TEST((call(7).op == CollectiveOp::barrier));
  BOOST_TEST(summary(w.steps[0]) == "bcast of 1048576 B, root 2");
}

BOOST_AUTO_TEST_CASE(collective_line_errors) {
  auto error_of = [](const std::string& text) {
    std::istringstream in(text);
    return test::error_message([&] { read_pattern(in, "x.pattern"); });
  };
  BOOST_TEST(error_of("ranks 4\nbcast 4 10\n") ==
             "x.pattern:2:7: rank 4 is out of range: the pattern declares 4 ranks");
  BOOST_TEST(error_of("ranks 4\nbcast 0\n") == "x.pattern:2:1: expected 'bcast ROOT BYTES', got 2 fields");
  BOOST_TEST(error_of("ranks 4\nbarrier now\n") == "x.pattern:2:9: expected 'barrier', got 2 fields");
  BOOST_TEST(error_of("ranks 4\nallreduce 12\n") ==
             "x.pattern:2:11: allreduce reduces 8-byte elements (MPI_DOUBLE): 12 is not a multiple of 8");
  BOOST_TEST(error_of("ranks 2\nallgatherv 1K*3\n") == "x.pattern:2:12: the list has more entries than the 2 ranks");
  BOOST_TEST(error_of("ranks 2\nallgatherv 1K*x\n") ==
             "x.pattern:2:12: expected SIZE*COUNT with a count >= 1, got '1K*x'");
  BOOST_TEST(error_of("allreduce 8\n") == "x.pattern: the pattern names no rank and has no 'ranks N' line");
}

BOOST_AUTO_TEST_SUITE_END()
