// One MPI collective on MPI_COMM_WORLD, for compare_messages.py: run under
// Open MPI's pml/monitoring, it records the point-to-point messages the
// collective component really sends. Usage: ompi_collective OP BYTES
// (reductions on BYTES/8 doubles, the others on BYTES of MPI_BYTE per rank
// or per pair, root 0), as contend's pattern steps.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* op = argv[1];
  long bytes = atol(argv[2]);
  long n = bytes / 8;
  if (n < 1) n = 1;
  double* a = calloc(n * size + 16, 8);
  double* b = calloc(n * size + 16, 8);
  if (!strcmp(op, "bcast"))
    MPI_Bcast(a, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "reduce"))
    MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "allreduce"))
    MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(op, "barrier"))
    MPI_Barrier(MPI_COMM_WORLD);
  else if (!strcmp(op, "gather"))
    MPI_Gather(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "scatter"))
    MPI_Scatter(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "allgather"))
    MPI_Allgather(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, MPI_COMM_WORLD);
  else if (!strcmp(op, "alltoall"))
    MPI_Alltoall(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, MPI_COMM_WORLD);
  else if (!strcmp(op, "gatherv") || !strcmp(op, "scatterv") || !strcmp(op, "allgatherv") || !strcmp(op, "alltoallv")) {
    // v variants: rank i's block is (i % 3) * BYTES (blocks of zero included);
    // alltoallv: rank i sends (i % 3) * BYTES to every rank.
    int* counts = malloc(size * sizeof(int));
    int* displs = malloc(size * sizeof(int));
    int* mine = malloc(size * sizeof(int));
    int* zeros = calloc(size, sizeof(int));
    for (int i = 0; i < size; ++i) {
      counts[i] = (int)((i % 3) * bytes);
      displs[i] = 0;
      mine[i] = (int)((rank % 3) * bytes);
    }
    char* big = calloc((size_t)3 * bytes * size + 16, 1);
    char* big2 = calloc((size_t)3 * bytes * size + 16, 1);
    for (int i = 1; i < size; ++i) displs[i] = displs[i - 1] + counts[i - 1];
    if (!strcmp(op, "gatherv"))
      MPI_Gatherv(big, counts[rank], MPI_BYTE, big2, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "scatterv"))
      MPI_Scatterv(big, counts, displs, MPI_BYTE, big2, counts[rank], MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (!strcmp(op, "allgatherv"))
      MPI_Allgatherv(big, counts[rank], MPI_BYTE, big2, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    else {
      int* sdispls = calloc(size, sizeof(int));
      for (int i = 1; i < size; ++i) sdispls[i] = sdispls[i - 1] + mine[i - 1];
      MPI_Alltoallv(big, mine, sdispls, MPI_BYTE, big2, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    }
    (void)zeros;
  } else if (!strcmp(op, "reduce_scatter")) {
    int* c = malloc(size * sizeof(int));
    for (int i = 0; i < size; ++i) c[i] = n;
    MPI_Reduce_scatter(a, b, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
