/* Point-to-point MPI program for the SimGrid compatibility test: compiled
 * with smpicc, traced with `smpirun -trace-ti`, the trace is replayed by
 * SimGrid and by contend on the same platform (tests/traces/simgrid_compat.sh).
 * Eager and rendezvous sizes, blocking and nonblocking calls, test, wait,
 * waitall, and computation between them. */
#include <stdlib.h>

#include "tests/traces/mpi_program.h"

int main(int argc, char** argv) {
  int rank = 0, size = 1;
  start_mpi(&argc, &argv, &rank, &size);
  const int counts[] = {16, 1024, 8192, 131072, 524288}; /* doubles: 128 B .. 4 MiB */
  double* out = calloc(524288, sizeof(double));
  double* in = calloc(524288, sizeof(double));
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int k = 0; k < 5; ++k) {
    MPI_Request req[2];
    work(200000 * (rank + 1));
    MPI_Irecv(in, counts[k], MPI_DOUBLE, prev, k, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, counts[k], MPI_DOUBLE, next, k, MPI_COMM_WORLD, &req[1]);
    int flag = 0;
    MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    /* pairs 0-1, 2-3: blocking exchange, then one nonblocking message each way */
    const int partner = rank ^ 1;
    if (partner < size) {
      if (rank % 2 == 0) {
        MPI_Send(out, counts[k], MPI_DOUBLE, partner, 100 + k, MPI_COMM_WORLD);
        MPI_Recv(in, counts[4 - k], MPI_INT, partner, 200 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(in, counts[k], MPI_DOUBLE, partner, 100 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        work(100000);
        MPI_Send(out, counts[4 - k], MPI_INT, partner, 200 + k, MPI_COMM_WORLD);
      }
      MPI_Request r;
      if (rank % 2 == 0) {
        MPI_Isend(out, 1000 * (k + 1), MPI_CHAR, partner, 300, MPI_COMM_WORLD, &r);
      } else {
        MPI_Irecv(in, 1000 * (k + 1), MPI_CHAR, partner, 300, MPI_COMM_WORLD, &r);
      }
      work(50000);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
