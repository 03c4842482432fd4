// The HTML report's writer (sim/core/html_report.hpp) on hand-made runs:
// escaping, empty sections, one rank, operating points, the top 20, size
// bounds and same input, same bytes. tests/html/check_html_report.py loads a
// real report in headless Chromium.
#include <fmt/format.h>

#include <boost/test/unit_test.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/html_report.hpp"

using namespace contend;

namespace {

Platform two_nodes() {
  Platform p;
  p.file = "two-nodes.yaml";
  p.name = "two-nodes";
  p.nodes = {.count = 2, .sockets = 2, .cores_per_socket = 4, .core_speed = 1e9};
  p.hosts = {"node0", "node1"};
  p.levels[0].bandwidth = BandwidthTable::from_points({{1, 10e9}, {4, 20e9}, {8, 22e9}});
  p.levels[1].bandwidth = BandwidthTable::from_points({{1, 8e9}, {4, 12e9}});
  p.levels[2].bandwidth = BandwidthTable::constant(5e9);
  return p;
}

// `ranks` ranks on two_nodes() in block order, rank r computing for r us
// and then waiting 1 us.
Results run(int ranks) {
  Results r;
  r.model = "staircase";
  r.platform = "two-nodes";
  r.workload = "hand-made.pattern";
  r.mapping = "block";
  for (int i = 0; i < ranks; ++i) {
    const Placement place{i / 8, i % 8 / 4, i % 4};
    const double end = (i + 1) * 1e-6;
    r.ranks.push_back({.rank = i, .place = place, .recv_time = end, .send_time = end, .total_time = end});
    r.timeline.add_span(i, RankActivity::Compute, Timeline::kCompute, 0, r.timeline.next_order(), i * 1e-6);
    r.timeline.add_span(i, RankActivity::Mpi, Timeline::kWait, i * 1e-6, r.timeline.next_order(), end);
    r.timeline.add_span(i, RankActivity::Waiting, Timeline::kWaiting, i * 1e-6, r.timeline.next_order(), end);
  }
  r.timeline.sort();
  r.attributed = true;
  return r;
}

MessageAttribution message(std::uint64_t id, double duration, std::string resource) {
  MessageAttribution m;
  m.id = id;
  m.src = 0;
  m.dst = 1;
  m.seq = static_cast<std::uint32_t>(id);
  m.bytes = 1024;
  m.end = duration;
  m.contention_free = 1e-6;
  m.intervals.push_back({0, duration, std::move(resource), 1e9, "the numbers"});
  return m;
}

std::string page(const Results& r, const Platform& p = two_nodes(),
                 std::vector<std::pair<std::string, std::string>> options = {}) {
  std::ostringstream out;
  write_html_report(out, {r, p, std::move(options)});
  return out.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(html_report)

BOOST_AUTO_TEST_CASE(sections_of_a_small_run) {
  const std::string html = page(run(4), two_nodes(), {{"model", "staircase"}, {"oversubscribe", "false"}});
  BOOST_TEST(html.rfind("<!DOCTYPE html>", 0) == 0);
  for (const char* id : {"summary", "gantt", "loads", "mapping", "staircase", "delayed"}) {
    BOOST_TEST(count(html, std::string("<section id=\"") + id + "\"") == 1u, id);
  }
  BOOST_TEST(count(html, "<g class=\"row\"") == 4u);
  BOOST_TEST(count(html, "class=\"core used\"") == 4u);
  BOOST_TEST(count(html, "class=\"core free\"") == 5u);  // 4 of node 0 and the legend's key
  BOOST_TEST(html.find("<th>oversubscribe</th><td>false</td>") != std::string::npos);
  BOOST_TEST(html.find("<th>slowest rank</th><td>rank 3 (node 0, socket 0, core 3) at") != std::string::npos);
  BOOST_TEST(html.find("</html>\n") == html.size() - 8);
}

BOOST_AUTO_TEST_CASE(names_are_escaped) {
  Results r = run(2);
  r.workload = "<script>alert(1)</script>";
  const auto nic = r.timeline.add_resource({"nic@<b>&\"x\"", "flows"});
  r.timeline.add_load(nic, 0, 2);
  r.timeline.sort();
  r.attribution.push_back(message(0, 2e-6, "link:<i>'"));
  const std::string html = page(r);
  BOOST_TEST(html.find("<script>alert") == std::string::npos);
  BOOST_TEST(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  BOOST_TEST(html.find("data-resource=\"nic@&lt;b&gt;&amp;&quot;x&quot;\"") != std::string::npos);
  BOOST_TEST(html.find("link:&lt;i&gt;&#39;") != std::string::npos);
  BOOST_TEST(html.find("<b>") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(empty_loads_say_so) {
  const std::string html = page(run(3));
  BOOST_TEST(html.find("no resource loads recorded by this model") != std::string::npos);
  BOOST_TEST(count(html, "class=\"load\"") == 0u);
}

BOOST_AUTO_TEST_CASE(loads_are_drawn_most_loaded_first) {
  Results r = run(2);
  const auto quiet = r.timeline.add_resource({"nic:node0/out", "flows"});
  const auto busy = r.timeline.add_resource({"nic:node1/in", "flows"});
  r.timeline.add_load(quiet, 0, 1);
  r.timeline.add_load(quiet, 1e-6, 0);
  r.timeline.add_load(busy, 0, 3);
  r.timeline.sort();
  const std::string html = page(r);
  BOOST_TEST(html.find("id=\"no-loads\"") == std::string::npos);
  BOOST_TEST(count(html, "<g class=\"load\"") == 2u);
  BOOST_TEST(html.find("data-resource=\"nic:node1/in\"") < html.find("data-resource=\"nic:node0/out\""));
  BOOST_TEST(html.find("2 of 2 resources shown") != std::string::npos);
  BOOST_TEST(html.find(">3 flows</text>") != std::string::npos);  // its peak
}

BOOST_AUTO_TEST_CASE(long_resource_names_are_cut_in_labels_only) {
  Results r = run(2);
  const auto link = r.timeline.add_resource({"link:a-very-long-fabric-link-name-7", "fraction of bandwidth"});
  r.timeline.add_load(link, 0, 0.5);
  r.timeline.sort();
  const std::string html = page(r);
  BOOST_TEST(html.find("data-resource=\"link:a-very-long-fabric-link-name-7\"") != std::string::npos);
  BOOST_TEST(html.find(">...ong-fabric-link-name-7</text>") != std::string::npos);
  BOOST_TEST(html.find(">0.5 fraction of bandwi...</text>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(one_rank) {
  Results r = run(1);
  r.ranks[0].total_time = 0;  // a run that took no time
  const std::string html = page(r);
  BOOST_TEST(count(html, "<g class=\"row\"") == 1u);
  BOOST_TEST(count(html, "class=\"core used\"") == 1u);
  BOOST_TEST(html.find("the run delivered no messages") != std::string::npos);
  BOOST_TEST(html.find("nan") == std::string::npos);
  BOOST_TEST(html.find("inf") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(staircase_operating_points) {
  Results r = run(2);
  r.attribution.push_back(message(0, 3e-6, "staircase:node0/socket0(N=3)"));
  r.attribution.push_back(message(1, 2e-6, "staircase:node1(N=2)"));  // inter-node: the constant level
  const std::string html = page(r);
  BOOST_TEST(count(html, "<svg class=\"chart staircase\"") == 2u);  // the two tabulated levels
  BOOST_TEST(count(html, "<circle class=\"op\"") == 2u);            // N = 3 on both intra-node curves
  BOOST_TEST(html.find("the run at N = 3: BW_MP(3)") != std::string::npos);
  BOOST_TEST(html.find("inter_node: a constant bandwidth, BW_MP(N) = 5GB/s for every N; the run met N = 2") !=
             std::string::npos);
  BOOST_TEST(html.find("id=\"no-operating-points\"") == std::string::npos);
  BOOST_TEST(page(run(2)).find("id=\"no-operating-points\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(many_operating_points_are_summed_up) {
  Results r = run(2);
  for (int n = 1; n <= 10; ++n) {
    r.attribution.push_back(message(static_cast<std::uint64_t>(n), n * 1e-6, fmt::format("staircase:node1(N={})", n)));
  }
  BOOST_TEST(page(r).find("the run met N = 1 to 10 (10 values; the longest at N = 10: 1 times, 10.000 us)") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(operating_points_from_a_staircase_load) {
  Results r = run(2);
  const auto group = r.timeline.add_resource({"staircase:node0/socket1", "flows"});
  const auto share = r.timeline.add_resource({"staircase:node1/socket0", "fraction of bandwidth"});
  r.timeline.add_load(group, 0, 5);
  r.timeline.add_load(group, 1e-6, 0);
  r.timeline.add_load(share, 0, 1);  // not a count: no operating point
  r.timeline.sort();
  const std::string html = page(r);
  BOOST_TEST(html.find("the run at N = 5") != std::string::npos);
  BOOST_TEST(count(html, "<circle class=\"op\"") == 2u);  // N = 5 on both intra-node curves
}

BOOST_AUTO_TEST_CASE(the_twenty_most_delayed) {
  Results r = run(2);
  for (std::uint64_t id = 0; id < 25; ++id) r.attribution.push_back(message(id, (1 + id % 7) * 1e-6, "latency"));
  const std::string html = page(r);
  BOOST_TEST(count(html, "<tr class=\"delayed\"") == 20u);
  // Slowdown 7 first (ids 6, 13, 20), ties by id.
  BOOST_TEST(html.find("<tr class=\"delayed\" data-id=\"6\"><td>1</td>") != std::string::npos);
  BOOST_TEST(html.find("data-id=\"13\"><td>2</td>") != std::string::npos);
  BOOST_TEST(html.find("data-id=\"20\"><td>3</td>") != std::string::npos);
  BOOST_TEST(html.find("slowdown 7: 7.000 us from the hand-over") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(same_input_same_bytes_and_nothing_fetched) {
  Results r = run(5);
  r.attribution.push_back(message(0, 2e-6, "staircase:node0/socket0(N=2)"));
  const std::string html = page(r);
  BOOST_TEST(html == page(r));
  BOOST_TEST(html.find("http://") == std::string::npos);
  BOOST_TEST(html.find("https://") == std::string::npos);
  BOOST_TEST(html.find("default-src 'none'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_large_run_stays_small) {
  // 2048 ranks of 200 alternating spans each: the Gantt chart draws at most
  // 120 columns per rank, whatever the number of spans.
  Results r;
  r.model = "staircase";
  Platform p = two_nodes();
  p.nodes.count = 64;
  p.nodes.cores_per_socket = 16;
  for (int i = 0; i < 2048; ++i) {
    r.ranks.push_back({.rank = i, .place = {i / 32, i % 32 / 16, i % 16}, .total_time = 1.0});
    for (int k = 0; k < 200; ++k) {
      const double t = k / 200.0;
      const auto kind = k % 2 ? RankActivity::Compute : RankActivity::Mpi;
      r.timeline.add_span(i, kind, Timeline::kCompute, t, r.timeline.next_order(), t + 1 / 200.0);
    }
  }
  r.timeline.sort();
  const std::string html = page(r, p);
  BOOST_TEST(count(html, "<g class=\"row\"") == 2048u);
  BOOST_TEST(html.size() < 12u * 1024 * 1024, html.size());
  BOOST_TEST(html.find("Each of the 120 columns") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
