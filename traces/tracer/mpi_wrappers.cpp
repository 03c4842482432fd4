// The MPI calls libcontend-trace.so intercepts (PMPI profiling interface).
// Each wrapper calls the PMPI function unchanged, with the same arguments,
// and records a SimGrid TI line (traces/formats/ti_trace.hpp) for it: the
// program's behaviour is not changed. Peers and roots are ranks in the
// call's communicator; calls on other communicators than MPI_COMM_WORLD end
// with `comm=ID` (contend's extension).
#include <mpi.h>

#include <numeric>
#include <string>
#include <vector>

#include "traces/tracer/tracer.hpp"

using contend::tracer::CallKind;
using contend::tracer::Elements;
using contend::tracer::RequestInfo;
using contend::tracer::Tracer;

namespace {

Tracer& T() { return Tracer::get(); }

std::string s(long long v) { return std::to_string(v); }

// "COUNT ID", plus the vector layout if any (at the end of the line, with comm=).
std::string count_type(const Elements& e) { return s(e.count) + " " + s(e.id); }

int comm_rank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}

int comm_size(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return n;
}

// Runs one traced call: computation before it, its duration after it.
template <class Call>
int traced(const char* name, CallKind kind, Call&& call) {
  if (!T().active()) return call();
  T().begin();
  const int rc = call();
  T().end(name, kind);
  return rc;
}

// Messages to or from MPI_PROC_NULL do nothing: they are left out.
void point_to_point(const char* action, int peer, int tag, int count, MPI_Datatype type, MPI_Comm comm) {
  if (peer == MPI_PROC_NULL) return;
  const Elements e = T().elements(count, type);
  T().line(std::string(action) + " " + s(peer) + " " + s(tag) + " " + count_type(e) + e.layout + T().comm_suffix(comm));
}

void remember(MPI_Request request, int src, int dst, int tag, MPI_Comm comm) {
  if (src == MPI_PROC_NULL || dst == MPI_PROC_NULL) return;
  if (request != MPI_REQUEST_NULL) T().requests().add(request, RequestInfo{src, dst, tag, T().comm_id(comm)});
}

std::string key_line(const char* action, const RequestInfo& r) {
  return std::string(action) + " " + s(r.src) + " " + s(r.dst) + " " + s(r.tag) +
         (r.comm == 0 ? std::string() : " comm=" + s(r.comm));
}

// Lines for waiting on `requests`: `waitall N` when they are every pending
// request (SimGrid's waitall waits for all of them), one `wait` each otherwise.
void wait_lines(const std::vector<MPI_Request>& requests) {
  auto& pending = T().requests();
  const std::size_t pending_before = pending.size();
  std::vector<RequestInfo> known;
  for (auto r : requests) {
    if (auto info = pending.take(r)) known.push_back(*info);
  }
  if (known.empty()) return;
  if (known.size() == pending_before) {
    T().line("waitall " + s(static_cast<long long>(known.size())));
  } else {
    for (const auto& k : known) T().line(key_line("wait", k));
  }
}

// A `test` line for each pending request among `requests`; those MPI found
// complete (`completed`) are forgotten.
void test_lines(const std::vector<MPI_Request>& requests, const std::vector<bool>& completed) {
  auto& pending = T().requests();
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const RequestInfo* info = pending.peek(requests[i]);
    if (!info) continue;
    T().line(key_line("test", *info));
    if (completed[i]) pending.take(requests[i]);
  }
}

std::string counts_line(const int* counts, int n, MPI_Datatype type, bool significant) {
  std::string out;
  for (int i = 0; i < n; ++i) out += " " + s(significant ? T().elements(counts[i], type).count : 0);
  return out;
}

long long counts_sum(const int* counts, int n, MPI_Datatype type) {
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += T().elements(counts[i], type).count;
  return sum;
}

std::string id(MPI_Datatype type) { return s(T().elements(1, type).id); }

// alltoall and allgather: NAME SEND_COUNT RECV_COUNT SEND_TYPE RECV_TYPE.
void everyone_line(const char* name, int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm) {
  if (!T().records(comm)) return;
  const Elements a = T().elements(sendcount, sendtype), b = T().elements(recvcount, recvtype);
  T().line(std::string(name) + " " + s(a.count) + " " + s(b.count) + " " + s(a.id) + " " + s(b.id) +
           T().comm_suffix(comm));
}

