// Bi-directional multi-pair benchmark: Thune et al., Algorithm 1.
//
// P ranks form P/2 pairs (rank r < P/2 with r + P/2); both ranks of a pair
// post `repeats` messages of `size` bytes to each other, each repetition from
// its own offset of a long buffer (so no message is served from a warm
// cache), then wait for all of them. Sizes grow from --min-size by
// --factor up to --max-size (inclusive: Algorithm 1 stops below max_size;
// we measure max_size too so the named range is the measured one).
//
// One sample: barrier, every rank times its own window (posts + Waitall);
// the sample's time is the slowest rank's window, i.e. when all N competing
// messages of every repetition have arrived. With --sync clock (ranks on one
// machine, e.g. the emulated cluster) every window starts at one common
// instant instead of at each rank's barrier exit, and the sample's time is
// the last rank's end from that instant: the barrier's exit skew (ms with
// many ranks on few cores) then stays out of the intercept. Written per sample, in seconds,
// to the raw CSV that `contend fit-multipair` reads:
//   level,direction,P,N,size,repeats,sample,time_s
// N is Thune's count of competing receivers per socket (intra/inter-socket)
// or per node (inter-node): N = P for intra_socket, N = P/2 otherwise; with
// --unidirectional only ranks < P/2 send, which gives N = P/2 receivers
// (intra_socket BW_SP is measured so, with P = 2).
//
// The ranks' actual placement (host, CPU package via hwloc) must match the
// requested --level, or the run stops before measuring.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "calibrate/common/command_line.hpp"
#include "calibrate/common/mpi_support.hpp"
#include "calibrate/common/placement.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/units.hpp"

