#include "calibrate/common/mpi_support.hpp"

#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "sim/core/error.hpp"

namespace contend::mpi_support {

double monotonic_now() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void sleep_until(double when) {
  timespec t{};
  t.tv_sec = static_cast<time_t>(std::floor(when));
  t.tv_nsec = static_cast<long>((when - std::floor(when)) * 1e9);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, nullptr) != 0) {
  }
}

std::string this_host() {
  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  return host.data();
}

std::vector<std::string> allgather_strings(const std::string& mine) {
  constexpr int kLength = 64;
  std::array<char, kLength> wire{};
  std::strncpy(wire.data(), mine.c_str(), kLength - 1);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<std::array<char, kLength>> all(static_cast<std::size_t>(size));
  MPI_Allgather(wire.data(), kLength, MPI_CHAR, all.data(), kLength, MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (const auto& a : all) out.emplace_back(a.data());
  return out;
}

bool on_one_machine() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  const auto ids = allgather_strings(id);
  return std::all_of(ids.begin(), ids.end(),
                     [&](const std::string& other) { return !other.empty() && other == ids.front(); });
}

void sleeping_barrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  int done = 0;
  while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) usleep(50);
}

double common_start(double margin) {
  double start = monotonic_now() + margin;
  MPI_Bcast(&start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  sleep_until(start);
  return start;
}

int run_mpi_main(int& argc, char**& argv, const char* program, const std::function<int(int rank, int size)>& body) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 0;
  try {
    status = body(rank, size);
  } catch (const contend::Error& e) {
    if (rank == 0) std::cerr << program << ": error: " << e.what() << "\n";
    status = 1;
  } catch (const std::exception& e) {
    std::cerr << program << ": error on rank " << rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}

}  // namespace contend::mpi_support
