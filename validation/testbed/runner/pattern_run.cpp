// pattern_run: runs a contend pattern file for real under MPI and times every
// rank, as `contend simulate` predicts it (its per-rank total_time).
// Exchanges follow Algorithm 2 (exchange.hpp); `bcast` steps call MPI_Bcast
// and `barrier` steps MPI_Barrier.
//
// Each repetition: MPI_Barrier; then every rank starts the pattern at one
// common instant and its time is when it finished its last step, measured
// from that instant.
//   --sync clock    (default) rank 0 picks the instant (now + --margin) and
//                   broadcasts it; every rank sleeps until then on
//                   CLOCK_MONOTONIC. Needs one clock for all ranks: true on
//                   the emulated cluster (one kernel), checked via boot_id.
//                   Removes the barrier's exit skew (milliseconds when many
//                   ranks share 2 cores).
//   --sync barrier  every rank times from its own barrier exit (any cluster).
// A rank that wakes after the instant (CPU busy) keeps the lost time in its
// measurement; the raw CSV records how late it began (`late`).
// The first --warmup repetitions are not recorded: Open MPI opens its TCP
// connections on first use.
//
// Besides its time, each rank records when its last send and its last
// receive completed (same clock, same instant: the send and receive sides
// contend's --per-rank gives as send_time_s and recv_time_s; 0 when the rank
// has none). A `bcast` step's end counts as both (MPI_Bcast does not say
// which ranks forwarded); a `barrier` as neither.
//
// Output (rank 0): repetition,rank,host,time_s,late_s,send_time_s,recv_time_s   (seconds)
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "calibrate/common/command_line.hpp"
#include "calibrate/common/mpi_support.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "validation/testbed/runner/exchange.hpp"
#include "validation/testbed/runner/runner_steps.hpp"

namespace {

using contend::mpi_support::monotonic_now;

struct Options {
  std::string pattern, output, sync = "clock";
  int repetitions = 5;
  int warmup = 1;
  double margin = 0.05;
};

std::string format_seconds(double s) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.9g", s);
  return text.data();
}

// This rank's part of one step, ready to run many times.
using RankStep = std::variant<contend::testbed::RankExchange, contend::testbed::Bcast, contend::testbed::Barrier>;

// Runs one step; returns when this rank's last send and receive in it completed.
struct StepRunner {
  std::vector<char>& send;
  std::vector<char>& recv;
  contend::testbed::Completions operator()(const contend::testbed::RankExchange& e) const {
    return e.run(send.data(), recv.data());
  }
  contend::testbed::Completions operator()(const contend::testbed::Bcast& b) const {
    MPI_Bcast(send.data(), static_cast<int>(b.bytes), MPI_BYTE, b.root, MPI_COMM_WORLD);
    const double end = monotonic_now();
    return {end, end};
  }
  contend::testbed::Completions operator()(const contend::testbed::Barrier&) const {
    MPI_Barrier(MPI_COMM_WORLD);
    return {};
  }
};

// One repetition on this rank, in seconds from the common start (late: how
// late the rank began; send, recv: its last send and receive completions, 0
// when none).
struct RepetitionTimes {
  double time = 0, late = 0, send = 0, recv = 0;
};

RepetitionTimes one_repetition(const Options& o, const std::vector<RankStep>& steps, std::vector<char>& send,
                               std::vector<char>& recv) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = o.sync == "clock" ? contend::mpi_support::common_start(o.margin) : monotonic_now();
  RepetitionTimes times;
  times.late = monotonic_now() - start;
  for (const auto& step : steps) {
    const auto done = std::visit(StepRunner{send, recv}, step);
    if (done.last_send) times.send = *done.last_send - start;
    if (done.last_recv) times.recv = *done.last_recv - start;
  }
  times.time = monotonic_now() - start;
  return times;
}

