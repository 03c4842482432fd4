#include <boost/test/unit_test.hpp>

#include "sim/engine/matching.hpp"

using namespace contend;

BOOST_AUTO_TEST_SUITE(matching)

BOOST_AUTO_TEST_CASE(sends_match_receives_in_posting_order) {
  MatchQueues q;
  q.post_receive({1, 0, 0}, 10);
  q.post_receive({1, 0, 0}, 11);
  q.post_receive({2, 0, 0}, 12);
  BOOST_TEST(*q.take_receive_for({1, 0, 0}) == 10u);
  BOOST_TEST(*q.take_receive_for({2, 0, 0}) == 12u);
  BOOST_TEST(*q.take_receive_for({1, 0, 0}) == 11u);
  BOOST_TEST(!q.take_receive_for({1, 0, 0}));
}

BOOST_AUTO_TEST_CASE(tag_and_communicator_must_agree) {
  MatchQueues q;
  q.post_receive({1, 5, 0}, 1);
  BOOST_TEST(!q.take_receive_for({1, 6, 0}));
  BOOST_TEST(!q.take_receive_for({1, 5, 1}));
  BOOST_TEST(*q.take_receive_for({1, 5, 0}) == 1u);
}

BOOST_AUTO_TEST_CASE(wildcard_receive_competes_by_posting_order) {
  MatchQueues q;
  q.post_receive({kAnySource, 0, 0}, 1);
  q.post_receive({3, 0, 0}, 2);
  BOOST_TEST(*q.take_receive_for({3, 0, 0}) == 1u);  // the wildcard was posted first
  BOOST_TEST(*q.take_receive_for({3, 0, 0}) == 2u);
  q.post_receive({3, 0, 0}, 3);
  q.post_receive({3, kAnyTag, 0}, 4);
  BOOST_TEST(*q.take_receive_for({3, 7, 0}) == 4u);  // only the wildcard matches tag 7
  BOOST_TEST(*q.take_receive_for({3, 0, 0}) == 3u);
}

BOOST_AUTO_TEST_CASE(unexpected_messages_do_not_overtake) {
  MatchQueues q;
  q.add_unexpected({1, 0, 0}, 100);
  q.add_unexpected({2, 0, 0}, 200);
  q.add_unexpected({1, 0, 0}, 101);
  BOOST_TEST(*q.take_unexpected_for({1, 0, 0}) == 100u);
  BOOST_TEST(*q.take_unexpected_for({kAnySource, 0, 0}) == 200u);  // earliest arrival among all sources
  BOOST_TEST(*q.take_unexpected_for({kAnySource, kAnyTag, 0}) == 101u);
  BOOST_TEST(!q.take_unexpected_for({kAnySource, kAnyTag, 0}));
}

BOOST_AUTO_TEST_CASE(pending_lists_for_reports) {
  MatchQueues q;
  q.post_receive({1, 0, 0}, 7);
  q.post_receive({kAnySource, 0, 0}, 8);
  q.add_unexpected({4, 2, 0}, 9);
  BOOST_TEST(q.pending_receives() == std::vector<std::uint32_t>({7, 8}), boost::test_tools::per_element());
  BOOST_TEST(q.pending_unexpected().size() == 1u);
  BOOST_TEST(q.pending_unexpected()[0].first.tag == 2);
}

BOOST_AUTO_TEST_SUITE_END()
