#pragma once
#include "models/staircase/staircase_sharing.hpp"
#include "sim/engine/model.hpp"

namespace contend {

// Thune et al.'s staircase contention model (IEEE TPDS 2023), simulated. See
// models/staircase/README.md.
ModelInfo staircase_model_info();

// The model's options from its platform section (models.staircase), with
// file:line errors.
StaircaseOptions parse_staircase_options(const YamlField& section);

}  // namespace contend
