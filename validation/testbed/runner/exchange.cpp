#include "validation/testbed/runner/exchange.hpp"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

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

// Tests in place: a completed request becomes MPI_REQUEST_NULL, which the
// final MPI_Waitall accepts.
void progress_until(double when, std::vector<MPI_Request>& sends, std::vector<MPI_Request>& receives) {
  while (monotonic_now() < when) {
    int done = 0;
    if (!sends.empty()) MPI_Testall(static_cast<int>(sends.size()), sends.data(), &done, MPI_STATUSES_IGNORE);
    if (!receives.empty()) MPI_Testall(static_cast<int>(receives.size()), receives.data(), &done, MPI_STATUSES_IGNORE);
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

void RankExchange::run(char* send_buffer, char* recv_buffer) const {
  const double begin = monotonic_now();
  std::vector<MPI_Request> sends, receives;
  sends.reserve(sends_now_.size() + sends_later_.size());
  receives.reserve(receives_.size());
  std::uint64_t send_offset = 0, recv_offset = 0;
  auto post_send = [&](const PatternMessage& m) {
    MPI_Request r;
    MPI_Isend(send_buffer + send_offset, as_count(m.bytes), MPI_BYTE, m.dst, 0, MPI_COMM_WORLD, &r);
    send_offset += m.bytes;
    sends.push_back(r);
  };
  for (const auto& m : sends_now_) post_send(m);
  for (const auto& m : receives_) {
    MPI_Request r;
    MPI_Irecv(recv_buffer + recv_offset, as_count(m.bytes), MPI_BYTE, m.src, 0, MPI_COMM_WORLD, &r);
    recv_offset += m.bytes;
    receives.push_back(r);
  }
  for (const auto& m : sends_later_) {
    progress_until(begin + m.start, sends, receives);
    post_send(m);
  }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  MPI_Waitall(static_cast<int>(receives.size()), receives.data(), MPI_STATUSES_IGNORE);
}

}  // namespace contend::testbed
