// Transport buffering (levels.<level>.transport_buffer, docs/mpi-semantics.md):
// a rendezvous send completes once at most B of its bytes remain
// undelivered, in every model that moves data, against hand-computed times.
#include <fmt/format.h>

#include <boost/test/unit_test.hpp>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sim/engine/mpi.hpp"
#include "sim/engine/worker_pool.hpp"
#include "tests/harness/sim_fixture.hpp"

using namespace contend;
using namespace contend::test;
namespace tt = boost::test_tools;

namespace {

constexpr double L = 10e-6;    // the inter-node level's tau: the route's latency (NICs and star without latency)
constexpr double BW = 1e9;     // the NICs and the inter-node level: 1 GB/s
constexpr double S = 1 << 20;  // one 1 MiB rendezvous message
constexpr std::uint64_t kMessage = 1 << 20;
constexpr double B = 256 << 10;  // a 256 KiB transport buffer

// The three levels (tau 1, 2 and 10 us, 1 GB/s, eager below 1 KiB), with a
// transport_buffer where one is given ("": no key).
std::string buffered_levels(const std::string& inter_socket_buffer, const std::string& inter_node_buffer) {
  auto level = [](const std::string& name, const std::string& latency, const std::string& buffer) {
    return "  " + name + ": {latency: " + latency + ", eager_threshold: 1KiB, bandwidth: 1GB/s" +
           (buffer.empty() ? "" : ", transport_buffer: " + buffer) + "}\n";
  };
  return level("intra_socket", "1us", "") + level("inter_socket", "2us", inter_socket_buffer) +
         level("inter_node", "10us", inter_node_buffer);
}

// `nodes` nodes of one core behind 1 GB/s NICs on a much faster star; the
// inter-node level's transport_buffer is `buffer` (no key when empty).
std::string buffered_star(int nodes, const std::string& buffer, const std::string& models = "") {
  return platform_yaml(nodes, 1, 1, buffered_levels("", buffer), "{topology: star, link_bandwidth: 1e12}",
                       "{bandwidth: 1GB/s}") +
         models;
}

// A loggops section: every level's eager and rendezvous ranges, contiguous
// data only, o_r = O_r = O_s = 0.
std::string loggops_section(const std::string& eager_L_g_G_o_s, const std::string& rendezvous_L_g_G_o_s) {
  auto range = [](const std::string& L_g_G_o_s) {
    std::istringstream in(L_g_G_o_s);
    std::string L, g, G, o_s;
    in >> L >> g >> G >> o_s;
    return "{L: " + L + ", g: " + g + ", G: " + G + ", datatypes: {contiguous: {o_s: " + o_s +
           ", O_s: 0ns, o_r: 0us, O_r: 0ns}}}";
  };
  return "models:\n  loggops:\n    default:\n      eager: " + range(eager_L_g_G_o_s) +
         "\n      rendezvous: " + range(rendezvous_L_g_G_o_s) + "\n";
}

// LogGOPS with every overhead and gap 0 (a neutral part of `A+loggops`).
const std::string kNeutralLogGops = loggops_section("0us 0us 0ns 0us", "0us 0us 0ns 0us");

// What the tests read of a run, brought back from a child process (SimGrid
// allows one engine per process), every time exact.
struct Outcome {
  std::vector<RankResult> ranks;
  std::vector<MessageRecord> messages;  // in completion order
};

Outcome in_child(const std::function<Results()>& simulation) {
  const std::string text = run_in_child_process([&simulation] {
    const Results r = simulation();
    std::string out = fmt::format("{}\n", r.ranks.size());
    for (const auto& k : r.ranks) out += fmt::format("{:a} {:a} {:a}\n", k.recv_time, k.send_time, k.total_time);
    for (const auto& m : r.messages) out += fmt::format("{} {} {} {:a} {:a}\n", m.src, m.dst, m.bytes, m.start, m.end);
    return out;
  });
  std::istringstream in(text);
  Outcome o;
  std::size_t ranks = 0;
  in >> ranks;
  std::string a, b, c, d, e;
  for (std::size_t k = 0; k < ranks && in >> a >> b >> c; ++k) {
    RankResult rank{};
    rank.rank = static_cast<int>(k);
    rank.recv_time = std::stod(a);
    rank.send_time = std::stod(b);
    rank.total_time = std::stod(c);
    o.ranks.push_back(rank);
  }
  while (in >> a >> b >> c >> d >> e) {
    MessageRecord m{};
    m.src = std::stoi(a);
    m.dst = std::stoi(b);
    m.bytes = std::stoull(c);
    m.start = std::stod(d);
    m.end = std::stod(e);
    o.messages.push_back(m);
  }
  return o;
}

// Rank 0 sends one message of `bytes` to rank 1 (both post at 0, Wait).
ScriptWorkload one_message(std::uint64_t bytes) {
  return ScriptWorkload(2, [bytes](Mpi& mpi) {
    if (mpi.rank() == 0) mpi.send(1, bytes);
    if (mpi.rank() == 1) mpi.recv(0, bytes);
  });
}

// Ranks 1 and 2 send one message of `bytes` each to rank 0 at 0.
ScriptWorkload fan_in_of_two(std::uint64_t bytes) {
  return ScriptWorkload(3, [bytes](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.waitall({mpi.irecv(1, bytes), mpi.irecv(2, bytes)});
    } else {
      mpi.send(0, bytes);
    }
  });
}

