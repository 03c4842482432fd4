// Writes the HTML report of a synthetic run to FILE, for the browser test
// (tests/html/check_html_report.py): what no shipped model records yet or a
// small run does not show. 48 ranks on 2 nodes x 2 sockets x 16 cores, each
// computing, then waiting in a Waitall for a message from its left
// neighbour (arrows: 48 messages); three resources with loads, names with
// characters HTML must escape (a "<script>" among them); attribution with
// staircase groups at N = 1..4.
// usage: html_report_sample FILE
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>

#include "sim/core/html_report.hpp"

using namespace contend;

namespace {

constexpr int kRanks = 48;
constexpr double kUs = 1e-6;

Platform sample_platform() {
  Platform p;
  p.file = "synthetic";
  p.name = "two <nodes> & more";
  p.nodes = {.count = 2, .sockets = 2, .cores_per_socket = 16, .core_speed = 1e9};
  p.hosts = {"alpha", "beta"};
  p.levels[0].bandwidth = BandwidthTable::from_points({{1, 10e9}, {2, 16e9}, {4, 18e9}, {16, 20e9}});
  p.levels[1].bandwidth = BandwidthTable::from_points({{1, 6e9}, {4, 9e9}});
  p.levels[2].bandwidth = BandwidthTable::constant(12.5e9);
  return p;
}

void add_rank(Results& r, int rank) {
  Timeline& t = r.timeline;
  const double computed = (1 + rank % 7) * kUs, blocked = computed + kUs, done = 12 * kUs + rank * 0.1 * kUs;
  const std::uint64_t compute = t.next_order(), isend = t.next_order(), waitall = t.next_order(),
                      waiting = t.next_order();
  t.add_span(rank, RankActivity::Compute, Timeline::kCompute, 0, compute, computed);
  t.add_span(rank, RankActivity::Mpi, Timeline::kIsend, computed, isend, computed);
  t.add_span(rank, RankActivity::Waiting, Timeline::kWaiting, blocked, waiting, done);
  t.add_span(rank, RankActivity::Mpi, Timeline::kWaitall, computed, waitall, done);
  const int left = (rank + kRanks - 1) % kRanks;
  t.add_message({.src = left,
                 .dst = rank,
                 .bytes = 65536,
                 .level = left / 32 == rank / 32 ? Level::IntraSocket : Level::InterNode,
                 .post = (1 + left % 7) * kUs,
                 .start = blocked,
                 .arrived = done,
                 .received = done});
  r.ranks.push_back({.rank = rank,
                     .place = {rank / 32, rank % 32 / 16, rank % 16},
                     .recv_time = done,
                     .send_time = done,
                     .total_time = done});
  MessageAttribution m{.id = static_cast<std::uint64_t>(rank),
                       .src = left,
                       .dst = rank,
                       .bytes = 65536,
                       .post = (1 + left % 7) * kUs,
                       .start = blocked,
                       .end = done,
                       .contention_free = 2 * kUs,
                       .intervals = {}};
  m.intervals.push_back({blocked, blocked + kUs, "latency", 0, "route latency"});
  m.intervals.push_back({blocked + kUs, done, "staircase:node0/socket0(N=" + std::to_string(1 + rank % 4) + ")",
                         65536 / (done - blocked - kUs), "BW_MP(N)/N <shared> & split"});
  r.attribution.push_back(m);
}

Results sample_run() {
  Results r;
  r.model = "staircase";
  r.platform = "two <nodes> & more";
  r.workload = "synthetic <script>alert(1)</script>";
  r.mapping = "block";
  r.attributed = true;
  for (int rank = 0; rank < kRanks; ++rank) add_rank(r, rank);
  Timeline& t = r.timeline;
  const auto nic = t.add_resource({"nic:node0/out <&>", "flows"});
  const auto group = t.add_resource({"staircase:node0/socket1", "flows"});
  const auto link = t.add_resource({"link:<script>alert(2)</script>", "fraction of bandwidth"});
  for (int k = 0; k < 12; ++k) {
    t.add_load(nic, k * kUs, k % 3);
    t.add_load(group, k * kUs, 1 + k % 4);
    t.add_load(link, k * kUs, 0.25 * (k % 5));
  }
  t.sort();
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: html_report_sample FILE\n");
    return 2;
  }
  try {
    const Platform platform = sample_platform();
    const Results results = sample_run();
    std::ofstream out(argv[1]);
    write_html_report(out, {results, platform, {{"model", "staircase"}, {"note", "a <synthetic> run"}}});
    return out ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "html_report_sample: %s\n", e.what());
    return 1;
  }
}
