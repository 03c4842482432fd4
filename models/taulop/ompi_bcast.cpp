#include "models/taulop/ompi_bcast.hpp"

namespace contend::taulop {

std::optional<BcastAlgorithm> modelled_bcast(std::string_view ompi_algorithm, int fanout) {
  if (ompi_algorithm == "linear") return BcastAlgorithm::Linear;
  if (ompi_algorithm == "chain") return fanout == 1 ? BcastAlgorithm::Chain : BcastAlgorithm::KChain;
  if (ompi_algorithm == "pipeline") return BcastAlgorithm::Chain;
  if (ompi_algorithm == "split_binary") return BcastAlgorithm::SplitBinary;
  if (ompi_algorithm == "binary") return BcastAlgorithm::Binary;
  if (ompi_algorithm == "binomial") return BcastAlgorithm::Binomial;
  return std::nullopt;
}

std::string_view ompi_bcast_name(BcastAlgorithm algorithm) {
  switch (algorithm) {
    case BcastAlgorithm::Linear: return "linear";
    case BcastAlgorithm::KChain: return "chain";
    case BcastAlgorithm::Chain: return "pipeline";
    case BcastAlgorithm::SplitBinary: return "split_binary";
    case BcastAlgorithm::Binary: return "binary";
    case BcastAlgorithm::Binomial: return "binomial";
  }
  return "linear";
}

}  // namespace contend::taulop