// Rank 0 sends `bytes` to rank 1, then (once that send completed) `bytes`
// to rank 2; ranks 1 and 2 post their receives at 0.
ScriptWorkload send_then_send(std::uint64_t bytes) {
  return ScriptWorkload(3, [bytes](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.waitall({mpi.isend(1, bytes)});
      mpi.waitall({mpi.isend(2, bytes)});
    } else {
      mpi.recv(0, bytes);
    }
  });
}

// Two runs give the same times, bit for bit.
void check_identical(const Outcome& a, const Outcome& b) {
  BOOST_TEST_REQUIRE(a.ranks.size() == b.ranks.size());
  for (std::size_t k = 0; k < a.ranks.size(); ++k) {
    BOOST_TEST_CONTEXT("rank " << k) {
      BOOST_TEST(a.ranks[k].send_time == b.ranks[k].send_time);
      BOOST_TEST(a.ranks[k].recv_time == b.ranks[k].recv_time);
      BOOST_TEST(a.ranks[k].total_time == b.ranks[k].total_time);
    }
  }
  BOOST_TEST_REQUIRE(a.messages.size() == b.messages.size());
  for (std::size_t k = 0; k < a.messages.size(); ++k) {
    BOOST_TEST(a.messages[k].src == b.messages[k].src);
    BOOST_TEST(a.messages[k].dst == b.messages[k].dst);
    BOOST_TEST(a.messages[k].start == b.messages[k].start);
    BOOST_TEST(a.messages[k].end == b.messages[k].end);
  }
}

const std::string kFlowcutTable =
    "models:\n"
    "  flowcut:\n"
    "    same_direction: {odd_conflicts: [1], even_conflicts: [1/2, 2]}\n"
    "    outgo_income: {incoming: 0, outgoing: 3}\n"
    "    alone: {include: 1/2, start_end: 0}\n";

// A workload run under `model` on `platform`, in a child process.
Outcome run_script(const std::string& platform, const std::function<ScriptWorkload()>& make, const std::string& model) {
  return in_child([&] {
    auto w = make();
    return run(platform, w, {.model = model});
  });
}

Outcome run_messages(const std::string& platform, const std::vector<PatternMessage>& messages, int ranks,
                     const std::string& model) {
  return in_child([&] { return run_pattern(platform, messages, ranks, {.model = model}); });
}

// One 1 MiB message alone, B = 256 KiB: the sender at L + (S - B)/bw, the receiver at L + S/bw.
void check_lone_message(const std::string& platform, const std::string& model, double latency, double bandwidth) {
  auto w = one_message(kMessage);
  const auto r = run(platform, w, {.model = model});
  BOOST_TEST(r.ranks[0].send_time == latency + (S - B) / bandwidth, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[0].total_time == latency + (S - B) / bandwidth, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[1].recv_time == latency + S / bandwidth, tt::tolerance(1e-12));
  const auto m = messages_between(r, 0, 1);
  BOOST_TEST_REQUIRE(m.size() == 1U);
  BOOST_TEST(m[0].start == 0.0);
  BOOST_TEST(m[0].end == latency + S / bandwidth, tt::tolerance(1e-12));
}

}  // namespace

// ---------------------------------------------------------------- one message alone

BOOST_AUTO_TEST_CASE(transport_buffer_maxmin_releases_the_sender_when_the_buffer_holds_the_rest) {
  check_lone_message(buffered_star(2, "256KiB"), "maxmin", L, BW);
}

BOOST_AUTO_TEST_CASE(transport_buffer_staircase_releases_the_sender_when_the_buffer_holds_the_rest) {
  check_lone_message(buffered_star(2, "256KiB"), "staircase", L, BW);
}

BOOST_AUTO_TEST_CASE(transport_buffer_flowcut_releases_the_sender_when_the_buffer_holds_the_rest) {
  // Martinasso's linear model between nodes: L + m / Bw of the inter-node level.
  check_lone_message(buffered_star(2, "256KiB", kFlowcutTable), "flowcut", L, BW);
}

