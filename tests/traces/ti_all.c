/* Every MPI call SimGrid's TI tracer records, for the SimGrid compatibility
 * test (tests/traces/simgrid_compat.sh ti_all): point-to-point calls, test,
 * wait, waitall, every collective, and a communicator split and dup (SimGrid
 * does not record those: the collectives on them appear as world ones).
 * Runs on 4 ranks. */
#include <stdio.h>

#include "tests/traces/mpi_program.h"

static double buf[16384];

int main(int argc, char** argv) {
  int r = 0, n = 1;
  start_mpi(&argc, &argv, &r, &n);
  if (n != 4) {
    if (r == 0) fprintf(stderr, "ti_all: run on 4 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Request q[2];
  work(1000000);
  const int peer = (r + 1) % n, from = (r + n - 1) % n;
  MPI_Isend(buf, 4096, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, &q[0]);
  MPI_Irecv(buf + 4096, 4096, MPI_DOUBLE, from, 7, MPI_COMM_WORLD, &q[1]);
  int flag = 0;
  MPI_Test(&q[1], &flag, MPI_STATUS_IGNORE);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  if (r == 0) MPI_Send(buf, 100, MPI_INT, 1, 3, MPI_COMM_WORLD);
  if (r == 1) MPI_Recv(buf, 100, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Request q1;
  if (r == 0) {
    MPI_Irecv(buf, 10, MPI_CHAR, 1, 5, MPI_COMM_WORLD, &q1);
    MPI_Wait(&q1, MPI_STATUS_IGNORE);
  } else if (r == 1) {
    MPI_Isend(buf, 10, MPI_CHAR, 0, 5, MPI_COMM_WORLD, &q1);
    MPI_Wait(&q1, MPI_STATUS_IGNORE);
  }
  for (int k = 0; k < 3; ++k) {
    work(200000);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(buf, 1000 << k, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Allreduce(buf, buf + 8192, 1000 << k, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(buf, buf + 8192, 1000 << k, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
    MPI_Alltoall(buf, 100 << k, MPI_DOUBLE, buf + 8192, 100 << k, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Gather(buf, 100 << k, MPI_DOUBLE, buf + 8192, 100 << k, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Allgather(buf, 100 << k, MPI_DOUBLE, buf + 8192, 100 << k, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Scatter(buf, 100 << k, MPI_DOUBLE, buf + 8192, 100 << k, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  int counts[4] = {100, 200, 300, 400}, displs[4] = {0, 100, 300, 600};
  MPI_Gatherv(buf, counts[r], MPI_DOUBLE, buf + 8192, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allgatherv(buf, counts[r], MPI_DOUBLE, buf + 8192, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Scatterv(buf, counts, displs, MPI_DOUBLE, buf + 8192, counts[r], MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int sc[4], sd[4];
  for (int i = 0; i < 4; ++i) {
    sc[i] = counts[r];
    sd[i] = i * counts[r];
  }
  MPI_Alltoallv(buf, sc, sd, MPI_DOUBLE, buf + 8192, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Reduce_scatter(buf, buf + 8192, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm sub, dup;
  MPI_Comm_split(MPI_COMM_WORLD, 0, r, &sub); /* one color: the same members as the world */
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Allreduce(buf, buf + 8192, 500, MPI_DOUBLE, MPI_SUM, sub);
  MPI_Barrier(dup);
  MPI_Comm_free(&sub);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