// gather and scatter: NAME SEND_COUNT RECV_COUNT ROOT SEND_TYPE RECV_TYPE, the
// side significant at the root only written as the other side elsewhere.
void rooted_line(const char* name, const Elements& send, const Elements& receive, int root, MPI_Comm comm) {
  T().line(std::string(name) + " " + s(send.count) + " " + s(receive.count) + " " + s(root) + " " + s(send.id) + " " +
           s(receive.id) + T().comm_suffix(comm));
}

}  // namespace

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  T().start(rank);
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  T().start(rank);
  return rc;
}

int MPI_Finalize() {
  if (T().active()) T().finish();
  return PMPI_Finalize();
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const int rc = traced("MPI_Send", CallKind::Blocking, [&] { return PMPI_Send(buf, count, type, dest, tag, comm); });
  if (T().records(comm)) point_to_point("send", dest, tag, count, type, comm);
  return rc;
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  const int rc =
      traced("MPI_Recv", CallKind::Blocking, [&] { return PMPI_Recv(buf, count, type, source, tag, comm, status); });
  if (T().records(comm))
    point_to_point("recv", source == MPI_ANY_SOURCE ? -1 : source, tag == MPI_ANY_TAG ? -1 : tag, count, type, comm);
  return rc;
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  const int rc = traced("MPI_Isend", CallKind::Nonblocking,
                        [&] { return PMPI_Isend(buf, count, type, dest, tag, comm, request); });
  if (T().records(comm)) {
    point_to_point("isend", dest, tag, count, type, comm);
    remember(*request, comm_rank(comm), dest, tag, comm);
  }
  return rc;
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  const int rc = traced("MPI_Irecv", CallKind::Nonblocking,
                        [&] { return PMPI_Irecv(buf, count, type, source, tag, comm, request); });
  if (T().records(comm)) {
    const int src = source == MPI_ANY_SOURCE ? -1 : source;
    const int t = tag == MPI_ANY_TAG ? -1 : tag;
    point_to_point("irecv", src, t, count, type, comm);
    remember(*request, source == MPI_PROC_NULL ? MPI_PROC_NULL : src, comm_rank(comm), t, comm);
  }
  return rc;
}

// Synchronous, buffered and ready sends replay as sends (the model decides
// eager or rendezvous by size).
int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const int rc = traced("MPI_Ssend", CallKind::Blocking, [&] { return PMPI_Ssend(buf, count, type, dest, tag, comm); });
  if (T().records(comm)) point_to_point("send", dest, tag, count, type, comm);
  return rc;
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const int rc = traced("MPI_Bsend", CallKind::Blocking, [&] { return PMPI_Bsend(buf, count, type, dest, tag, comm); });
  if (T().records(comm)) point_to_point("send", dest, tag, count, type, comm);
  return rc;
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const int rc = traced("MPI_Rsend", CallKind::Blocking, [&] { return PMPI_Rsend(buf, count, type, dest, tag, comm); });
  if (T().records(comm)) point_to_point("send", dest, tag, count, type, comm);
  return rc;
}

int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  const int rc = traced("MPI_Issend", CallKind::Nonblocking,
                        [&] { return PMPI_Issend(buf, count, type, dest, tag, comm, request); });
  if (T().records(comm)) {
    point_to_point("isend", dest, tag, count, type, comm);
    remember(*request, comm_rank(comm), dest, tag, comm);
  }
  return rc;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  const int rc = traced("MPI_Sendrecv", CallKind::Blocking, [&] {
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
  });
  if (T().records(comm)) {
    // As an isend, an irecv and a wait for each (SimGrid's sendRecv action has no tags).
    const int me = comm_rank(comm);
    const int src = source == MPI_ANY_SOURCE ? -1 : source;
    const int t = recvtag == MPI_ANY_TAG ? -1 : recvtag;
    point_to_point("isend", dest, sendtag, sendcount, sendtype, comm);
    point_to_point("irecv", source == MPI_PROC_NULL ? MPI_PROC_NULL : src, t, recvcount, recvtype, comm);
    const int id = T().comm_id(comm);
    if (dest != MPI_PROC_NULL) T().line(key_line("wait", RequestInfo{me, dest, sendtag, id}));
    if (source != MPI_PROC_NULL) T().line(key_line("wait", RequestInfo{src, me, t, id}));
  }
  return rc;
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  const MPI_Request before = *request;
  const int rc = traced("MPI_Wait", CallKind::Wait, [&] { return PMPI_Wait(request, status); });
  if (T().active()) wait_lines({before});
  return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  const std::vector<MPI_Request> before(requests, requests + count);
  const int rc = traced("MPI_Waitall", CallKind::Wait, [&] { return PMPI_Waitall(count, requests, statuses); });
  if (T().active()) wait_lines(before);
  return rc;
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  const MPI_Request before = *request;
  const int rc = traced("MPI_Test", CallKind::Test, [&] { return PMPI_Test(request, flag, status); });
  if (T().active()) test_lines({before}, {*flag != 0});
  return rc;
}