BOOST_AUTO_TEST_CASE(transport_buffer_flowcut_within_a_node_in_closed_form) {
  // Two ranks on one node of two sockets: the inter-socket level (tau 2 us, 1 GB/s).
  check_lone_message(platform_yaml(1, 2, 1, buffered_levels("256KiB", "")) + kFlowcutTable, "flowcut", 2e-6, BW);
}

BOOST_AUTO_TEST_CASE(transport_buffer_maxmin_plus_neutral_loggops_is_maxmin) {
  check_lone_message(buffered_star(2, "256KiB", kNeutralLogGops), "maxmin+loggops", L, BW);
}

BOOST_AUTO_TEST_CASE(transport_buffer_loggops_releases_at_the_arrival_of_byte_k_minus_b) {
  // Rendezvous L 5 us, g 1 us, G 1 ns/B, o_s 2 us: the NIC injects from 0;
  // byte k - B leaves at g + G (k - B) and arrives L later; the last byte at
  // g + G k + L.
  const std::string models = loggops_section("1us 1us 1ns 1us", "5us 1us 1ns 2us");
  auto w = one_message(kMessage);
  const auto r = run(buffered_star(2, "256KiB", models), w, {.model = "loggops"});
  BOOST_TEST(r.ranks[0].send_time == 1e-6 + (S - B) * 1e-9 + 5e-6, tt::tolerance(1e-12));
  BOOST_TEST(r.ranks[1].recv_time == 1e-6 + S * 1e-9 + 5e-6, tt::tolerance(1e-12));
}

// ---------------------------------------------------------------- buffer sizes

