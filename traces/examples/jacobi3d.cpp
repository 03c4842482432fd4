// 3-D Jacobi relaxation of the Laplace equation on an N x N x (N x P) grid,
// split in slabs along z across P ranks: each iteration exchanges the two
// boundary planes with the neighbours (MPI_Isend/MPI_Irecv/MPI_Waitall),
// updates the interior, and sums the squared update with MPI_Allreduce.
// Boundary: u = 1 on the global bottom face, 0 elsewhere.
// usage: jacobi3d [N=48] [ITERATIONS=50]
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "traces/examples/arguments.hpp"

int main(int argc, char** argv) {
  int n = 48, iterations = 50;
  const int status =
      contend_examples::read_arguments(argc, argv,
                                       "usage: jacobi3d [N=48] [ITERATIONS=50]\n"
                                       "3-D Jacobi relaxation on an N x N x (N x P) grid, P the number of ranks.\n"
                                       "Example:\n  mpirun -np 4 jacobi3d 48 50",
                                       {{"N", &n}, {"ITERATIONS", &iterations}});
  if (status >= 0) return status;
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int plane = n * n;
  // Local slab: n planes plus a ghost plane below (z = 0) and above (z = n + 1).
  std::vector<double> u(static_cast<std::size_t>(plane) * (n + 2), 0.0), next = u;
  auto at = [&](std::vector<double>& v, int x, int y, int z) -> double& {
    return v[static_cast<std::size_t>(z) * plane + static_cast<std::size_t>(y) * n + x];
  };
  if (rank == 0) {
    for (int i = 0; i < plane; ++i) u[static_cast<std::size_t>(i)] = next[static_cast<std::size_t>(i)] = 1.0;
  }
  const int below = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int above = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double residual = 0;
  for (int it = 0; it < iterations; ++it) {
    MPI_Request requests[4];
    MPI_Irecv(&at(u, 0, 0, 0), plane, MPI_DOUBLE, below, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(&at(u, 0, 0, n + 1), plane, MPI_DOUBLE, above, 1, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(&at(u, 0, 0, 1), plane, MPI_DOUBLE, below, 1, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(&at(u, 0, 0, n), plane, MPI_DOUBLE, above, 0, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    double local = 0;
    for (int z = 1; z <= n; ++z) {
      for (int y = 1; y < n - 1; ++y) {
        for (int x = 1; x < n - 1; ++x) {
          const double v = (at(u, x - 1, y, z) + at(u, x + 1, y, z) + at(u, x, y - 1, z) + at(u, x, y + 1, z) +
                            at(u, x, y, z - 1) + at(u, x, y, z + 1)) /
                           6.0;
          local += (v - at(u, x, y, z)) * (v - at(u, x, y, z));
          at(next, x, y, z) = v;
        }
      }
    }
    if (rank == 0) {
      for (int i = 0; i < plane; ++i) next[static_cast<std::size_t>(plane + i)] = 1.0;  // fixed bottom face
    }
    u.swap(next);
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    std::printf("jacobi3d: %d ranks, %d^3 per rank, %d iterations, last update norm %.6e\n", size, n, iterations,
                std::sqrt(residual));
  const bool ok = std::isfinite(residual) && residual > 0;
  MPI_Finalize();
  return ok ? 0 : 1;
}
