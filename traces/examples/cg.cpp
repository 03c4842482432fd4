// Conjugate gradient on a distributed sparse matrix: the 7-point Laplacian
// of an N x N x (N x P) grid (plus the identity, so it is well conditioned),
// rows split in slabs along z. Each iteration: one sparse matrix-vector
// product that needs the neighbours' boundary planes (MPI_Isend/MPI_Irecv/
// MPI_Waitall), and two dot products (MPI_Allreduce). The right-hand side is
// A x* for x* = 1, so the error to x* is checked at the end.
// usage: cg [N=40] [ITERATIONS=40]
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "traces/examples/arguments.hpp"

namespace {

struct Slab {
  int n, rank, size;
  int plane() const { return n * n; }
  int rows() const { return n * plane(); }
};

// y = A x with A = 7 I - (the six neighbours), x given with ghost planes.
void multiply(const Slab& s, std::vector<double>& x, std::vector<double>& y) {
  const int plane = s.plane(), n = s.n;
  MPI_Request requests[4];
  const int below = s.rank > 0 ? s.rank - 1 : MPI_PROC_NULL;
  const int above = s.rank < s.size - 1 ? s.rank + 1 : MPI_PROC_NULL;
  double* ghost_below = x.data();
  double* first = x.data() + plane;
  double* last = x.data() + static_cast<std::size_t>(n) * plane;
  double* ghost_above = x.data() + static_cast<std::size_t>(n + 1) * plane;
  MPI_Irecv(ghost_below, plane, MPI_DOUBLE, below, 0, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(ghost_above, plane, MPI_DOUBLE, above, 1, MPI_COMM_WORLD, &requests[1]);
  MPI_Isend(first, plane, MPI_DOUBLE, below, 1, MPI_COMM_WORLD, &requests[2]);
  MPI_Isend(last, plane, MPI_DOUBLE, above, 0, MPI_COMM_WORLD, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
  for (int z = 1; z <= n; ++z) {
    for (int yy = 0; yy < n; ++yy) {
      for (int xx = 0; xx < n; ++xx) {
        const std::size_t i = static_cast<std::size_t>(z) * plane + static_cast<std::size_t>(yy) * n + xx;
        double v = 7 * x[i] - x[i - plane] - x[i + plane];
        if (xx > 0) v -= x[i - 1];
        if (xx < n - 1) v -= x[i + 1];
        if (yy > 0) v -= x[i - n];
        if (yy < n - 1) v -= x[i + n];
        y[i] = v;
      }
    }
  }
}

double dot(const Slab& s, const std::vector<double>& a, const std::vector<double>& b) {
  double local = 0;
  for (std::size_t i = static_cast<std::size_t>(s.plane()); i < static_cast<std::size_t>(s.plane()) * (s.n + 1); ++i) {
    local += a[i] * b[i];
  }
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return global;
}

}  // namespace

int main(int argc, char** argv) {
  Slab s{40, 0, 1};
  int iterations = 40;
  const int status = contend_examples::read_arguments(
      argc, argv,
      "usage: cg [N=40] [ITERATIONS=40]\n"
      "Conjugate gradient on the 7-point Laplacian of an N x N x (N x P) grid, P the number of ranks.\n"
      "Example:\n  mpirun -np 2 cg 40 40",
      {{"N", &s.n}, {"ITERATIONS", &iterations}});
  if (status >= 0) return status;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &s.size);
  const std::size_t total = static_cast<std::size_t>(s.plane()) * (s.n + 2);
  std::vector<double> x(total, 0.0), r(total, 0.0), p(total, 0.0), q(total, 0.0), ones(total, 1.0), b(total, 0.0);
  // Ghost planes outside the global domain stay 0 (Dirichlet boundary).
  if (s.rank == 0) std::fill(ones.begin(), ones.begin() + s.plane(), 0.0);
  if (s.rank == s.size - 1) std::fill(ones.end() - s.plane(), ones.end(), 0.0);
  multiply(s, ones, b);
  r = b;
  p = r;
  double rr = dot(s, r, r);
  const double rr0 = rr;
  for (int it = 0; it < iterations && rr > 1e-24 * rr0; ++it) {
    multiply(s, p, q);
    const double alpha = rr / dot(s, p, q);
    for (std::size_t i = 0; i < total; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double rr_next = dot(s, r, r);
    for (std::size_t i = 0; i < total; ++i) p[i] = r[i] + rr_next / rr * p[i];
    rr = rr_next;
  }
  double error = 0;
  for (std::size_t i = static_cast<std::size_t>(s.plane()); i < static_cast<std::size_t>(s.plane()) * (s.n + 1); ++i) {
    error = std::max(error, std::abs(x[i] - 1.0));
  }
  double max_error = 0;
  MPI_Allreduce(&error, &max_error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (s.rank == 0)
    std::printf("cg: %d ranks, %d^3 rows per rank, residual reduced by %.3e, max error %.3e\n", s.size, s.n,
                std::sqrt(rr / rr0), max_error);
  MPI_Finalize();
  return max_error < 1e-6 ? 0 : 1;
}
