// Attribution data (sim/core/attribution.hpp) and the explain story
// (sim/core/explain_story.hpp) on hand-made runs.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <sstream>

#include "sim/core/attribution.hpp"
#include "sim/core/explain_story.hpp"
#include "sim/core/results.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using contend::test::error_message;

namespace {

MessageAttribution chain_message() {
  MessageAttribution m;
  m.id = 1;
  m.src = 1;
  m.dst = 2;
  m.seq = 0;
  m.bytes = 1000000;
  m.level = Level::InterNode;
  m.post = 0;
  m.start = 0;
  m.end = 0.0175;
  m.contention_free = 0.01;
  m.intervals = {{0, 0.01, "flowcut:outgo-income@node1", 25e6, "outgoing side, with 0->1"},
                 {0.01, 0.0175, "bandwidth:inter_node", 100e6, "no conflict, \"alone\""}};
  return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(attribution)

BOOST_AUTO_TEST_CASE(limited_by_is_the_resource_bounding_longest) {
  auto m = chain_message();
  BOOST_TEST(m.limited_by() == "flowcut:outgo-income@node1");
  BOOST_TEST(m.slowdown() == 1.75, boost::test_tools::tolerance(1e-12));
  // Two intervals of one resource add up.
  m.intervals.push_back({0.0175, 0.02, "bandwidth:inter_node", 1, ""});
  m.end = 0.02;
  BOOST_TEST(m.time_on("bandwidth:inter_node") == 0.01, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(m.limited_by() == "flowcut:outgo-income@node1");  // a tie: the first met
}

BOOST_AUTO_TEST_CASE(slowdown_of_nothing_to_move) {
  MessageAttribution m;
  BOOST_TEST(m.slowdown() == 1.0);
  BOOST_TEST(m.limited_by() == "none");
  m.end = 1;
  BOOST_TEST(std::isinf(m.slowdown()));
}

BOOST_AUTO_TEST_CASE(explain_csv_quotes_the_detail) {
  std::ostringstream out;
  write_explain_csv(out, {chain_message()});
  BOOST_TEST(out.str() ==
             "id,src,dst,tag,seq,begin_s,end_s,resource,rate_Bps,detail\n"
             "1,1,2,0,0,0,0.01,flowcut:outgo-income@node1,25000000,\"outgoing side, with 0->1\"\n"
             "1,1,2,0,0,0.01,0.0175,bandwidth:inter_node,100000000,\"no conflict, \"\"alone\"\"\"\n");
}

BOOST_AUTO_TEST_CASE(messages_csv_gains_two_columns_with_attribution) {
  Results r;
  r.messages = {{1, 2, 1000000, Level::InterNode, 0, 0.0175, 1}};
  std::ostringstream plain;
  write_messages_csv(plain, r);
  BOOST_TEST(plain.str() == "src,dst,bytes,level,start_s,end_s\n1,2,1000000,inter_node,0,0.0175\n");
  r.attributed = true;
  r.attribution = {chain_message()};
  std::ostringstream attributed;
  write_messages_csv(attributed, r);
  BOOST_TEST(attributed.str() ==
             "src,dst,bytes,level,start_s,end_s,limited_by,slowdown\n"
             "1,2,1000000,inter_node,0,0.0175,flowcut:outgo-income@node1,1.75\n");
}

BOOST_AUTO_TEST_CASE(message_keys) {
  const auto k = parse_message_key("3:5");
  BOOST_TEST(k.src == 3);
  BOOST_TEST(k.dst == 5);
  BOOST_TEST(k.seq == 0u);
  BOOST_TEST(parse_message_key("3:5:2").seq == 2u);
  for (const char* bad : {"", "3", "3:", "3:5:", "a:5", "3:5:1:1", "-1:2", "3:5:x"}) {
    BOOST_TEST_CONTEXT(bad) {
      BOOST_TEST(error_message([&] { parse_message_key(bad); }).find("expected SRC:DST or SRC:DST:K") !=
                 std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(story_of_a_message_and_unknown_ones) {
  Results r;
  r.attributed = true;
  r.ranks = {{0, {0, 0, 0}, 0, 0.01, 0.01}, {1, {1, 0, 0}, 0.01, 0.0175, 0.0175}, {2, {2, 0, 0}, 0.0175, 0, 0.0175}};
  r.attribution = {chain_message()};
  std::ostringstream out;
  write_story(out, r, StoryRequest{.message = MessageKey{1, 2, 0}});
  BOOST_TEST(out.str().find("message 1->2 #0") != std::string::npos);
  BOOST_TEST(out.str().find("limited by flowcut:outgo-income@node1 for 10.000 ms") != std::string::npos);
  BOOST_TEST(error_message([&] {
               write_story(out, r, StoryRequest{.message = MessageKey{1, 2, 1}});
             }) == "--message 1:2:1: the run delivered 1 messages from rank 1 to rank 2");
  BOOST_TEST(error_message([&] { write_story(out, r, StoryRequest{.rank = 3}); }) ==
             "--rank 3: the run has 3 ranks (0..2)");
  std::ostringstream slowest;
  write_story(slowest, r, StoryRequest{});
  BOOST_TEST(slowest.str().find("rank 1 (node 1 socket 0 core 0) finished at 17.500 ms, the slowest of 3 ranks") !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
