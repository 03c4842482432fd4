#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/timeline.hpp"

using namespace contend;

namespace {

const std::vector<Placement> kTwoNodes = {{0, 0, 0}, {1, 1, 2}};

// Rank 0 posts a send at t0 and waits for it in a Waitall [t0, t0 + 3 us]
// (blocked from t0 + 1 us); rank 1 computes 1 us, then receives until
// t0 + 3 us. The message arrives at t0 + 3 us.
Timeline exchange(double t0) {
  Timeline t;
  const auto isend = t.next_order();
  const auto waitall = t.next_order();
  const auto blocked = t.next_order();
  const auto compute = t.next_order();
  const auto recv = t.next_order();
  // Recorded as they end, as the engine does: inner spans first.
  t.add_span(0, RankActivity::Mpi, Timeline::kIsend, t0, isend, t0);
  t.add_span(0, RankActivity::Waiting, Timeline::kWaiting, t0 + 1e-6, blocked, t0 + 3e-6);
  t.add_span(0, RankActivity::Mpi, Timeline::kWaitall, t0, waitall, t0 + 3e-6);
  t.add_span(1, RankActivity::Compute, Timeline::kCompute, t0, compute, t0 + 1e-6);
  t.add_span(1, RankActivity::Mpi, Timeline::kRecv, t0 + 1e-6, recv, t0 + 3e-6);
  t.add_message({.src = 0,
                 .dst = 1,
                 .bytes = 4096,
                 .level = Level::InterNode,
                 .eager = false,
                 .post = t0,
                 .start = t0 + 1e-6,
                 .arrived = t0 + 3e-6,
                 .received = t0 + 3e-6});
  t.sort();
  return t;
}

std::string chrome(const Timeline& t) {
  std::ostringstream out;
  write_chrome_trace(out, t, kTwoNodes);
  return out.str();
}

std::string paje(const Timeline& t) {
  std::ostringstream out;
  write_paje_trace(out, t, kTwoNodes);
  return out.str();
}

std::vector<nlohmann::json> events_of(const std::string& text, const std::string& phase) {
  std::vector<nlohmann::json> found;
  const auto json = nlohmann::json::parse(text);
  for (const auto& e : json["traceEvents"]) {
    if (e["ph"] == phase) found.push_back(e);
  }
  return found;
}

// The lines of `text` that begin with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  }
  return found;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(timeline)

BOOST_AUTO_TEST_CASE(names_are_fixed_then_added_once) {
  Timeline t;
  BOOST_TEST(t.names()[Timeline::kWaitall] == "MPI_Waitall");
  BOOST_TEST(t.name_index("MPI_Isend") == Timeline::kIsend);
  const auto bcast = t.name_index("MPI_Bcast");
  BOOST_TEST(bcast == Timeline::kFixedNames);
  BOOST_TEST(t.name_index("MPI_Bcast") == bcast);
  BOOST_TEST(t.names().size() == Timeline::kFixedNames + 1u);
}

BOOST_AUTO_TEST_CASE(sort_puts_spans_in_the_order_they_began) {
  const Timeline t = exchange(0);
  std::vector<std::string> names;
  for (const auto& s : t.spans()) names.push_back(t.names()[s.name]);
  const std::vector<std::string> expected = {"MPI_Isend", "MPI_Waitall", "waiting", "compute", "MPI_Recv"};
  BOOST_TEST(names == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(chrome_trace_has_tracks_slices_and_a_flow) {
  const std::string text = chrome(exchange(0));
  const auto json = nlohmann::json::parse(text);
  BOOST_TEST(json["displayTimeUnit"] == "ns");
  const auto meta = events_of(text, "M");
  BOOST_TEST(meta.size() == 8u);  // two processes, two threads, each a name and a sort index
  bool rank1_named = false;
  for (const auto& m : meta) {
    if (m["name"] == "thread_name" && m["tid"] == 1) {
      rank1_named = m["pid"] == 1 && m["args"]["name"] == "rank 1 (node 1, socket 1, core 2)";
    }
  }
  BOOST_TEST(rank1_named);
  const auto slices = events_of(text, "X");
  BOOST_REQUIRE(slices.size() == 5u);
  BOOST_TEST(slices[1]["name"] == "MPI_Waitall");
  BOOST_TEST(slices[1]["cat"] == "mpi");
  BOOST_TEST(slices[2]["cat"] == "waiting");
  BOOST_TEST(slices[2]["ts"].get<double>() == 1.0);
  BOOST_TEST(slices[2]["dur"].get<double>() == 2.0);
  BOOST_TEST(slices[3]["cat"] == "compute");
  BOOST_TEST(slices[3]["pid"] == 1);
  const auto starts = events_of(text, "s"), finishes = events_of(text, "f");
  BOOST_REQUIRE(starts.size() == 1u);
  BOOST_REQUIRE(finishes.size() == 1u);
  BOOST_TEST(starts[0]["id"] == finishes[0]["id"]);
  BOOST_TEST(starts[0]["tid"] == 0);
  BOOST_TEST(finishes[0]["tid"] == 1);
  BOOST_TEST(finishes[0]["bp"] == "e");
  BOOST_TEST(starts[0]["args"]["bytes"] == 4096);
  BOOST_TEST(starts[0]["args"]["protocol"] == "rendezvous");
  BOOST_TEST(starts[0]["args"]["level"] == "inter_node");
  BOOST_TEST(finishes[0]["ts"].get<double>() == 3.0);
}

// Three hours in, the nanoseconds are still there: "ts" is printed from whole
// nanoseconds (microseconds with three decimals), never rounded by %g.
BOOST_AUTO_TEST_CASE(chrome_times_keep_nanoseconds_after_hours) {
  const double t0 = 3 * 3600.0 + 1e-9;
  const std::string text = chrome(exchange(t0));
  BOOST_TEST(text.find("\"ts\":10800000000.001,\"dur\":3.000") != std::string::npos);
  BOOST_TEST(text.find("\"ts\":10800000001.001,\"dur\":2.000") != std::string::npos);
  // Distinct and ordered, one nanosecond apart.
  Timeline t;
  for (int k = 0; k < 5; ++k) {
    t.add_span(0, RankActivity::Compute, Timeline::kCompute, 3 * 3600.0 + k * 1e-9, t.next_order(),
               3 * 3600.0 + (k + 1) * 1e-9);
  }
  t.sort();
  const auto slices = events_of(chrome(t), "X");
  std::vector<std::string> ts;
  for (const auto& s : lines_starting(chrome(t), "{\"name\":\"compute\"")) {
    ts.push_back(s.substr(s.find("\"ts\":"), s.find('}') + 1 - s.find("\"ts\":")));
  }
  const std::vector<std::string> expected = {
      "\"ts\":10800000000.000,\"dur\":0.001}", "\"ts\":10800000000.001,\"dur\":0.001}",
      "\"ts\":10800000000.002,\"dur\":0.001}", "\"ts\":10800000000.003,\"dur\":0.001}",
      "\"ts\":10800000000.004,\"dur\":0.001}"};
  BOOST_TEST(ts == expected, boost::test_tools::per_element());
  BOOST_TEST(slices.size() == 5u);
}

BOOST_AUTO_TEST_CASE(resource_loads_become_counter_tracks) {
  Timeline t = exchange(0);
  const auto nic = t.add_resource({"nic@node1", "flows"});
  t.add_load(nic, 2e-6, 2);
  t.add_load(nic, 1e-6, 1);
  t.sort();
  const std::string text = chrome(t);
  const auto counters = events_of(text, "C");
  BOOST_REQUIRE(counters.size() == 2u);
  BOOST_TEST(counters[0]["name"] == "nic@node1");
  BOOST_TEST(counters[0]["pid"] == 2);  // after the two nodes
  BOOST_TEST(counters[0]["ts"].get<double>() == 1.0);
  BOOST_TEST(counters[0]["args"]["flows"] == 1);
  BOOST_TEST(counters[1]["args"]["flows"] == 2);
  const std::string p = paje(t);
  const std::vector<std::string> loads = {"8 0.000001000 VT_Load resource0 1", "8 0.000002000 VT_Load resource0 2"};
  BOOST_TEST(lines_starting(p, "8 ") == loads, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(paje_nests_the_wait_in_its_call_and_links_the_message) {
  const std::string text = paje(exchange(0));
  BOOST_TEST(text.rfind("%EventDef PajeDefineContainerType 0", 0) == 0);
  const std::vector<std::string> rank0 = {
      "11 0.000000000 ST_Rank rank0 SV_3",  // MPI_Isend
      "12 0.000000000 ST_Rank rank0",
      "11 0.000000000 ST_Rank rank0 SV_8",  // MPI_Waitall
      "11 0.000001000 ST_Rank rank0 SV_2",  // waiting, inside it
      "12 0.000003000 ST_Rank rank0",
      "12 0.000003000 ST_Rank rank0",
  };
  std::vector<std::string> states;
  for (const auto& line : lines_starting(text, "1")) {
    if (line.find(" rank0") != std::string::npos && (line[1] == '1' || line[1] == '2')) states.push_back(line);
  }
  BOOST_TEST(states == rank0, boost::test_tools::per_element());
  const std::vector<std::string> link = {"14 0.000000000 LT_Message 0 LV_rendezvous rank0 m0",
                                         "15 0.000003000 LT_Message 0 LV_rendezvous rank1 m0"};
  std::vector<std::string> links = lines_starting(text, "14 ");
  for (const auto& l : lines_starting(text, "15 ")) links.push_back(l);
  BOOST_TEST(links == link, boost::test_tools::per_element());
  const std::vector<std::string> containers = {"6 0.000000000 node0 CT_Node 0 \"node 0\"",
                                               "6 0.000000000 node1 CT_Node 0 \"node 1\"",
                                               "6 0.000000000 rank0 CT_Rank node0 \"rank 0 (socket 0, core 0)\"",
                                               "6 0.000000000 rank1 CT_Rank node1 \"rank 1 (socket 1, core 2)\""};
  BOOST_TEST(lines_starting(text, "6 ") == containers, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
