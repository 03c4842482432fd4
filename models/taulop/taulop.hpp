#pragma once
#include "sim/engine/model.hpp"

namespace contend {

// tau-Lop (Rico-Gallego et al.) as used by Nuriyev, Rico-Gallego, Lastovetsky
// (JPDC 2022, Sec. 4): a message is a sequence of transfers over shared-memory
// and network channels; concurrent transfers on a channel slow each other by
// the channel's concurrency table. See models/taulop/README.md.
ModelInfo taulop_model_info();

}  // namespace contend
