// MemberQueue against std::priority_queue: the same pops in the same order
// (a pool's members end in that order, ties of threshold by id), on random
// interleavings of batches and single pushes.
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "models/taulop/member_queue.hpp"

namespace {

struct Member {
  double threshold = 0;
  std::uint32_t id = 0;
  bool operator>(const Member& o) const { return threshold > o.threshold || (threshold == o.threshold && id > o.id); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(taulop_member_queue)

BOOST_AUTO_TEST_CASE(pops_in_the_order_of_a_binary_heap) {
  std::mt19937_64 random(18);
  for (int trial = 0; trial < 300; ++trial) {
    contend::taulop::MemberQueue<Member> queue;
    std::priority_queue<Member, std::vector<Member>, std::greater<>> reference;
    std::uint32_t next_id = 0;
    // Few distinct thresholds on some trials, so that ties by id are common.
    const int distinct = trial % 3 == 0 ? 4 : 1000;
    for (int round = 0; round < 60; ++round) {
      const int pushes = static_cast<int>(random() % (round % 5 == 0 ? 200 : 3));
      for (int i = 0; i < pushes; ++i) {
        const Member m{static_cast<double>(random() % static_cast<unsigned>(distinct)) / 8, next_id++};
        queue.push(m);
        reference.push(m);
        BOOST_REQUIRE_EQUAL(queue.size(), reference.size());
        BOOST_REQUIRE_EQUAL(queue.top().id, reference.top().id);
      }
      const int pops = static_cast<int>(random() % 40);
      for (int i = 0; i < pops && !reference.empty(); ++i) {
        BOOST_REQUIRE(!queue.empty());
        BOOST_REQUIRE_EQUAL(queue.top().id, reference.top().id);
        BOOST_REQUIRE_EQUAL(queue.top().threshold, reference.top().threshold);
        queue.pop();
        reference.pop();
      }
      BOOST_REQUIRE_EQUAL(queue.empty(), reference.empty());
    }
    std::size_t listed = 0;
    queue.for_each([&](const Member&) { ++listed; });
    BOOST_CHECK_EQUAL(listed, reference.size());
    while (!reference.empty()) {
      BOOST_REQUIRE_EQUAL(queue.top().id, reference.top().id);
      queue.pop();
      reference.pop();
    }
    BOOST_CHECK(queue.empty());
  }
}

BOOST_AUTO_TEST_SUITE_END()
