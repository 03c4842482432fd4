// MPI program for the tracer's end-to-end test (tests/traces/tracer.sh):
// every call libcontend-trace.so intercepts, on MPI_COMM_WORLD and on
// communicators from MPI_Comm_split and MPI_Comm_dup, with computation
// between calls. `tracer_app p2p` makes only the point-to-point calls (`all`, the default, every call).
// It checks its own results, so a tracer that changed the program's
// behaviour makes it fail.
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

#include "tests/traces/mpi_program.h"
#include "traces/examples/arguments.hpp"

namespace {

int failures = 0;
void check(bool ok, const char* what, int rank) {
  if (!ok) {
    std::fprintf(stderr, "tracer_app: rank %d: %s is wrong\n", rank, what);
    ++failures;
  }
}

void point_to_point(int rank, int size) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  std::vector<double> out(100000, rank), in(100000, -1);
  MPI_Request req[2];
  MPI_Irecv(in.data(), 100000, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(out.data(), 100000, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &req[1]);
  int done = 0;
  while (!done) {
    MPI_Test(&req[0], &done, MPI_STATUS_IGNORE);
    work(1000);
  }
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  check(in[0] == prev, "ring message", rank);
  work(20000);
  std::vector<int> token(64, rank);
  if (rank % 2 == 0) {
    MPI_Ssend(token.data(), 64, MPI_INT, rank + 1, 2, MPI_COMM_WORLD);
  } else {
    MPI_Recv(token.data(), 64, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check(token[0] == rank - 1, "send/recv", rank);
  }
  // Two receives completed one by one with MPI_Waitany, two sends polled with MPI_Testall.
  int a = -1, b = -1, out_a = rank, out_b = rank + 100;
  MPI_Request pair[2], sends[2];
  MPI_Irecv(&a, 1, MPI_INT, prev, 6, MPI_COMM_WORLD, &pair[0]);
  MPI_Irecv(&b, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &pair[1]);
  MPI_Isend(&out_b, 1, MPI_INT, next, 7, MPI_COMM_WORLD, &sends[0]);
  MPI_Isend(&out_a, 1, MPI_INT, next, 6, MPI_COMM_WORLD, &sends[1]);
  for (int k = 0; k < 2; ++k) {
    int index = -1;
    MPI_Waitany(2, pair, &index, MPI_STATUS_IGNORE);
  }
  int all_sent = 0;
  while (!all_sent) MPI_Testall(2, sends, &all_sent, MPI_STATUSES_IGNORE);
  check(a == prev && b == prev + 100, "waitany messages", rank);
  int mine = rank, theirs = -1;
  MPI_Sendrecv(&mine, 1, MPI_INT, next, 3, &theirs, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  check(theirs == prev, "sendrecv", rank);
  // A column of a 16 x 16 matrix: a vector datatype (count 16, block 1, stride 16).
  MPI_Datatype column;
  MPI_Type_vector(16, 1, 16, MPI_FLOAT, &column);
  MPI_Type_commit(&column);
  std::vector<float> matrix(256, static_cast<float>(rank));
  MPI_Request r;
  if (rank % 2 == 0) {
    MPI_Isend(matrix.data(), 1, column, rank + 1, 4, MPI_COMM_WORLD, &r);
  } else {
    MPI_Irecv(matrix.data(), 1, column, rank - 1, 4, MPI_COMM_WORLD, &r);
  }
  work(5000);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (rank % 2 == 1) check(matrix[16] == rank - 1 && matrix[1] == rank, "vector message", rank);
  MPI_Type_free(&column);
}

void collectives(int rank, int size) {
  std::vector<double> a(4096, rank + 1.0), b(4096 * size, 0);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(a.data(), 1000, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  check(a[0] == 2.0, "bcast", rank);
  work(10000);
  a.assign(a.size(), rank + 1.0);
  MPI_Reduce(a.data(), b.data(), 10, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) check(b[0] == size * (size + 1) / 2.0, "reduce", rank);
  MPI_Allreduce(a.data(), b.data(), 100, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  check(b[99] == size * (size + 1) / 2.0, "allreduce", rank);
  MPI_Alltoall(a.data(), 10, MPI_DOUBLE, b.data(), 10, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Gather(a.data(), 10, MPI_DOUBLE, b.data(), 10, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Scatter(b.data(), 10, MPI_DOUBLE, a.data(), 10, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allgather(a.data(), 10, MPI_DOUBLE, b.data(), 10, MPI_DOUBLE, MPI_COMM_WORLD);
  std::vector<int> counts(size), displs(size), same(size, rank + 1), same_displs(size);
  for (int i = 0; i < size; ++i) {
    counts[i] = i + 1;
    displs[i] = i * (i + 1) / 2;
    same_displs[i] = i * (rank + 1);
  }
  MPI_Gatherv(a.data(), rank + 1, MPI_DOUBLE, b.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Scatterv(b.data(), counts.data(), displs.data(), MPI_DOUBLE, a.data(), rank + 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allgatherv(a.data(), rank + 1, MPI_DOUBLE, b.data(), counts.data(), displs.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Alltoallv(a.data(), same.data(), same_displs.data(), MPI_DOUBLE, b.data(), counts.data(), displs.data(),
                MPI_DOUBLE, MPI_COMM_WORLD);
  a.assign(a.size(), 1.0);
  MPI_Reduce_scatter(a.data(), b.data(), counts.data(), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  check(b[0] == size, "reduce_scatter", rank);
  work(10000);
}

void communicators(int rank, int size) {
  MPI_Comm half, copy;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);  // keys reverse the order
  MPI_Comm_dup(MPI_COMM_WORLD, &copy);
  int half_rank = -1, half_size = 0;
  MPI_Comm_rank(half, &half_rank);
  MPI_Comm_size(half, &half_size);
  double v = rank, sum = 0;
  MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, half);
  double expect = 0;
  for (int r = rank % 2; r < size; r += 2) expect += r;
  check(sum == expect, "allreduce on a split communicator", rank);
  if (half_size >= 2) {
    int token = rank;
    if (half_rank == 0) MPI_Send(&token, 1, MPI_INT, 1, 5, half);
    if (half_rank == 1) {
      MPI_Recv(&token, 1, MPI_INT, 0, 5, half, MPI_STATUS_IGNORE);
      check(token % 2 == rank % 2, "message on a split communicator", rank);
    }
  }
  MPI_Bcast(&v, 1, MPI_DOUBLE, 0, half);
  MPI_Barrier(copy);
  MPI_Comm_free(&half);
  MPI_Comm_free(&copy);
}

}  // namespace

int main(int argc, char** argv) {
  // Read before MPI starts; the launcher's rank 0 alone prints.
  const char* usage =
      "usage: tracer_app [all|p2p]\nEvery call libcontend-trace.so intercepts (all, the default), or the "
      "point-to-point ones.\n";
  const bool prints = contend_examples::launcher_rank_zero();
  if (argc == 2 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0)) {
    if (prints) std::fputs(usage, stdout);
    return 0;
  }
  if (argc > 2 || (argc == 2 && std::strcmp(argv[1], "p2p") != 0 && std::strcmp(argv[1], "all") != 0)) {
    if (prints) std::fprintf(stderr, "tracer_app: unexpected argument '%s'\n%s", argv[argc - 1], usage);
    return 2;
  }
  const bool p2p_only = argc == 2 && std::strcmp(argv[1], "p2p") == 0;
  int rank = 0, size = 1;
  start_mpi(&argc, &argv, &rank, &size);
  if (size % 2 != 0) {
    if (rank == 0) std::fprintf(stderr, "tracer_app: needs an even number of ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  // A message to itself on MPI_COMM_SELF: a local copy, left out of the trace.
  int self_in = -1, self_out = rank;
  MPI_Sendrecv(&self_out, 1, MPI_INT, 0, 0, &self_in, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  check(self_in == rank, "message on MPI_COMM_SELF", rank);
  work(50000);
  for (int iteration = 0; iteration < 3; ++iteration) {
    point_to_point(rank, size);
    if (!p2p_only) collectives(rank, size);
  }
  if (!p2p_only) communicators(rank, size);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
