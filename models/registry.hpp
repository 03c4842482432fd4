#pragma once
#include "sim/engine/model.hpp"

namespace contend {

// Every model contend knows, by name.
const ModelRegistry& all_models();

}  // namespace contend
