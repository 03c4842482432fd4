// A broadcast-heavy program: a root (rotating over the ranks) broadcasts
// blocks of 1 KiB to 2 MiB, every rank works on the block, and a small
// MPI_Reduce gathers a checksum to the root; a barrier ends each round.
// usage: bcast_heavy [ROUNDS=12]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "traces/examples/arguments.hpp"

int main(int argc, char** argv) {
  int rounds = 12;
  const int status = contend_examples::read_arguments(
      argc, argv,
      "usage: bcast_heavy [ROUNDS=12]\n"
      "Rounds of broadcasts of 1 KiB to 2 MiB from a rotating root, each checked with an MPI_Reduce.\n"
      "Example:\n  mpirun -np 4 bcast_heavy 12",
      {{"ROUNDS", &rounds}});
  if (status >= 0) return status;
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int failures = 0;
  for (int round = 0; round < rounds; ++round) {
    const int root = round % size;
    const std::size_t count = std::size_t{128} << (round % 12);  // doubles: 1 KiB .. 2 MiB
    std::vector<double> block(count, rank == root ? round + 1.0 : 0.0);
    MPI_Bcast(block.data(), static_cast<int>(count), MPI_DOUBLE, root, MPI_COMM_WORLD);
    double sum = 0;
    for (double v : block) sum += v * 0.5;
    double total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root && total != 0.5 * (round + 1.0) * static_cast<double>(count) * size) ++failures;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) std::printf("bcast_heavy: %d ranks, %d rounds\n", size, rounds);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
