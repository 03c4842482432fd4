/* Call rate of a 2-rank ping of 8-byte nonblocking messages (Irecv, Isend,
 * Waitall per iteration), for bench/tracer_overhead.sh: prints calls per
 * second and the process's peak memory, with or without libcontend-trace.so. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int n = atoi(argv[1]);
  char buf[64];
  double t0 = MPI_Wtime();
  for (int i = 0; i < n; ++i) {
    MPI_Request q[2];
    MPI_Irecv(buf, 8, MPI_CHAR, 1 - r, 0, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(buf, 8, MPI_CHAR, 1 - r, 0, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  }
  double t = MPI_Wtime() - t0;
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  printf("rank %d: %d iterations (%d calls) in %.3f s, %.0f calls/s, max RSS %ld KiB\n", r, n, 3 * n, t, 3 * n / t,
         u.ru_maxrss);
  MPI_Finalize();
  return 0;
}