// MPI_Waitany/Waitsome: a wait for each request that completed.
int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  const std::vector<MPI_Request> before(requests, requests + count);
  const int rc = traced("MPI_Waitany", CallKind::Wait, [&] { return PMPI_Waitany(count, requests, index, status); });
  if (T().active() && *index != MPI_UNDEFINED) wait_lines({before[static_cast<std::size_t>(*index)]});
  return rc;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  const std::vector<MPI_Request> before(requests, requests + incount);
  const int rc = traced("MPI_Waitsome", CallKind::Wait,
                        [&] { return PMPI_Waitsome(incount, requests, outcount, indices, statuses); });
  if (T().active() && *outcount != MPI_UNDEFINED) {
    std::vector<MPI_Request> done;
    for (int i = 0; i < *outcount; ++i) done.push_back(before[static_cast<std::size_t>(indices[i])]);
    wait_lines(done);
  }
  return rc;
}

// MPI_Testany/Testall: a test of each pending request they looked at; the
// ones found complete are forgotten (a later wait on them is not traced).
int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  const std::vector<MPI_Request> before(requests, requests + count);
  const int rc =
      traced("MPI_Testany", CallKind::Test, [&] { return PMPI_Testany(count, requests, index, flag, status); });
  if (T().active()) {
    std::vector<bool> completed(before.size(), false);
    if (*flag && *index != MPI_UNDEFINED) completed[static_cast<std::size_t>(*index)] = true;
    test_lines(before, completed);
  }
  return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  const std::vector<MPI_Request> before(requests, requests + count);
  const int rc = traced("MPI_Testall", CallKind::Test, [&] { return PMPI_Testall(count, requests, flag, statuses); });
  if (T().active()) test_lines(before, std::vector<bool>(before.size(), *flag != 0));
  return rc;
}

