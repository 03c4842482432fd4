// contend-sweep-mpi: a sweep (docs/sweeps.md) over the ranks of an MPI job,
// under mpirun or srun. Rank 0 reads the sweep file, hands out cases one at
// a time to whichever rank asks (and runs cases itself between requests),
// and writes results.csv; every rank runs its cases as `contend sweep SWEEP
// --run-case K` child processes. Links contend_core and MPI, not SimGrid
// (whose library exports MPI symbols of its own).
#include <fmt/format.h>
#include <mpi.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>

#include "calibrate/common/command_line.hpp"
#include "calibrate/common/mpi_support.hpp"
#include "sim/core/error.hpp"
#include "sim/core/launcher_files.hpp"
#include "sim/core/sweep_output.hpp"
#include "sim/core/sweep_progress.hpp"
#include "sim/core/sweep_rows.hpp"
#include "sim/core/sweep_spec.hpp"
#include "sim/sweep_mpi/case_process.hpp"

namespace {

using contend::sweep_mpi::CaseProcess;

struct Options {
  std::string sweep, output = "results.csv", contend;
  bool quiet = false;
};

constexpr int kRequestTag = 1;  // worker -> 0: "" (ready) or "INDEX\nOUTCOME"
constexpr int kAssignTag = 2;   // 0 -> worker: a case index, or -1 (no more)

std::string receive_text(int source, int tag, MPI_Status& status) {
  MPI_Probe(source, tag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(static_cast<std::size_t>(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

void send_text(const std::string& text, int destination, int tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, destination, tag, MPI_COMM_WORLD);
}

// The sweep as `contend sweep` checks it (the models are the simulator's to
// know): its errors are printed by contend itself.
bool sweep_is_valid(const Options& o) {
  if (access(o.contend.c_str(), X_OK) != 0)
    throw contend::Error("cannot run '" + o.contend + "': " + std::strerror(errno) + " (give --contend PATH)");
  const std::string command = contend::shell_quote(o.contend) + " sweep " + contend::shell_quote(o.sweep) + " --check";
  const int status = std::system(command.c_str());
  return status == 0;
}

// Rank 0: hands out the cases, runs its own share, writes the file.
int lead(const Options& o, int size) {
  contend::SweepSpec spec;
  contend::SweepPlan plan;
  int valid = 0;
  try {
    if (sweep_is_valid(o)) {
      spec = contend::read_sweep(o.sweep);
      std::vector<std::size_t> all(spec.cases.size());
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
      plan = contend::plan_sweep(spec, all, o.output, CONTEND_VERSION);
      valid = 1;
    }
  } catch (const contend::Error& e) {
    std::cerr << "contend-sweep-mpi: error: " << e.what() << "\n";
  }
  MPI_Bcast(&valid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!valid) return 1;

  const std::size_t kept = plan.rows.size();
  contend::SweepOutput results(o.output, spec, std::move(plan.rows));
  contend::SweepProgress progress(plan.pending.size(), !o.quiet && isatty(STDERR_FILENO) != 0);
  const auto begin = std::chrono::steady_clock::now();
  std::size_t next = 0;
  auto record = [&](std::size_t index, const std::string& outcome) {
    auto row = contend::sweep_row(spec.cases[index], plan.hashes[index], outcome);
    progress.case_done(row.ok);
    results.add(std::move(row));
  };
  std::unique_ptr<CaseProcess> own;
  int workers = size - 1;
  while (workers > 0 || own || next < plan.pending.size()) {
    if (!own && next < plan.pending.size()) {
      const auto index = plan.pending[next++];
      try {
        own = std::make_unique<CaseProcess>(o.contend, o.sweep, index);
      } catch (const contend::Error& e) {
        record(index, contend::failed_outcome(e.what(), 0));  // the other ranks still wait for answers
      }
    }
    int pending = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &pending, &status);
    if (pending) {
      const std::string message = receive_text(status.MPI_SOURCE, kRequestTag, status);
      if (const auto newline = message.find('\n'); newline != std::string::npos)
        record(std::stoull(message.substr(0, newline)), message.substr(newline + 1));
      long long assign = -1;
      if (next < plan.pending.size()) {
        assign = static_cast<long long>(plan.pending[next++]);
      } else {
        --workers;
      }
      MPI_Send(&assign, 1, MPI_LONG_LONG, status.MPI_SOURCE, kAssignTag, MPI_COMM_WORLD);
      continue;
    }
    // Wait a little on our own case (or idle) before looking for requests again.
    if (own) {
      if (own->poll(1)) {
        record(own->index(), own->outcome());
        own.reset();
      }
    } else {
      usleep(1000);
    }
  }
  progress.finish();
  results.finish();
  contend::SweepSummary summary{"contend-sweep-mpi",
                                "contend-sweep-mpi",
                                fmt::format("{} rank{}", size, size == 1 ? "" : "s"),
                                spec.cases.size(),
                                plan.pending.size(),
                                kept,
                                o.output,
                                std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count()};
  contend::print_sweep_end(results, summary, o.quiet);
  return 0;
}

// Other ranks: ask for a case, run it, send its outcome back with the next request.
int work(const Options& o) {
  int valid = 0;
  MPI_Bcast(&valid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!valid) return 1;
  std::string report;
  for (;;) {
    send_text(report, 0, kRequestTag);
    long long index = -1;
    MPI_Recv(&index, 1, MPI_LONG_LONG, 0, kAssignTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (index < 0) return 0;
    report = std::to_string(index) + "\n";
    try {
      CaseProcess process(o.contend, o.sweep, static_cast<std::size_t>(index));
      while (!process.poll(-1)) {
      }
      report += process.outcome();
    } catch (const contend::Error& e) {
      report += contend::failed_outcome(e.what(), 0);  // rank 0 waits for this answer
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"contend-sweep-mpi: runs a sweep file's cases over the ranks of an MPI job (docs/sweeps.md)",
               "contend-sweep-mpi"};
  app.add_option("SWEEP", o.sweep, "Sweep file (SWEEP.yaml)")->required();
  app.add_option("-o,--output", o.output, "Results CSV written by rank 0, resumed if it exists")->capture_default_str();
  app.add_option("--contend", o.contend, "The contend executable (default: the one beside this program)");
  app.add_flag("--quiet", o.quiet, "Do not print the summary (warnings and errors are still printed)");
  app.footer("Example:\n  mpirun -np 4 contend-sweep-mpi tests/data/sweep/small.yaml --output results.csv");
  if (const auto status = contend::mpi_support::parse_command_line(app, argc, argv)) return *status;
  return contend::mpi_support::run_mpi_main(argc, argv, "contend-sweep-mpi", [&o](int rank, int size) {
    if (o.contend.empty()) o.contend = contend::sweep_mpi::contend_beside_this_program();
    return rank == 0 ? lead(o, size) : work(o);
  });
}
