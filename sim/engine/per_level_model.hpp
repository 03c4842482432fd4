#pragma once
// `--model intra=A,inter=B`: each message is handed to the model of its
// level (docs/models.md#composing-models). The parts share nothing: a
// resource two parts both model (a node's memory, say) is shared by each
// part among its own flows only.
#include <array>
#include <memory>
#include <string_view>
#include <vector>

#include "sim/engine/model.hpp"

namespace contend {

// `parts` are the distinct models; part_of[level] the index of the level's;
// `sink` the engine's (the level of a transfer). Throws when the parts do not
// deliver the same way (simgrid-lmm's SimGrid activities, which the ranks
// await, next to a fluid model, which delivers by itself).
std::unique_ptr<CommunicationModel> per_level_model(std::string_view name, TransferSink& sink,
                                                    std::vector<std::unique_ptr<CommunicationModel>> parts,
                                                    const std::array<std::size_t, 3>& part_of);

}  // namespace contend
