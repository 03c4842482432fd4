#pragma once
#include "sim/engine/model.hpp"

namespace contend {

// tau-Lop (Rico-Gallego et al.) as used by Nuriyev, Rico-Gallego, Lastovetsky
// (JPDC 2022, Sec. 4): a message is a sequence of transfers over shared-memory
// and network channels; concurrent transfers on a channel slow each other by
// the channel's concurrency table. See transfer_model.hpp and README "taulop".
ModelInfo taulop_model_info();

}  // namespace contend
