#pragma once
#include "sim/engine/model.hpp"

namespace contend {

// SimGrid's own max-min fair sharing (LMM solver, CM02 network model) over
// the platform's links (Casanova et al., JPDC 2014): the reference that
// `maxmin` reproduces. See models/simgrid_lmm/README.md.
ModelInfo simgrid_lmm_model_info();

}  // namespace contend
