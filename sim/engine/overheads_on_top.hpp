#pragma once
// `--model A+loggops`: model A moves the data, the overheads model (loggops)
// charges its CPU costs on top (docs/models.md#composing-models):
//  - the sender's CPU is busy o_s + O_s k from the post; the data is handed
//    to A when that ends (LogP's order: o_s, then the wire, then o_r);
//  - the receiver's CPU is busy o_r + O_r k once the last byte is in;
//  - on each rank, consecutive sends (and, separately, consecutive receives)
//    begin at least the gap g apart, the CPU waiting meanwhile.
// The overheads model's own wire (L, G and the NIC gap it charges there) is
// not used: A's route, latency and sharing decide when the data arrives.
#include <memory>

#include "sim/engine/model.hpp"

namespace contend {

std::unique_ptr<CommunicationModel> add_overheads_on_top(const ModelContext& context,
                                                         std::unique_ptr<CommunicationModel> data,
                                                         std::unique_ptr<CommunicationModel> overheads);

}  // namespace contend
