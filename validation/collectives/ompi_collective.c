// One MPI collective on MPI_COMM_WORLD, for compare_messages.py: run under
// Open MPI's pml/monitoring, it records the point-to-point messages the
// collective component really sends. Usage: ompi_collective OP BYTES
// (reductions on BYTES/8 doubles, the others on BYTES of MPI_BYTE per rank
// or per pair, root 0), as contend's pattern steps.
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* op = argv[1]; long bytes = atol(argv[2]);
  long n = bytes / 8; if (n < 1) n = 1;
  double* a = calloc(n * size + 16, 8); double* b = calloc(n * size + 16, 8);
  if (!strcmp(op, "bcast")) MPI_Bcast(a, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "reduce")) MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "allreduce")) MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(op, "barrier")) MPI_Barrier(MPI_COMM_WORLD);
  else if (!strcmp(op, "gather")) MPI_Gather(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "scatter")) MPI_Scatter(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "allgather")) MPI_Allgather(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, MPI_COMM_WORLD);
  else if (!strcmp(op, "alltoall")) MPI_Alltoall(a, bytes, MPI_BYTE, b, bytes, MPI_BYTE, MPI_COMM_WORLD);
  else if (!strcmp(op, "reduce_scatter")) { int* c = malloc(size * sizeof(int)); for (int i = 0; i < size; ++i) c[i] = n; MPI_Reduce_scatter(a, b, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }
  MPI_Finalize();
  return 0;
}
