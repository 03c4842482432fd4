// Transport buffering benchmark: how many bytes of a message the transport
// holds (for Open MPI's TCP BTL: the socket buffers) when the sender's MPI
// call completes. Two ranks; rank 0 sends one message of `size` bytes to
// rank 1, both from one common start:
//   - rank 0 times the completion of its send (MPI_Isend + MPI_Wait, or
//     MPI_Send with --call send) on its own clock;
//   - rank 1 times the completion of the matching MPI_Recv, posted at the
//     start: the one-way time of the message.
// With --sync clock (both ranks on one machine: the emulated cluster) the
// start is one instant of CLOCK_MONOTONIC (calibrate/common); with --sync
// barrier each rank times from its own barrier exit. The bytes still
// undelivered when the send completed are bw_eff * (t_recv - t_send)
// (`contend fit-transport`, calibrate/transport/README.md). One row per
// sample to the raw CSV:
//   level,call,size,sample,send_s,recv_s
// The ranks' placement (host, CPU package via hwloc) must match --level.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "calibrate/common/command_line.hpp"
#include "calibrate/common/mpi_support.hpp"
#include "calibrate/common/placement.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"

namespace {

constexpr double kStartMargin = 0.02;  // seconds from the barrier to the common start

struct Options {
  std::string level;
  std::string min_size = "64KiB", max_size = "8MiB";
  double factor = 2;
  int samples = 5;
  int warmup = 1;
  std::string call = "isend";
  std::string sync = "barrier";
  std::string output;
};

struct Timing {
  double send = 0, recv = 0;  // seconds from the start
};

// One message from rank 0 to rank 1; rank 0 gets both ranks' times.
Timing one_message(const Options& o, int rank, std::uint64_t size, std::vector<char>& buffer) {
  const int count = static_cast<int>(size);
  MPI_Barrier(MPI_COMM_WORLD);
  const double begin =
      o.sync == "clock" ? contend::mpi_support::common_start(kStartMargin) : contend::mpi_support::monotonic_now();
  double mine = 0;
  if (rank == 0) {
    if (o.call == "send") {
      MPI_Send(buffer.data(), count, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    } else {
      MPI_Request request;
      MPI_Isend(buffer.data(), count, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    mine = contend::mpi_support::monotonic_now() - begin;
  } else if (rank == 1) {
    MPI_Recv(buffer.data(), count, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    mine = contend::mpi_support::monotonic_now() - begin;
  }
  Timing t;
  if (rank == 0) {
    t.send = mine;
    MPI_Recv(&t.recv, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Send(&mine, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
  }
  return t;
}

void write_header(std::ostream& out, const Options& o, const std::vector<contend::calibrate::RankPlace>& places) {
  out << "# transport buffering (contend calibrate/transport): rank 0 sends one message to rank 1\n";
  out << "# placement:";
  for (std::size_t r = 0; r < places.size(); ++r) out << ' ' << r << '@' << places[r].host << '/' << places[r].package;
  out << "\n# send_s: completion of rank 0's " << (o.call == "send" ? "MPI_Send" : "MPI_Isend + MPI_Wait")
      << "; recv_s: completion of rank 1's MPI_Recv; seconds from "
      << (o.sync == "clock" ? "a common start on one clock" : "each rank's barrier exit") << "\n";
  out << "level,call,size,sample,send_s,recv_s\n";
}

int run_benchmark(const Options& o, int rank, int ranks) {
  if (o.sync != "clock" && o.sync != "barrier")
    throw contend::Error("--sync: expected 'clock' or 'barrier', got '" + o.sync + "'");
  if (o.call != "isend" && o.call != "send")
    throw contend::Error("--call: expected 'isend' or 'send', got '" + o.call + "'");
  if (ranks != 2) throw contend::Error("needs exactly 2 ranks, got " + std::to_string(ranks));
  if (o.samples < 1 || o.warmup < 0) throw contend::Error("--samples must be at least 1, --warmup at least 0");
  const auto sizes = contend::mpi_support::geometric_sizes(o.min_size, o.max_size, o.factor);
  if (o.sync == "clock" && !contend::mpi_support::on_one_machine()) {
    throw contend::Error("--sync clock needs both ranks on one machine (one clock); use --sync barrier");
  }
  const auto places = contend::calibrate::gather_places(contend::calibrate::this_process_place());
  if (auto why = contend::calibrate::check_level(o.level, places)) {
    if (rank == 0) std::cerr << "transport_bench: error: refusing to measure: " << *why << "\n";
    return 1;
  }

  std::vector<char> buffer(sizes.back(), static_cast<char>(rank));
  std::vector<std::string> rows;
  for (const auto bytes : sizes) {
    for (int w = 0; w < o.warmup; ++w) one_message(o, rank, bytes, buffer);
    for (int sample = 0; sample < o.samples; ++sample) {
      const Timing t = one_message(o, rank, bytes, buffer);
      if (rank != 0) continue;
      char line[256];
      std::snprintf(line, sizeof line, "%s,%s,%llu,%d,%.9g,%.9g", o.level.c_str(), o.call.c_str(),
                    static_cast<unsigned long long>(bytes), sample, t.send, t.recv);
      rows.emplace_back(line);
      std::fprintf(stderr, "transport_bench: %s size=%llu sample %d: send %.6f s, recv %.6f s\n", o.level.c_str(),
                   static_cast<unsigned long long>(bytes), sample, t.send, t.recv);
    }
  }
  if (rank == 0) {
    contend::write_file_atomically(o.output, [&](std::ostream& out) {
      write_header(out, o, places);
      for (const auto& row : rows) out << row << '\n';
    });
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Transport buffering: send completion against receive completion, for contend fit-transport",
               "transport_bench"};
  app.add_option("--level", o.level, "intra_socket | inter_socket | inter_node (the placement is checked)")->required();
  app.add_option("--min-size", o.min_size, "First message size")->capture_default_str();
  app.add_option("--max-size", o.max_size, "Last message size (inclusive)")->capture_default_str();
  app.add_option("--factor", o.factor, "Size growth factor")->capture_default_str();
  app.add_option("--samples", o.samples, "Timed messages per size")->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed messages per size")->capture_default_str();
  app.add_option("--call", o.call, "isend (MPI_Isend + MPI_Wait) | send (MPI_Send)")->capture_default_str();
  app.add_option("--sync", o.sync, "barrier (any cluster) | clock (common start; both ranks on one machine)")
      ->capture_default_str();
  app.add_option("-o,--output", o.output, "Raw CSV to write (rank 0)")->required();
  if (const auto status = contend::mpi_support::parse_command_line(app, argc, argv)) return *status;

  return contend::mpi_support::run_mpi_main(argc, argv, "transport_bench",
                                            [&o](int rank, int size) { return run_benchmark(o, rank, size); });
}
