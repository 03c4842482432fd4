// The dynamic tau-Lop model's bookkeeping against the model written plainly:
// PairIndex against std::unordered_map, and TransferModel (pools, NIC
// counters, pools moving between NICs) against a reference that recomputes
// every message's rate at every event (Nuriyev et al. JPDC 2022, Sec. 4, with
// the pair order of models/taulop/README.md), on random small cases.
#include <algorithm>
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/taulop/pair_index.hpp"
#include "models/taulop/parameters.hpp"
#include "models/taulop/transfer_model.hpp"
#include "sim/core/yaml_field.hpp"

using namespace contend;
using namespace contend::taulop;

namespace {

// Non-monotone concurrency tables: a NIC's s(tau) may fall as tau grows, so
// the slower NIC of a pair changes both ways.
const char* kTables = R"(
Q: 2
channels:
  shared_memory: {o: {intercept: 0.1, per_byte: 0.001}, L: {intercept: 0.5, per_byte: 0.01}, gamma: {2: 1},
                  concurrency: {1: 1, 2: 1.6, 3: 1.3, 4: 2.9}}
  network: {o: {intercept: 0.2, per_byte: 0.002}, L: {intercept: 1, per_byte: 0.02}, gamma: {2: 1},
            concurrency: {1: 1, 2: 1.8, 3: 1.5, 5: 4}}
)";
// No tables: s(tau) = tau, NICs often equally slow.
const char* kShared = R"(
Q: 2
channels:
  shared_memory: {o: 0, L: {intercept: 0.5, per_byte: 0.01}, gamma: {2: 1}}
  network: {o: 0, L: {intercept: 1, per_byte: 0.02}, gamma: {2: 1}}
)";

struct Message {
  TransferModel::Endpoints at;
  double bytes = 0;
  double start = 0;
};

// Every message's rate recomputed from the channels' tau at every event.
std::vector<double> reference_ends(const Parameters& p, int nodes, const std::vector<Message>& messages) {
  struct State {
    int step = -1;  // -1: not started
    bool queued = false;
    double left = 0;  // seconds alone in the current step
  };
  const auto slowdown = [&](Channel c, int tau) {
    const CountFunction& t = p.channels[c].concurrency;
    return std::max(1.0, t.empty() ? static_cast<double>(tau) : t(tau));
  };
  const auto steps = [&](const Message& m) { return m.at.src_node == m.at.dst_node ? 3 : 4; };
  const auto work = [&](const Message& m, int step) {
    const auto& sm = p.channels[kSharedMemory];
    const auto& net = p.channels[kNetwork];
    const bool local = m.at.src_node == m.at.dst_node;
    if (step == 0) return local ? sm.o(m.bytes) : net.o(m.bytes);
    return step == 2 && !local ? net.L(m.bytes) : sm.L(m.bytes);
  };
  const auto memory_node = [&](const Message& m, int step) { return step == 3 ? m.at.dst_node : m.at.src_node; };
  const auto on_network = [&](const Message& m, int step) { return step == 2 && steps(m) == 4; };

  const std::size_t n = messages.size();
  std::vector<State> s(n);
  std::vector<double> ends(n, -1);
  std::map<std::pair<int, int>, std::array<std::deque<std::size_t>, 4>> lanes;  // holder first, then waiters
  auto request = [&](std::size_t i) {
    const Message& m = messages[i];
    auto& lane = lanes[{m.at.src_rank, m.at.dst_rank}][static_cast<std::size_t>(s[i].step)];
    lane.push_back(i);
    s[i].queued = lane.size() > 1;
    s[i].left = work(m, s[i].step);
  };
  auto finish_step = [&](std::size_t i, double now) {
    const Message& m = messages[i];
    if (s[i].step > 0) {
      auto& lane = lanes[{m.at.src_rank, m.at.dst_rank}][static_cast<std::size_t>(s[i].step)];
      lane.pop_front();
      if (!lane.empty()) s[lane.front()].queued = false;
    }
    if (++s[i].step == steps(m)) {
      ends[i] = now;
      return;
    }
    request(i);
  };
  double now = 0;
  while (std::count(ends.begin(), ends.end(), -1.0) > 0) {
    std::vector<int> memory(static_cast<std::size_t>(nodes)), out(memory), in(memory);
    for (std::size_t i = 0; i < n; ++i) {
      const Message& m = messages[i];
      if (s[i].step <= 0 || s[i].queued || ends[i] >= 0) continue;
      if (on_network(m, s[i].step)) {
        ++out[static_cast<std::size_t>(m.at.src_node)];
        ++in[static_cast<std::size_t>(m.at.dst_node)];
      } else {
        ++memory[static_cast<std::size_t>(memory_node(m, s[i].step))];
      }
    }
    std::vector<double> rate(n, 0);
    double next = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      const Message& m = messages[i];
      if (s[i].step < 0) next = std::min(next, m.start);
      if (s[i].step < 0 || s[i].queued || ends[i] >= 0) continue;
      if (s[i].step == 0) {
        rate[i] = 1;
      } else if (on_network(m, s[i].step)) {
        rate[i] = 1 / std::max(slowdown(kNetwork, out[static_cast<std::size_t>(m.at.src_node)]),
                               slowdown(kNetwork, in[static_cast<std::size_t>(m.at.dst_node)]));
      } else {
        rate[i] = 1 / slowdown(kSharedMemory, memory[static_cast<std::size_t>(memory_node(m, s[i].step))]);
      }
      next = std::min(next, now + s[i].left / rate[i]);
    }
    for (std::size_t i = 0; i < n; ++i) s[i].left -= rate[i] * (next - now);
    now = next;
    for (std::size_t i = 0; i < n; ++i) {
      if (s[i].step < 0 && messages[i].start <= now) {
        s[i].step = 0;
        s[i].left = work(messages[i], 0);
      } else if (rate[i] > 0 && s[i].left <= 1e-9) {
        finish_step(i, now);
      }
    }
  }
  return ends;
}

