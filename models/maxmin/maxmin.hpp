#pragma once
#include "sim/engine/model.hpp"

namespace contend {

// Max-min fair sharing of the platform's links exactly as SimGrid's LMM
// solver shares them (CM02 network model; Casanova et al., JPDC 2014),
// computed by contend's own incremental solver. See models/maxmin/README.md.
ModelInfo maxmin_model_info();

}  // namespace contend
