// flowshare_bench: times concurrent point-to-point flows, one by one, to see
// how the flows that share a node's link divide it (issue 16, item 4).
//
// The experiments come from a CSV file, one line per flow:
//   experiment,src,dst,bytes,start_ms
// (ranks; bytes with units: 256KiB; start_ms: when the sender posts the flow,
// after the experiment's common start). The flows of one experiment are the
// consecutive lines with its name.
//
// Each repetition runs every experiment in file order. Per experiment: every
// receiver posts its receives, then all ranks start at one common instant on
// the machine's clock (mpi_support::common_start: the emulated cluster's
// ranks share one kernel, checked by boot id); a sender posts each of its
// flows at its start_ms (polling the flows it has already posted meanwhile);
// every rank polls its requests with MPI_Testany, sleeping 20 us between
// polls so that idle ranks leave the 2 cores to the others. Per flow:
//   start_s     when the sender posted it (after the common start)
//   end_s       when the receiver's MPI_Irecv completed
//   send_end_s  when the sender's MPI_Isend completed
// The first --warmup repetitions are not recorded (Open MPI opens its TCP
// connections on first use).
//
// Output (rank 0):
//   experiment,repetition,flow,src,dst,src_host,dst_host,bytes,start_ms,start_s,end_s,send_end_s
#include <mpi.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "calibrate/common/command_line.hpp"
#include "calibrate/common/mpi_support.hpp"
#include "sim/core/csv.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"