BOOST_AUTO_TEST_CASE(transport_buffer_holding_the_whole_message_releases_the_sender_when_its_data_moves) {
  // B = the message and B > the message: written into the socket at once
  // when the handshake is done (both posted at 0); the receiver is unchanged.
  for (const std::string buffer : {"1MiB", "4MiB"}) {
    for (const std::string model : {"maxmin", "staircase", "flowcut", "loggops"}) {
      const auto r = run_script(
          buffered_star(2, buffer, model == "loggops" ? kNeutralLogGops : kFlowcutTable),
          [] { return one_message(kMessage); }, model);
      BOOST_TEST_CONTEXT(model << " with " << buffer) {
        BOOST_TEST(r.ranks[0].send_time == 0.0);
        BOOST_TEST(r.ranks[0].total_time == 0.0);
        if (model != "loggops") BOOST_TEST(r.ranks[1].recv_time == L + S / BW, tt::tolerance(1e-12));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(transport_buffer_zero_is_the_absent_key_bit_for_bit) {
  std::mt19937 rng(16003);
  const auto messages = random_messages(rng, 6, 12);
  for (const std::string model : {"maxmin", "staircase", "flowcut", "loggops"}) {
    const std::string models = model == "loggops" ? kNeutralLogGops : kFlowcutTable;
    BOOST_TEST_CONTEXT(model) {
      check_identical(run_messages(buffered_star(6, "", models), messages, 6, model),
                      run_messages(buffered_star(6, "0", models), messages, 6, model));
    }
  }
}

BOOST_AUTO_TEST_CASE(transport_buffer_leaves_eager_sends_complete_when_posted) {
  // 512 B (eager below 1 KiB) with a 256 B buffer: complete at its post, the
  // rank's send time the delivery of its last byte, as without a buffer.
  check_identical(run_script(
                      buffered_star(2, "256"), [] { return one_message(512); }, "maxmin"),
                  run_script(
                      buffered_star(2, ""), [] { return one_message(512); }, "maxmin"));
}

// ---------------------------------------------------------------- contention

BOOST_AUTO_TEST_CASE(transport_buffer_releases_follow_the_shared_rates) {
  // Ranks 1 and 2 (nodes 1, 2) send 1 MiB each into rank 0 (node 0): its NIC
  // (maxmin), its node group of one receiver with two messages (staircase),
  // the incoming conflict of cut 1 (flowcut) give each 0.5 GB/s.
  for (const std::string model : {"maxmin", "staircase", "flowcut"}) {
    const auto r = run_script(
        buffered_star(3, "256KiB", kFlowcutTable), [] { return fan_in_of_two(kMessage); }, model);
    BOOST_TEST_CONTEXT(model) {
      BOOST_TEST(r.ranks[1].send_time == L + (S - B) / (BW / 2), tt::tolerance(1e-12));
      BOOST_TEST(r.ranks[2].send_time == L + (S - B) / (BW / 2), tt::tolerance(1e-12));
      BOOST_TEST(r.ranks[0].recv_time == L + S / (BW / 2), tt::tolerance(1e-12));
    }
  }
}

BOOST_AUTO_TEST_CASE(transport_buffer_next_send_starts_at_the_release) {
  // Rank 0 is released from its first message at t1 = L + (S - B)/BW; its
  // second starts then and shares rank 0's NIC with the first's last B
  // bytes: L alone, then half each until the first ends, then alone.
  // Its release: t1 + L + 2 (B - L BW)/BW + (S - 2B + L BW)/BW = t1 + S/BW.
  for (const std::string model : {"maxmin", "staircase"}) {
    const auto r = run_script(
        buffered_star(3, "256KiB"), [] { return send_then_send(kMessage); }, model);
    const double t1 = L + (S - B) / BW;
    BOOST_TEST_CONTEXT(model) {
      BOOST_TEST_REQUIRE(r.messages.size() == 2U);
      BOOST_TEST(r.messages[1].dst == 2);
      BOOST_TEST(r.messages[1].start == t1, tt::tolerance(1e-12));
      // The first message's last B bytes: L alone, the rest at half rate.
      BOOST_TEST(r.ranks[1].recv_time == t1 + L + 2 * (B - L * BW) / BW, tt::tolerance(1e-12));
      BOOST_TEST(r.ranks[0].send_time == t1 + S / BW, tt::tolerance(1e-12));
      BOOST_TEST(r.ranks[2].recv_time == t1 + (S + B) / BW, tt::tolerance(1e-12));
    }
  }
}

// ---------------------------------------------------------------- compositions

BOOST_AUTO_TEST_CASE(transport_buffer_compositions_reduce_to_their_parts) {
  // Neutral overheads on top, or one model per level where only one level
  // carries messages: the same times as the part alone, bit for bit.
  const std::string platform = buffered_star(3, "256KiB", kNeutralLogGops);
  for (const auto& [composed, part] : {std::pair<std::string, std::string>{"maxmin+loggops", "maxmin"},
                                       {"staircase+loggops", "staircase"},
                                       {"intra=staircase,inter=maxmin", "maxmin"},
                                       {"intra=maxmin,inter=staircase", "staircase"}}) {
    BOOST_TEST_CONTEXT(composed) {
      check_identical(run_script(
                          platform, [] { return send_then_send(kMessage); }, composed),
                      run_script(
                          platform, [] { return send_then_send(kMessage); }, part));
    }
  }
}

// ---------------------------------------------------------------- refusals

BOOST_AUTO_TEST_CASE(transport_buffer_models_that_cannot_tell_refuse) {
  auto w = one_message(kMessage);
  BOOST_TEST(run_error(buffered_star(2, "256KiB"), w, {.model = "simgrid-lmm"}) ==
             "model simgrid-lmm cannot simulate levels.inter_node.transport_buffer: SimGrid's communications signal "
             "only their completion, not the instant their remaining bytes reach the buffer's size (use maxmin, its "
             "fluid equivalent) (docs/mpi-semantics.md)");
}

// ---------------------------------------------------------------- property

BOOST_AUTO_TEST_CASE(transport_buffer_release_is_the_closed_form_at_constant_rates) {
  // Property: 12 pairs on disjoint nodes, each message alone at 1 GB/s, of a
  // random size, with one random buffer per round: the sender is released
  // when the model's progress reaches size - B, at L + (size - B)/BW, or at
  // 0 when the buffer holds it; the receiver at L + size/BW.
  std::mt19937 rng(1616);
  std::uniform_int_distribution<std::uint64_t> size(2048, 4 << 20);
  std::uniform_int_distribution<std::uint64_t> buffer(1024, 2 << 20);
  for (int round = 0; round < 4; ++round) {
    const std::uint64_t b = buffer(rng);
    std::vector<PatternMessage> messages;
    for (int p = 0; p < 12; ++p) messages.push_back({2 * p, 2 * p + 1, size(rng)});
    for (const std::string model : {"maxmin", "staircase", "flowcut"}) {
      const auto r = run_messages(buffered_star(24, std::to_string(b), kFlowcutTable), messages, 24, model);
      for (const auto& m : messages) {
        const double bytes = static_cast<double>(m.bytes);
        const double release = b >= m.bytes ? 0.0 : L + (bytes - static_cast<double>(b)) / BW;
        BOOST_TEST_CONTEXT(model << ": " << m.bytes << " B with B = " << b) {
          BOOST_TEST(r.ranks[static_cast<std::size_t>(m.src)].send_time == release, tt::tolerance(1e-12));
          BOOST_TEST(r.ranks[static_cast<std::size_t>(m.dst)].recv_time == L + bytes / BW, tt::tolerance(1e-12));
        }
      }
    }
  }
}