// Steps as this rank runs them, and the buffer sizes they need.
std::vector<RankStep> prepare(const contend::testbed::RealPattern& pattern, int rank, std::uint64_t& send_bytes,
                              std::uint64_t& recv_bytes) {
  std::vector<RankStep> steps;
  send_bytes = recv_bytes = 1;
  for (const auto& step : pattern.steps) {
    if (const auto* exchange = std::get_if<contend::testbed::Exchange>(&step)) {
      contend::testbed::RankExchange mine(*exchange, rank);
      send_bytes = std::max(send_bytes, mine.send_bytes());
      recv_bytes = std::max(recv_bytes, mine.recv_bytes());
      steps.emplace_back(std::move(mine));
    } else if (const auto* bcast = std::get_if<contend::testbed::Bcast>(&step)) {
      send_bytes = std::max(send_bytes, bcast->bytes);
      steps.emplace_back(*bcast);
    } else {
      steps.emplace_back(contend::testbed::Barrier{});
    }
  }
  return steps;
}

int run(const Options& o, int rank, int size) {
  const auto pattern = contend::testbed::read_real_pattern(o.pattern);
  if (pattern.ranks != size) {
    throw contend::Error(o.pattern + ": the pattern has " + std::to_string(pattern.ranks) + " ranks but MPI runs " +
                         std::to_string(size) + " (mpirun -np " + std::to_string(pattern.ranks) + ")");
  }
  if (o.sync != "clock" && o.sync != "barrier")
    throw contend::Error("--sync: expected 'clock' or 'barrier', got '" + o.sync + "'");
  if (o.sync == "clock" && !contend::mpi_support::on_one_machine()) {
    throw contend::Error("--sync clock needs every rank on one machine (one clock); use --sync barrier");
  }
  const auto hosts = contend::mpi_support::allgather_strings(contend::mpi_support::this_host());

  std::uint64_t send_bytes = 0, recv_bytes = 0;
  const auto steps = prepare(pattern, rank, send_bytes, recv_bytes);
  std::vector<char> send(send_bytes, static_cast<char>(rank)), recv(recv_bytes, 0);

  std::ostringstream rows;
  for (int r = 0; r < o.warmup + o.repetitions; ++r) {
    const auto times = one_repetition(o, steps, send, recv);
    constexpr std::size_t kFields = 4;
    std::array<double, kFields> mine{times.time, times.late, times.send, times.recv};
    std::vector<double> all(kFields * static_cast<std::size_t>(size));
    MPI_Gather(mine.data(), kFields, MPI_DOUBLE, all.data(), kFields, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank != 0 || r < o.warmup) continue;
    for (int k = 0; k < size; ++k) {
      const auto* theirs = all.data() + kFields * static_cast<std::size_t>(k);
      rows << (r - o.warmup) << ',' << k << ',' << hosts[static_cast<std::size_t>(k)];
      for (std::size_t f = 0; f < kFields; ++f) rows << ',' << format_seconds(theirs[f]);
      rows << '\n';
    }
    std::cerr << "pattern_run: repetition " << (r - o.warmup) << " done\n";
  }
  if (rank == 0) {
    contend::write_file_atomically(o.output, [&](std::ostream& out) {
      out << "# pattern_run " << o.pattern << ": " << size << " ranks, " << pattern.steps.size() << " steps, sync "
          << o.sync << ", " << o.repetitions << " repetitions after " << o.warmup << " warm-up\n";
      out << "repetition,rank,host,time_s,late_s,send_time_s,recv_time_s\n" << rows.str();
    });
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Runs a contend pattern file for real under MPI and times every rank", "pattern_run"};
  app.add_option("--pattern", o.pattern, "Pattern file (contend's format: exchanges, @start offsets, '---')")
      ->required();
  app.add_option("-o,--output", o.output, "Raw CSV: repetition,rank,host,time_s,late_s,send_time_s,recv_time_s")
      ->required();
  app.add_option("--repetitions", o.repetitions, "Timed repetitions")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup", o.warmup, "Untimed repetitions first")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--sync", o.sync, "clock (common start on one machine's clock) | barrier")->capture_default_str();
  app.add_option("--margin", o.margin, "Seconds between the barrier and the common start (--sync clock)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  if (const auto status = contend::mpi_support::parse_command_line(app, argc, argv)) return *status;
  return contend::mpi_support::run_mpi_main(argc, argv, "pattern_run",
                                            [&o](int rank, int size) { return run(o, rank, size); });
}
