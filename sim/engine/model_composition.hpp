#pragma once
// Composed models (`--model`), docs/models.md#composing-models:
//
//   COMPOSITION := PART | LEVELS=PART {,LEVELS=PART}
//   PART        := MODEL | MODEL+OVERHEADS
//   LEVELS      := intra (intra_socket and inter_socket) | inter (inter_node)
//                | intra_socket | inter_socket | inter_node
//
// MODEL moves the data; OVERHEADS (a model whose ModelInfo says it charges
// CPU overheads: loggops) adds its CPU overheads and gaps on top
// (overheads_on_top.hpp). With levels, each message is handed to the part of
// its level (per_level_model.hpp); every level must be given exactly once.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/model.hpp"

namespace contend {

struct ModelPart {
  std::string data;       // the model that moves the data
  std::string overheads;  // the model whose CPU overheads are added, or ""
  std::string text() const { return overheads.empty() ? data : data + "+" + overheads; }
  bool operator==(const ModelPart&) const = default;
};

// The part of each level, by Level (intra_socket, inter_socket, inter_node).
using ModelComposition = std::array<ModelPart, 3>;

// Whether `name` is written in the composition grammar (has '+', '=' or ',').
bool is_composed_model_name(std::string_view name);

// Parses `text`, checking every name against `registry`: errors name the
// offending token, with a "did you mean".
ModelComposition parse_model_composition(std::string_view text, const ModelRegistry& registry);

// The ModelInfo of a composition: validate checks every part's section of the
// platform file, create builds the parts (one instance per distinct part).
ModelInfo composed_model_info(std::string_view text, const ModelRegistry& registry);

// The grammar, for `contend models`.
std::string model_composition_help();

}  // namespace contend
