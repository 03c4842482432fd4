#pragma once
#include "sim/engine/model.hpp"

namespace contend {

// Martinasso & Mehaut's flow-cut conflict model (INRIA RR-5910, 2006): flows
// in an elementary conflict move at 1/(1 + cut) of their contention-free rate,
// conflicts re-evaluated at every flow start and end. See
// models/flowcut/README.md.
ModelInfo flowcut_model_info();

}  // namespace contend
