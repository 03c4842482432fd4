#pragma once
#include "sim/engine/model.hpp"

namespace contend {

// SimGrid's own max-min fair sharing (LMM solver, CM02 network model) over
// the platform's links. See maxmin.cpp and README "Models".
ModelInfo maxmin_model_info();

}  // namespace contend
