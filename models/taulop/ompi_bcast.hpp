#pragma once
// Open MPI's coll_tuned broadcast algorithms that Nuriyev et al. model
// (JPDC 2022, Sec. 3), by Open MPI's names (coll_tuned_bcast_algorithm ids
// 1 linear, 2 chain with fanout K, 3 pipeline = chain of fanout 1, 4
// split_binary, 5 binary, 6 binomial). Knomial and the scatter-allgather
// broadcasts have no model.
#include <optional>
#include <string_view>

#include "models/taulop/parameters.hpp"

namespace contend::taulop {

// The model of Open MPI's `ompi_algorithm` run with chain fanout `fanout`,
// or nothing when the paper has none.
std::optional<BcastAlgorithm> modelled_bcast(std::string_view ompi_algorithm, int fanout);
// Open MPI's name of the algorithm a model describes (to force it).
std::string_view ompi_bcast_name(BcastAlgorithm algorithm);

}  // namespace contend::taulop
