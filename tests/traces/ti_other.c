/* The calls SimGrid 3.32's TI tracer records under other names (sendRecv,
 * Ssend, bsend, ISsend, waitAny, testany, testall) and that its own replay
 * does not all accept: contend must replay every one of them
 * (tests/traces/simgrid_compat.sh ti_other none). Runs on 4 ranks. */
#include <stdlib.h>

#include "tests/traces/mpi_program.h"

int main(int argc, char** argv) {
  int r = 0, n = 1;
  start_mpi(&argc, &argv, &r, &n);
  double a[1000] = {0}, b[1000];
  MPI_Sendrecv(a, 1000, MPI_DOUBLE, (r + 1) % n, 1, b, 1000, MPI_DOUBLE, (r + n - 1) % n, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  const int partner = r ^ 1;
  MPI_Request q[2];
  int index = 0, flag = 0;
  if (r % 2 == 0) {
    MPI_Ssend(a, 10, MPI_INT, partner, 2, MPI_COMM_WORLD);
    int size = 0;
    MPI_Pack_size(10, MPI_INT, MPI_COMM_WORLD, &size);
    size += MPI_BSEND_OVERHEAD;
    void* buffer = malloc((size_t)size);
    MPI_Buffer_attach(buffer, size);
    MPI_Bsend(a, 10, MPI_INT, partner, 3, MPI_COMM_WORLD);
    MPI_Buffer_detach(&buffer, &size);
    free(buffer);
    MPI_Issend(a, 20, MPI_INT, partner, 4, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(b, 20, MPI_INT, partner, 5, MPI_COMM_WORLD, &q[1]);
  } else {
    MPI_Recv(b, 10, MPI_INT, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(b, 10, MPI_INT, partner, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Irecv(b, 20, MPI_INT, partner, 4, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(a, 20, MPI_INT, partner, 5, MPI_COMM_WORLD, &q[1]);
  }
  MPI_Testany(2, q, &index, &flag, MPI_STATUS_IGNORE);
  MPI_Waitany(2, q, &index, MPI_STATUS_IGNORE);
  MPI_Testall(2, q, &flag, MPI_STATUSES_IGNORE);
  if (!flag) MPI_Waitany(2, q, &index, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
