#pragma once
// What `contend select` needs from the collectives (sim/collectives): Open
// MPI's fixed decision, and a simulation of one broadcast algorithm forced
// as Open MPI's coll_tuned_bcast_algorithm would force it.
#include <cstdint>
#include <optional>
#include <string>

#include "collectives/collectives.hpp"
#include "platform/platform.hpp"
#include "taulop/parameters.hpp"

namespace contend::cli {

struct OmpiChoice {
  std::string label;     // "split_binary seg 1K" (Open MPI's name when the models lack it)
  std::string csv_name;  // the paper's name, or Open MPI's
  std::uint64_t segment_bytes = 0;
  std::optional<std::size_t> modelled;  // index in taulop::kBcastAlgorithms
};

class OmpiDecision {
 public:
  OmpiDecision(const std::string& version, int kchain_fanout);
  std::string version() const;
  OmpiChoice choose(int procs, std::uint64_t bytes) const;

 private:
  coll::CollectiveSettings settings_;
  int kchain_fanout_;
};

// Open MPI's name and settings that run `algorithm` as the paper models it
// (segments of `segment_bytes`, the k-chain with fanout K).
coll::ForcedAlgorithm forced_bcast(taulop::BcastAlgorithm algorithm, std::uint64_t segment_bytes);

// Simulates one forced algorithm per call, each in a child process (SimGrid
// runs one engine per process).
class AlgorithmSimulator {
 public:
  AlgorithmSimulator(const Platform& platform, std::string mapping, int procs, std::string model,
                     const taulop::Parameters& parameters);
  double run(taulop::BcastAlgorithm algorithm, std::uint64_t bytes) const;  // makespan, seconds

 private:
  const Platform& platform_;
  std::string mapping_;
  int procs_;
  std::string model_;
  std::uint64_t segment_bytes_;
  int kchain_fanout_;
};

}  // namespace contend::cli
