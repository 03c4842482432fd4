// MPI benchmark for the flowcut model's conflict calibration (Martinasso &
// Mehaut RR-5910, Sec. 4-6): runs each elementary conflict of conflicts.hpp
// with equal, synchronously started messages, one rank per node, and the
// contention-free reference; writes every flow's time as raw CSV
//   conflict,repetition,flow,src,dst,bytes,seconds
// plus the one-way latency of a 1-byte message (conflict "latency").
//
// Timing: every rank posts its receives, all ranks meet in a barrier, then
// the senders post their sends; a flow's time is measured by its receiver,
// from its own barrier exit to the completion of the receive (MPI_Waitany).
// Barrier exits differ by microseconds; use messages of milliseconds. Ranks
// done with a repetition wait in a sleeping barrier, so that on a machine
// with fewer cores than ranks the idle ones do not steal the measured ones'.
//
// usage: mpirun -np 6 flowcut_bench [--bytes N] [--repetitions R] [-o raw.csv]
// Launch one rank per node (e.g. `--map-by node` with a hostfile); the ranks
// are the nodes 0..5 of conflicts.hpp.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "calibrate/common/command_line.hpp"
#include "calibrate/common/mpi_support.hpp"
#include "calibrate/flowcut/conflicts.hpp"
#include "sim/core/file_io.hpp"

namespace {

using contend::calibrate::ConflictRun;

struct Options {
  long long bytes = 8000000;
  int repetitions = 5;
  std::string output = "flowcut-raw.csv";
};

// One repetition of `run`: returns, for each flow this rank receives, its time.
std::vector<std::pair<int, double>> run_once(const ConflictRun& run, int rank, std::vector<char>& buffer,
                                             long long bytes) {
  std::vector<MPI_Request> requests;
  std::vector<int> flow_of;  // -1 for sends
  const int count = static_cast<int>(bytes);
  for (std::size_t f = 0; f < run.flows.size(); ++f) {
    if (run.flows[f].second != rank) continue;
    requests.emplace_back();
    flow_of.push_back(static_cast<int>(f));
    MPI_Irecv(buffer.data() + bytes * (1 + static_cast<long long>(f)), count, MPI_BYTE, run.flows[f].first,
              static_cast<int>(f), MPI_COMM_WORLD, &requests.back());
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (std::size_t f = 0; f < run.flows.size(); ++f) {
    if (run.flows[f].first != rank) continue;
    requests.emplace_back();
    flow_of.push_back(-1);
    MPI_Isend(buffer.data(), count, MPI_BYTE, run.flows[f].second, static_cast<int>(f), MPI_COMM_WORLD,
              &requests.back());
  }
  std::vector<std::pair<int, double>> times;
  for (std::size_t done = 0; done < requests.size(); ++done) {
    int index = 0;
    MPI_Waitany(static_cast<int>(requests.size()), requests.data(), &index, MPI_STATUS_IGNORE);
    const double now = MPI_Wtime();
    if (flow_of[static_cast<std::size_t>(index)] >= 0)
      times.emplace_back(flow_of[static_cast<std::size_t>(index)], now - start);
  }
  contend::mpi_support::sleeping_barrier();
  return times;
}

// Half the shortest round trip of a 1-byte ping-pong between ranks 0 and 1:
// delays from the scheduler only add to a round trip.
double latency(int rank) {
  char byte = 0;
  constexpr int kRounds = 200;
  std::vector<double> round_trips;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < kRounds; ++i) {
    const double start = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(&byte, 1, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&byte, 1, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(&byte, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&byte, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    round_trips.push_back(MPI_Wtime() - start);
  }
  contend::mpi_support::sleeping_barrier();
  return *std::min_element(round_trips.begin(), round_trips.end()) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Martinasso and Mehaut's conflict benchmark (RR-5910 Sec. 4-6): raw times for contend fit-flowcut",
               "flowcut_bench"};
  app.add_option("--bytes", o.bytes, "Message size of every flow")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--repetitions", o.repetitions, "Timed repetitions of each conflict")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("-o,--output", o.output, "Raw CSV to write (rank 0; '-': standard output)")->capture_default_str();
  app.footer("Example:\n  mpirun -np 6 --map-by node --hostfile hosts flowcut_bench --bytes 8000000 -o raw.csv");
  if (const auto status = contend::mpi_support::parse_command_line(app, argc, argv)) return *status;

  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto& runs = contend::calibrate::conflict_runs();
  int needed = 0;
  for (const auto& run : runs) needed = std::max(needed, run.ranks());
  if (size < needed) {
    // Every rank knows: no abort needed.
    if (rank == 0) std::fprintf(stderr, "flowcut_bench: needs %d ranks (one per node), got %d\n", needed, size);
    MPI_Finalize();
    return 2;
  }
  // One send buffer, then one receive buffer per flow.
  std::vector<char> buffer(static_cast<std::size_t>(o.bytes) * 8, 1);

  // Rank 0's rows, written at the end through write_file_atomically.
  std::ostringstream rows;
  rows << "conflict,repetition,flow,src,dst,bytes,seconds\n";
  char row[256];
  const double one_way = latency(rank);
  std::snprintf(row, sizeof row, "latency,0,0,0,1,1,%.9e\n", one_way);
  rows << row;

  for (const auto& run : runs) {
    for (int rep = -1; rep < o.repetitions; ++rep) {  // repetition -1 warms up
      const auto mine = run_once(run, rank, buffer, o.bytes);
      // Rank 0 collects (flow, seconds) pairs from everyone.
      std::vector<double> flat;
      for (const auto& [flow, seconds] : mine) flat.insert(flat.end(), {static_cast<double>(flow), seconds});
      int n = static_cast<int>(flat.size());
      std::vector<int> counts(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
      MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
      int total = 0;
      for (int r = 0; r < size; ++r) {
        offsets[static_cast<std::size_t>(r)] = total;
        total += counts[static_cast<std::size_t>(r)];
      }
      std::vector<double> all(static_cast<std::size_t>(std::max(total, 1)));
      MPI_Gatherv(flat.data(), n, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (rank != 0 || rep < 0) continue;
      for (int i = 0; i + 1 < total; i += 2) {
        const auto flow = static_cast<std::size_t>(all[static_cast<std::size_t>(i)]);
        std::snprintf(row, sizeof row, "%.*s,%d,%zu,%d,%d,%lld,%.9e\n", static_cast<int>(run.name.size()),
                      run.name.data(), rep, flow, run.flows[flow].first, run.flows[flow].second, o.bytes,
                      all[static_cast<std::size_t>(i) + 1]);
        rows << row;
      }
    }
  }
  int status = 0;
  if (rank == 0) {
    try {
      contend::write_file_atomically(o.output, [&](std::ostream& out) { out << rows.str(); });
    } catch (const std::exception& e) {
      std::fprintf(stderr, "flowcut_bench: error: %s\n", e.what());
      status = 1;
    }
  }
  MPI_Finalize();
  return status;
}