int MPI_Barrier(MPI_Comm comm) {
  const int rc = traced("MPI_Barrier", CallKind::Blocking, [&] { return PMPI_Barrier(comm); });
  if (T().records(comm)) T().line("barrier" + T().comm_suffix(comm));
  return rc;
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const int rc = traced("MPI_Bcast", CallKind::Blocking, [&] { return PMPI_Bcast(buf, count, type, root, comm); });
  if (T().records(comm)) {
    const Elements e = T().elements(count, type);
    T().line("bcast " + s(e.count) + " " + s(root) + " " + s(e.id) + T().comm_suffix(comm));
  }
  return rc;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  const int rc = traced("MPI_Reduce", CallKind::Blocking,
                        [&] { return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm); });
  if (T().records(comm)) {
    const Elements e = T().elements(count, type);
    T().line("reduce " + s(e.count) + " 0 " + s(root) + " " + s(e.id) + T().comm_suffix(comm));
  }
  return rc;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const int rc = traced("MPI_Allreduce", CallKind::Blocking,
                        [&] { return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm); });
  if (T().records(comm)) {
    const Elements e = T().elements(count, type);
    T().line("allreduce " + s(e.count) + " 0 " + s(e.id) + T().comm_suffix(comm));
  }
  return rc;
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  const int rc = traced("MPI_Alltoall", CallKind::Blocking, [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  });
  everyone_line("alltoall", sendcount, sendtype, recvcount, recvtype, comm);
  return rc;
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  const int rc = traced("MPI_Allgather", CallKind::Blocking, [&] {
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  });
  everyone_line("allgather", sendcount, sendtype, recvcount, recvtype, comm);
  return rc;
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const int rc = traced("MPI_Gather", CallKind::Blocking, [&] {
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  });
  if (T().records(comm)) {
    const Elements a = T().elements(sendcount, sendtype);
    rooted_line("gather", a, comm_rank(comm) == root ? T().elements(recvcount, recvtype) : a, root, comm);
  }
  return rc;
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const int rc = traced("MPI_Scatter", CallKind::Blocking, [&] {
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  });
  if (T().records(comm)) {
    const Elements b = T().elements(recvcount, recvtype);
    rooted_line("scatter", comm_rank(comm) == root ? T().elements(sendcount, sendtype) : b, b, root, comm);
  }
  return rc;
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const int rc = traced("MPI_Gatherv", CallKind::Blocking, [&] {
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  });
  if (T().records(comm)) {
    const bool is_root = comm_rank(comm) == root;
    const Elements a = T().elements(sendcount, sendtype);
    T().line("gatherv " + s(a.count) + counts_line(recvcounts, comm_size(comm), recvtype, is_root) + " " + s(root) +
             " " + s(a.id) + " " + (is_root ? id(recvtype) : s(a.id)) + T().comm_suffix(comm));
  }
  return rc;
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  const int rc = traced("MPI_Allgatherv", CallKind::Blocking, [&] {
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  });
  if (T().records(comm)) {
    const Elements a = T().elements(sendcount, sendtype);
    T().line("allgatherv " + s(a.count) + counts_line(recvcounts, comm_size(comm), recvtype, true) + " " + s(a.id) +
             " " + id(recvtype) + T().comm_suffix(comm));
  }
  return rc;
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const int rc = traced("MPI_Scatterv", CallKind::Blocking, [&] {
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  });
  if (T().records(comm)) {
    const bool is_root = comm_rank(comm) == root;
    const Elements b = T().elements(recvcount, recvtype);
    T().line("scatterv" + counts_line(sendcounts, comm_size(comm), sendtype, is_root) + " " + s(b.count) + " " +
             s(root) + " " + (is_root ? id(sendtype) : s(b.id)) + " " + s(b.id) + T().comm_suffix(comm));
  }
  return rc;
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  const int rc = traced("MPI_Alltoallv", CallKind::Blocking, [&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  });
  if (T().records(comm)) {
    const int n = comm_size(comm);
    T().line("alltoallv " + s(counts_sum(sendcounts, n, sendtype)) + counts_line(sendcounts, n, sendtype, true) + " " +
             s(counts_sum(recvcounts, n, recvtype)) + counts_line(recvcounts, n, recvtype, true) + " " + id(sendtype) +
             " " + id(recvtype) + T().comm_suffix(comm));
  }
  return rc;
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  const int rc = traced("MPI_Reduce_scatter", CallKind::Blocking,
                        [&] { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm); });
  if (T().records(comm)) {
    T().line("reducescatter" + counts_line(recvcounts, comm_size(comm), type, true) + " 0 " + id(type) +
             T().comm_suffix(comm));
  }
  return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  const int rc = traced("MPI_Comm_split", CallKind::Other, [&] { return PMPI_Comm_split(comm, color, key, newcomm); });
  if (T().records(comm)) {
    const int parent = T().comm_id(comm);
    T().line("comm_split " + s(parent) + " " + s(color == MPI_UNDEFINED ? -1 : color) + " " + s(key));
    T().add_comm(*newcomm);
  }
  return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  const int rc = traced("MPI_Comm_dup", CallKind::Other, [&] { return PMPI_Comm_dup(comm, newcomm); });
  if (T().records(comm)) {
    T().line("comm_dup " + s(T().comm_id(comm)));
    T().add_comm(*newcomm);
  }
  return rc;
}

int MPI_Comm_free(MPI_Comm* comm) {
  if (T().active()) T().forget_comm(*comm);
  return traced("MPI_Comm_free", CallKind::Other, [&] { return PMPI_Comm_free(comm); });
}

}  // extern "C"
