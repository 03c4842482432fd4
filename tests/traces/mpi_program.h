/* What the MPI test programs of tests/traces share (C and C++): computation
 * that the compiler keeps (the traces record it as compute time), and the
 * start of main. */
#ifndef CONTEND_TESTS_TRACES_MPI_PROGRAM_H
#define CONTEND_TESTS_TRACES_MPI_PROGRAM_H

#include <mpi.h>

/* n additions, kept by the volatile accumulator. */
static inline double work(int n) {
  volatile double s = 0;
  for (int i = 0; i < n; ++i) s = s + i * 0.5;
  return s;
}

/* MPI_Init, then this rank and the size of MPI_COMM_WORLD. */
static inline void start_mpi(int* argc, char*** argv, int* rank, int* size) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
}

#endif