std::vector<double> model_ends(const Parameters& p, int nodes, const std::vector<Message>& messages) {
  TransferModel model(p, nodes);
  std::vector<std::size_t> order(messages.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return messages[a].start < messages[b].start; });
  std::vector<TransferModel::Completion> done;
  for (const std::size_t i : order) {
    model.advance(messages[i].start, done);
    model.start(static_cast<TransferModel::Id>(i), messages[i].at, messages[i].bytes, messages[i].start);
  }
  while (model.next_event() < 1e300) model.advance(model.next_event(), done);
  std::vector<double> ends(messages.size(), -1);
  for (const auto& c : done) ends[c.id] = c.time;
  return ends;
}

// Random messages among `nodes` nodes of 3 ranks; several per pair (the
// pair order), sizes and start times drawn continuously (no ties), or with
// `ties` from two sizes and three start times (simultaneous events).
std::vector<Message> random_case(std::mt19937_64& rng, int nodes, bool ties) {
  std::uniform_int_distribution<int> rank(0, 3 * nodes - 1), count(10, 40);
  std::uniform_real_distribution<double> bytes(10, 200), start(0, 8);
  std::vector<Message> messages(static_cast<std::size_t>(count(rng)));
  for (Message& m : messages) {
    m.at.src_rank = rank(rng);
    do {
      m.at.dst_rank = rank(rng);
    } while (m.at.dst_rank == m.at.src_rank);
    m.at.src_node = m.at.src_rank / 3;
    m.at.dst_node = m.at.dst_rank / 3;
    m.bytes = ties ? 50 + 50 * static_cast<double>(rng() % 2) : bytes(rng);
    m.start = ties ? static_cast<double>(rng() % 3) : start(rng);
  }
  return messages;
}

void check_random_cases(const char* section, std::uint64_t seed, bool ties = false) {
  const Parameters p = parse_parameters(YamlField::load_string(section, "t.yaml"));
  std::mt19937_64 rng(seed);
  for (int c = 0; c < 300; ++c) {
    const int nodes = 2 + c % 6;
    const std::vector<Message> messages = random_case(rng, nodes, ties);
    const std::vector<double> expected = reference_ends(p, nodes, messages);
    const std::vector<double> got = model_ends(p, nodes, messages);
    for (std::size_t i = 0; i < messages.size(); ++i) {
      BOOST_TEST_INFO("case " << c << ", message " << i);
      BOOST_TEST(got[i] == expected[i], boost::test_tools::tolerance(1e-9));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(taulop_sharing)

BOOST_AUTO_TEST_CASE(pair_index_equals_unordered_map) {
  PairIndex index;
  std::unordered_map<std::uint64_t, std::uint32_t> expected;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint64_t> key(0, 3000);
  // Grows to a few thousand pairs, then empties: growth, shrinking, shifts.
  for (int round = 0; round < 40000; ++round) {
    const std::uint64_t k = (key(rng) << 32) | key(rng) % 7;
    const bool grow = round < 25000 ? rng() % 3 != 0 : rng() % 4 == 0;
    if (grow || expected.empty()) {
      const auto [value, inserted] = index.try_emplace(k, static_cast<std::uint32_t>(round));
      const auto [it, fresh] = expected.try_emplace(k, static_cast<std::uint32_t>(round));
      BOOST_REQUIRE(inserted == fresh);
      BOOST_REQUIRE(*value == it->second);
    } else {
      auto it = expected.begin();
      std::advance(it, static_cast<long>(rng() % std::min<std::size_t>(expected.size(), 16)));
      index.erase(it->first);
      expected.erase(it);
    }
    BOOST_REQUIRE(index.size() == expected.size());
  }
  for (const auto& [k, v] : expected) {
    const auto [value, inserted] = index.try_emplace(k, 0);
    BOOST_TEST(!inserted);
    BOOST_TEST(*value == v);
  }
}

BOOST_AUTO_TEST_CASE(transfers_equal_the_plain_model_with_concurrency_tables) { check_random_cases(kTables, 1); }

BOOST_AUTO_TEST_CASE(transfers_equal_the_plain_model_with_equal_sharing) { check_random_cases(kShared, 2); }

BOOST_AUTO_TEST_CASE(transfers_equal_the_plain_model_with_simultaneous_events) {
  check_random_cases(kTables, 3, true);
  check_random_cases(kShared, 4, true);
}

BOOST_AUTO_TEST_SUITE_END()
