#pragma once
// A ping-pong between ranks 0 and 1 over a list of sizes, one round trip per
// size, in order: rank 0 sends k bytes and receives k bytes back; rank 1
// receives and sends back. The round-trip time of each size is what
// Netgauge and Bacon et al.'s Figs. 2-5 measure (t_ping-pong).
#include <cstdint>
#include <vector>

#include "sim/core/datatype.hpp"
#include "sim/engine/workload.hpp"

namespace contend {

class PingPongWorkload final : public Workload {
 public:
  PingPongWorkload(std::vector<std::uint64_t> sizes, Datatype datatype);
  int rank_count() const override { return 2; }
  std::string description() const override;
  void run(Mpi& mpi) override;
  // After the run: rank 0's round-trip time per size (seconds).
  const std::vector<double>& round_trips() const { return round_trips_; }

 private:
  std::vector<std::uint64_t> sizes_;
  Datatype datatype_;
  std::vector<double> round_trips_;
};

}  // namespace contend
