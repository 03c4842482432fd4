#pragma once
#include "sim/engine/model.hpp"

namespace contend {

// LogGOPS (Hoefler et al., LogGOPSim; Bacon et al., EuroMPI 2023): latency,
// per-message and per-byte CPU overheads per datatype, NIC gaps, protocol
// ranges split at the eager threshold. See models/loggops/README.md.
ModelInfo loggops_model_info();

}  // namespace contend
