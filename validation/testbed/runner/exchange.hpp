#pragma once
// Thune et al.'s Algorithm 2 for real, with the semantics contend simulates
// (sim/workload/pattern_workload.cpp, ExchangeStep::run): every rank posts
// MPI_Isend for its outgoing messages in file order, then MPI_Irecv for its
// incoming ones, then the sends with a start offset once their time has come
// (in increasing order of offset), then waits for its sends, then for its
// receives. All messages use tag 0 on MPI_COMM_WORLD.
//
// The waits observe every request's completion (MPI_Waitsome over the sends
// and receives together: the same progress as the two MPI_Waitall, and the
// instant each request completed), so that the run reports when the rank's
// last send and its last receive completed: the send side and the receive
// side that contend's --per-rank gives as send_time_s and recv_time_s.
#include <cstdint>
#include <optional>
#include <vector>

#include "validation/testbed/runner/runner_steps.hpp"

namespace contend::testbed {

// When a rank's last send and last receive of one exchange completed, on
// mpi_support::monotonic_now()'s clock; nullopt: the rank had none.
struct Completions {
  std::optional<double> last_send, last_recv;
};

// One rank's part of one exchange, prepared once and run many times.
class RankExchange {
 public:
  RankExchange(const Exchange& exchange, int rank);
  std::uint64_t send_bytes() const { return send_bytes_; }
  std::uint64_t recv_bytes() const { return recv_bytes_; }
  // Runs the exchange from `send_buffer`/`recv_buffer` (at least send_bytes()
  // and recv_bytes() long).
  Completions run(char* send_buffer, char* recv_buffer) const;

 private:
  std::vector<PatternMessage> sends_now_, sends_later_, receives_;
  std::uint64_t send_bytes_ = 0, recv_bytes_ = 0;
};

}  // namespace contend::testbed
