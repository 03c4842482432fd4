#include "validation/testbed/runner/exchange.hpp"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "calibrate/common/mpi_support.hpp"

namespace contend::testbed {
namespace {

using mpi_support::monotonic_now;
using mpi_support::sleep_until;

// While a delayed send waits for its time, the rank keeps polling its posted
// requests (every 50 us): Open MPI's TCP transport only moves data inside MPI
// calls, and contend lets data flow during the wait.
constexpr double kPollInterval = 50e-6;

int as_count(std::uint64_t bytes) {
  if (bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    throw std::runtime_error("message of " + std::to_string(bytes) +
                             " B is too large for one MPI call (at most 2 GiB - 1)");
  }
  return static_cast<int>(bytes);
}

// The rank's posted requests, sends and receives together, and when the
// last of each kind completed. A completed request becomes MPI_REQUEST_NULL,
// which later MPI_Testsome and MPI_Waitsome calls skip.
class PostedRequests {
 public:
  void add(MPI_Request r, bool is_send) {
    requests_.push_back(r);
    is_send_.push_back(is_send);
  }
  // Completes what has completed (no wait).
  void test() { record(MPI_Testsome, false); }
  // Waits until every request posted so far completed.
  void wait_all() { record(MPI_Waitsome, true); }
  const Completions& completions() const { return completions_; }

 private:
  using Some = int (*)(int, MPI_Request[], int*, int[], MPI_Status[]);
  void record(Some some, bool until_all) {
    if (requests_.empty()) return;
    indices_.resize(requests_.size());
    while (true) {
      int count = 0;
      some(static_cast<int>(requests_.size()), requests_.data(), &count, indices_.data(), MPI_STATUSES_IGNORE);
      if (count == MPI_UNDEFINED) return;  // none active
      const double now = monotonic_now();
      for (int k = 0; k < count; ++k) {
        (is_send_[static_cast<std::size_t>(indices_[static_cast<std::size_t>(k)])] ? completions_.last_send
                                                                                   : completions_.last_recv) = now;
      }
      if (!until_all) return;
    }
  }
  std::vector<MPI_Request> requests_;
  std::vector<bool> is_send_;
  std::vector<int> indices_;
  Completions completions_;
};

void progress_until(double when, PostedRequests& posted) {
  while (monotonic_now() < when) {
    posted.test();
    sleep_until(std::min(when, monotonic_now() + kPollInterval));
  }
}

}  // namespace

RankExchange::RankExchange(const Exchange& exchange, int rank) {
  for (const auto& m : exchange) {
    if (m.src == rank) {
      (m.start > 0 ? sends_later_ : sends_now_).push_back(m);
      send_bytes_ += m.bytes;
    }
    if (m.dst == rank) {
      receives_.push_back(m);
      recv_bytes_ += m.bytes;
    }
  }
  std::stable_sort(sends_later_.begin(), sends_later_.end(),
                   [](const PatternMessage& a, const PatternMessage& b) { return a.start < b.start; });
}

Completions RankExchange::run(char* send_buffer, char* recv_buffer) const {
  const double begin = monotonic_now();
  PostedRequests posted;
  std::uint64_t send_offset = 0, recv_offset = 0;
  auto post_send = [&](const PatternMessage& m) {
    MPI_Request r;
    MPI_Isend(send_buffer + send_offset, as_count(m.bytes), MPI_BYTE, m.dst, 0, MPI_COMM_WORLD, &r);
    send_offset += m.bytes;
    posted.add(r, true);
  };
  for (const auto& m : sends_now_) post_send(m);
  for (const auto& m : receives_) {
    MPI_Request r;
    MPI_Irecv(recv_buffer + recv_offset, as_count(m.bytes), MPI_BYTE, m.src, 0, MPI_COMM_WORLD, &r);
    recv_offset += m.bytes;
    posted.add(r, false);
  }
  for (const auto& m : sends_later_) {
    progress_until(begin + m.start, posted);
    post_send(m);
  }
  posted.wait_all();
  return posted.completions();
}

}  // namespace contend::testbed