namespace {

using contend::calibrate::RankPlace;

constexpr double kStartMargin = 0.02;  // seconds from the barrier to the common start

struct Options {
  std::string level;
  std::string min_size = "64KiB", max_size = "1MiB";
  double factor = 2;
  int repeats = 4;
  int samples = 5;
  int warmup = 1;
  bool unidirectional = false;
  std::string output;
  std::string sync = "barrier";
};

struct Run {
  std::string level;
  bool unidirectional;
  bool common_clock;
  int ranks;
  int repeats;
  std::vector<std::uint64_t> sizes;
};

// N of Thune's Table I for this run (see the file comment).
int competing_receivers(const Run& run) {
  if (run.level == "intra_socket" && !run.unidirectional) return run.ranks;
  return run.ranks / 2;
}

// One window of Algorithm 1 on this rank; returns its elapsed time.
double one_window(const Run& run, int rank, std::uint64_t size, std::vector<char>& send, std::vector<char>& recv) {
  const int half = run.ranks / 2;
  const bool first_half = rank < half;
  const int partner = first_half ? rank + half : rank - half;
  const bool sends = first_half || !run.unidirectional;
  const bool receives = !first_half || !run.unidirectional;
  std::vector<MPI_Request> requests;
  requests.reserve(2 * static_cast<std::size_t>(run.repeats));
  const int count = static_cast<int>(size);

  MPI_Barrier(MPI_COMM_WORLD);
  const double begin =
      run.common_clock ? contend::mpi_support::common_start(kStartMargin) : contend::mpi_support::monotonic_now();
  for (int i = 0; i < run.repeats; ++i) {
    char* s = send.data() + static_cast<std::size_t>(i) * size;
    char* r = recv.data() + static_cast<std::size_t>(i) * size;
    MPI_Request q;
    // Algorithm 1: the first half posts Isend then Irecv, the second half Irecv then Isend.
    if (first_half) {
      if (sends) {
        MPI_Isend(s, count, MPI_BYTE, partner, i, MPI_COMM_WORLD, &q);
        requests.push_back(q);
      }
      if (receives) {
        MPI_Irecv(r, count, MPI_BYTE, partner, i, MPI_COMM_WORLD, &q);
        requests.push_back(q);
      }
    } else {
      if (receives) {
        MPI_Irecv(r, count, MPI_BYTE, partner, i, MPI_COMM_WORLD, &q);
        requests.push_back(q);
      }
      if (sends) {
        MPI_Isend(s, count, MPI_BYTE, partner, i, MPI_COMM_WORLD, &q);
        requests.push_back(q);
      }
    }
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return contend::mpi_support::monotonic_now() - begin;
}

void write_header(std::ostream& out, const Run& run, const std::vector<RankPlace>& places) {
  out << "# Thune et al. Algorithm 1 (bi-directional multi-pair), contend calibrate/multipair\n";
  out << "# placement:";
  for (std::size_t r = 0; r < places.size(); ++r) {
    out << ' ' << r << '@' << places[r].host << '/' << places[r].package;
  }
  out << "\n# time: slowest rank's window of " << run.repeats << " repetitions, seconds, from "
      << (run.common_clock ? "a common start on one clock" : "each rank's barrier exit") << "\n";
  out << "level,direction,P,N,size,repeats,sample,time_s\n";
}

int run_benchmark(const Options& o, int rank, int size) {
  if (o.sync != "clock" && o.sync != "barrier")
    throw contend::Error("--sync: expected 'clock' or 'barrier', got '" + o.sync + "'");
  Run run{o.level, o.unidirectional, o.sync == "clock",
          size,    o.repeats,        contend::mpi_support::geometric_sizes(o.min_size, o.max_size, o.factor)};
  if (size < 2 || size % 2 != 0)
    throw contend::Error("needs an even number of ranks (P/2 pairs), got " + std::to_string(size));
  if (o.repeats < 1 || o.samples < 1 || o.warmup < 0)
    throw contend::Error("--repeats and --samples must be at least 1");

  if (run.common_clock && !contend::mpi_support::on_one_machine()) {
    throw contend::Error("--sync clock needs every rank on one machine (one clock); use --sync barrier");
  }
  const auto places = contend::calibrate::gather_places(contend::calibrate::this_process_place());
  if (auto why = contend::calibrate::check_level(o.level, places)) {
    if (rank == 0) std::cerr << "multipair_bench: error: refusing to measure: " << *why << "\n";
    return 1;
  }

  const std::uint64_t longest = run.sizes.back() * static_cast<std::uint64_t>(o.repeats);
  std::vector<char> send(longest, static_cast<char>(rank)), recv(longest, 0);
  const int n = competing_receivers(run);
  std::vector<std::string> rows;
  for (const auto bytes : run.sizes) {
    for (int w = 0; w < o.warmup; ++w) one_window(run, rank, bytes, send, recv);
    for (int sample = 0; sample < o.samples; ++sample) {
      double mine = one_window(run, rank, bytes, send, recv), slowest = 0;
      MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      if (rank != 0) continue;
      char line[256];
      std::snprintf(line, sizeof line, "%s,%s,%d,%d,%llu,%d,%d,%.9g", o.level.c_str(), o.unidirectional ? "uni" : "bi",
                    size, n, static_cast<unsigned long long>(bytes), o.repeats, sample, slowest);
      rows.emplace_back(line);
      std::fprintf(stderr, "multipair_bench: %s N=%d size=%llu sample %d: %.6f s\n", o.level.c_str(), n,
                   static_cast<unsigned long long>(bytes), sample, slowest);
    }
  }
  if (rank == 0) {
    contend::write_file_atomically(o.output, [&](std::ostream& out) {
      write_header(out, run, places);
      for (const auto& row : rows) out << row << '\n';
    });
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "Thune et al.'s bi-directional multi-pair benchmark (Algorithm 1): raw timings for contend fit-multipair",
      "multipair_bench"};
  app.add_option("--level", o.level, "intra_socket | inter_socket | inter_node (the placement is checked)")->required();
  app.add_option("--min-size", o.min_size, "First message size (rendezvous regime)")->capture_default_str();
  app.add_option("--max-size", o.max_size, "Last message size (inclusive)")->capture_default_str();
  app.add_option("--factor", o.factor, "Size growth factor")->capture_default_str();
  app.add_option("--repeats", o.repeats, "Messages per pair and direction in one window (num_repeats)")
      ->capture_default_str();
  app.add_option("--samples", o.samples, "Timed windows per size")->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed windows per size")->capture_default_str();
  app.add_flag("--unidirectional", o.unidirectional, "Only ranks < P/2 send (intra-socket BW_SP with P = 2)");
  app.add_option("-o,--output", o.output, "Raw CSV to write (rank 0)")->required();
  app.add_option("--sync", o.sync, "barrier (any cluster) | clock (common start; all ranks on one machine)")
      ->capture_default_str();
  if (const auto status = contend::mpi_support::parse_command_line(app, argc, argv)) return *status;

  return contend::mpi_support::run_mpi_main(argc, argv, "multipair_bench",
                                            [&o](int rank, int size) { return run_benchmark(o, rank, size); });
}
