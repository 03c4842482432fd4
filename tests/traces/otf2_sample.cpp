// Writes a 4-rank OTF2 archive of an MPI program to DIR (DIR/traces.otf2):
// blocking and nonblocking point-to-point calls (Send/Recv, Sendrecv,
// Isend/Irecv with Test and Waitall), every collective with Score-P's byte
// counts, and a communicator of ranks {1, 3}. Computation between MPI calls
// is 1 ms x (rank + 1) at the start, 100 us elsewhere.
// Used by tests/traces/otf2.sh.
#include "tests/traces/otf2_sample.hpp"

#include <cstdio>
#include <cstring>

using contend::test::Otf2SampleWriter;

namespace {

constexpr std::uint64_t kCall = 10000;  // ns in each MPI call
constexpr int N = 4;

void collective(Otf2SampleWriter& s, int r, const char* name, OTF2_CollectiveOp op, std::uint32_t root,
                std::uint64_t sent, std::uint64_t received, OTF2_CommRef comm = 0) {
  s.region(r, name, kCall, [&](OTF2_EvtWriter* w, std::uint64_t t) {
    OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t);
    OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t + 1, op, comm, root, sent, received);
  });
  s.compute(r, 100000);
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage = "usage: otf2_sample DIR\nWrites a 4-rank OTF2 archive to DIR (DIR/traces.otf2).\n";
  if (argc == 2 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0)) {
    std::fputs(usage, stdout);
    return 0;
  }
  // An option is never a folder name here (`otf2_sample --x` wrote into '--x').
  if (argc != 2 || argv[1][0] == '-') {
    if (argc == 2) std::fprintf(stderr, "otf2_sample: unknown option '%s'\n", argv[1]);
    std::fputs(usage, stderr);
    return 2;
  }
  Otf2SampleWriter s(argv[1], N, {{1, 3}});
  for (int r = 0; r < N; ++r) {
    const auto ur = static_cast<std::uint32_t>(r);
    s.region(r, "main", 0);
    s.region(r, "MPI_Init", kCall);
    s.compute(r, 1000000 * static_cast<std::uint64_t>(r + 1));
    // Blocking: 0 -> 1, and 2 <-> 3 with Sendrecv.
    if (r == 0)
      s.region(r, "MPI_Send", kCall,
               [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiSend(w, nullptr, t, 1, 0, 1, 1000000); });
    if (r == 1)
      s.region(r, "MPI_Recv", kCall,
               [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiRecv(w, nullptr, t, 0, 0, 1, 1000000); });
    if (r >= 2) {
      const std::uint32_t other = r == 2 ? 3 : 2;
      s.region(r, "MPI_Sendrecv", kCall, [&](OTF2_EvtWriter* w, std::uint64_t t) {
        OTF2_EvtWriter_MpiSend(w, nullptr, t, other, 0, 5, 200000);
        OTF2_EvtWriter_MpiRecv(w, nullptr, t + 1, other, 0, 5, 200000);
      });
    }
    s.compute(r, 100000);
    // Nonblocking ring of 64 KiB, a failed test, then waitall.
    const std::uint32_t next = (ur + 1) % N, prev = (ur + N - 1) % N;
    s.region(r, "MPI_Irecv", kCall,
             [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, 1); });
    s.region(r, "MPI_Isend", kCall,
             [&](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiIsend(w, nullptr, t, next, 0, 2, 65536, 2); });
    s.region(r, "MPI_Test", kCall,
             [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiRequestTest(w, nullptr, t, 1); });
    s.region(r, "MPI_Waitall", kCall, [&](OTF2_EvtWriter* w, std::uint64_t t) {
      OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, 2);
      OTF2_EvtWriter_MpiIrecv(w, nullptr, t + 1, prev, 0, 2, 65536, 1);
    });
    s.compute(r, 100000);
    // Collectives on MPI_COMM_WORLD, byte counts as Score-P computes them.
    const bool root = r == 0;
    const std::uint64_t b = 4096;
    collective(s, r, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0, 0);
    collective(s, r, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 0, root ? N * b : 0, b);
    collective(s, r, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 0, b, root ? N * b : 0);
    collective(s, r, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 0, N * b, N * b);
    collective(s, r, "MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL, 0, N * b, N * b);
    collective(s, r, "MPI_Allgather", OTF2_COLLECTIVE_OP_ALLGATHER, 0, N * b, N * b);
    collective(s, r, "MPI_Gather", OTF2_COLLECTIVE_OP_GATHER, 0, b, root ? N * b : 0);
    collective(s, r, "MPI_Scatter", OTF2_COLLECTIVE_OP_SCATTER, 0, root ? N * b : 0, b);
    const std::uint64_t mine = 1000 * (ur + 1), all = 1000 * (1 + 2 + 3 + 4);
    collective(s, r, "MPI_Gatherv", OTF2_COLLECTIVE_OP_GATHERV, 0, mine, root ? all : 0);
    // Equal blocks: an unequal scatterv is replayed (root sends split equally)
    // but its TI conversion would not fit the receivers' recorded sizes.
    collective(s, r, "MPI_Scatterv", OTF2_COLLECTIVE_OP_SCATTERV, 0, root ? N * 1000 : 0, 1000);
    collective(s, r, "MPI_Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV, 0, N * mine, all);
    collective(s, r, "MPI_Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, 0, N * mine, all);
    collective(s, r, "MPI_Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER, 0, all, N * mine);
    // Communicator 1 = world ranks {1, 3}: an allreduce and a message 1 -> 3.
    if (r == 1 || r == 3) {
      collective(s, r, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 0, 2 * 800, 2 * 800, 1);
      if (r == 1)
        s.region(r, "MPI_Send", kCall,
                 [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiSend(w, nullptr, t, 1, 1, 9, 300000); });
      if (r == 3)
        s.region(r, "MPI_Recv", kCall,
                 [](OTF2_EvtWriter* w, std::uint64_t t) { OTF2_EvtWriter_MpiRecv(w, nullptr, t, 0, 1, 9, 300000); });
    }
    s.region(r, "MPI_Finalize", kCall);
  }
  s.close();
  return 0;
}