namespace {

using contend::mpi_support::monotonic_now;

struct Options {
  std::string flows;
  std::string output = "flowshare-raw.csv";
  int repetitions = 5;
  int warmup = 1;
  double margin = 0.05;
};

struct Flow {
  int src = 0;
  int dst = 0;
  std::uint64_t bytes = 0;
  double start_ms = 0;
};

struct Experiment {
  std::string name;
  std::vector<Flow> flows;
};

std::vector<Experiment> read_experiments(const std::string& path, int size) {
  const auto file = contend::CsvFile::read(
      path, {.required = {"experiment", "src", "dst", "bytes", "start_ms"}, .optional = {}, .only_known = true});
  std::vector<Experiment> experiments;
  for (const auto& row : file.rows()) {
    Flow flow;
    flow.src = static_cast<int>(row.count("src"));
    flow.dst = static_cast<int>(row.count("dst"));
    if (flow.src >= size) row.expected("src", "a rank below " + std::to_string(size));
    if (flow.dst >= size) row.expected("dst", "a rank below " + std::to_string(size));
    if (flow.src == flow.dst) row.expected("dst", "a rank other than src");
    flow.bytes = row.size("bytes");
    if (flow.bytes < 1 || flow.bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
      row.expected("bytes", "a size of 1 B to 2 GiB");
    flow.start_ms = row.seconds("start_ms");
    const auto& name = row.text("experiment");
    if (experiments.empty() || experiments.back().name != name) {
      for (const auto& e : experiments)
        if (e.name == name) row.expected("experiment", "the flows of one experiment on consecutive lines");
      experiments.push_back({name, {}});
    }
    experiments.back().flows.push_back(flow);
  }
  if (experiments.empty()) throw contend::Error(path + ": no flows");
  return experiments;
}

// One run of `e` on this rank: {start, end, send_end} per flow (+inf where
// this rank did not see it), to be reduced with MPI_MIN on rank 0.
std::vector<double> run_once(const Experiment& e, int rank, std::vector<char>& send, std::vector<char>& recv,
                             double margin) {
  const double unknown = std::numeric_limits<double>::infinity();
  std::vector<double> times(3 * e.flows.size(), unknown);
  std::vector<MPI_Request> requests;
  std::vector<std::size_t> flow_of;
  std::vector<bool> is_send;
  std::uint64_t offset = 0;
  for (std::size_t f = 0; f < e.flows.size(); ++f) {
    if (e.flows[f].dst != rank) continue;
    requests.emplace_back();
    flow_of.push_back(f);
    is_send.push_back(false);
    MPI_Irecv(recv.data() + offset, static_cast<int>(e.flows[f].bytes), MPI_BYTE, e.flows[f].src, static_cast<int>(f),
              MPI_COMM_WORLD, &requests.back());
    offset += e.flows[f].bytes;
  }
  std::vector<std::size_t> to_send;
  for (std::size_t f = 0; f < e.flows.size(); ++f)
    if (e.flows[f].src == rank) to_send.push_back(f);
  std::stable_sort(to_send.begin(), to_send.end(),
                   [&](std::size_t a, std::size_t b) { return e.flows[a].start_ms < e.flows[b].start_ms; });

  const double t0 = contend::mpi_support::common_start(margin);
  std::size_t next = 0, done = 0;
  while (next < to_send.size() || done < requests.size()) {
    const double now = monotonic_now();
    if (next < to_send.size() && now >= t0 + e.flows[to_send[next]].start_ms / 1000) {
      const auto f = to_send[next++];
      requests.emplace_back();
      flow_of.push_back(f);
      is_send.push_back(true);
      times[3 * f] = monotonic_now() - t0;
      MPI_Isend(send.data(), static_cast<int>(e.flows[f].bytes), MPI_BYTE, e.flows[f].dst, static_cast<int>(f),
                MPI_COMM_WORLD, &requests.back());
      continue;
    }
    int index = MPI_UNDEFINED, flag = 0;
    if (!requests.empty())
      MPI_Testany(static_cast<int>(requests.size()), requests.data(), &index, &flag, MPI_STATUS_IGNORE);
    if (flag && index != MPI_UNDEFINED) {
      const auto i = static_cast<std::size_t>(index);
      times[3 * flow_of[i] + (is_send[i] ? 2 : 1)] = monotonic_now() - t0;
      ++done;
      continue;
    }
    usleep(20);
  }
  return times;
}

std::string format_seconds(double s) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.9g", s);
  return text.data();
}

int run(const Options& o, int rank, int size) {
  const auto experiments = read_experiments(o.flows, size);
  if (!contend::mpi_support::on_one_machine())
    throw contend::Error("flowshare_bench needs every rank on one machine (one clock: the emulated cluster)");
  const auto hosts = contend::mpi_support::allgather_strings(contend::mpi_support::this_host());
  std::uint64_t largest = 1, received = 1;
  for (const auto& e : experiments) {
    std::uint64_t mine = 0;
    for (const auto& f : e.flows) {
      largest = std::max(largest, f.bytes);
      if (f.dst == rank) mine += f.bytes;
    }
    received = std::max(received, mine);
  }
  std::vector<char> send(largest, static_cast<char>(rank)), recv(received, 0);

  std::ostringstream rows;
  for (int r = 0; r < o.warmup + o.repetitions; ++r) {
    for (const auto& e : experiments) {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto mine = run_once(e, rank, send, recv, o.margin);
      contend::mpi_support::sleeping_barrier();
      std::vector<double> all(mine.size());
      MPI_Reduce(mine.data(), all.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
      if (rank != 0 || r < o.warmup) continue;
      for (std::size_t f = 0; f < e.flows.size(); ++f) {
        const auto& flow = e.flows[f];
        rows << e.name << ',' << (r - o.warmup) << ',' << f << ',' << flow.src << ',' << flow.dst << ','
             << hosts[static_cast<std::size_t>(flow.src)] << ',' << hosts[static_cast<std::size_t>(flow.dst)] << ','
             << flow.bytes << ',' << format_seconds(flow.start_ms) << ',' << format_seconds(all[3 * f]) << ','
             << format_seconds(all[3 * f + 1]) << ',' << format_seconds(all[3 * f + 2]) << '\n';
      }
    }
    if (rank == 0) std::cerr << "flowshare_bench: repetition " << (r - o.warmup) << " done\n";
  }
  if (rank == 0) {
    contend::write_file_atomically(o.output, [&](std::ostream& out) {
      out << "# flowshare_bench " << o.flows << ": " << size << " ranks, " << o.repetitions << " repetitions after "
          << o.warmup << " warm-up\n";
      out << "experiment,repetition,flow,src,dst,src_host,dst_host,bytes,start_ms,start_s,end_s,send_end_s\n"
          << rows.str();
    });
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Times concurrent flows one by one: how flows share a node's link", "flowshare_bench"};
  app.add_option("--flows", o.flows, "CSV of the experiments: experiment,src,dst,bytes,start_ms")->required();
  app.add_option("--repetitions", o.repetitions, "Timed repetitions of every experiment")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup", o.warmup, "Untimed repetitions first")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--margin", o.margin, "Seconds between choosing the common start and the start")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("-o,--output", o.output, "Raw CSV to write (rank 0)")->capture_default_str();
  if (const auto status = contend::mpi_support::parse_command_line(app, argc, argv)) return *status;
  return contend::mpi_support::run_mpi_main(argc, argv, "flowshare_bench",
                                            [&](int rank, int size) { return run(o, rank, size); });
}
