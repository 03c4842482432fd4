#include "sim/engine/model_composition.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/engine/overheads_on_top.hpp"
#include "sim/engine/per_level_model.hpp"

namespace contend {
namespace {

// The level words and the levels each covers.
struct LevelWord {
  std::string_view word;
  std::vector<Level> levels;
};
const std::vector<LevelWord>& level_words() {
  static const std::vector<LevelWord> words = {
      {"intra", {Level::IntraSocket, Level::InterSocket}},
      {"inter", {Level::InterNode}},
      {"intra_socket", {Level::IntraSocket}},
      {"inter_socket", {Level::InterSocket}},
      {"inter_node", {Level::InterNode}},
  };
  return words;
}

std::vector<std::string> level_word_names() {
  std::vector<std::string> out;
  for (const auto& w : level_words()) out.emplace_back(w.word);
  return out;
}

const ModelInfo& registered(std::string_view name, std::string_view text, const ModelRegistry& registry) {
  if (name.empty()) throw Error(fmt::format("model '{}': a model name is missing", text));
  for (const auto& m : registry.all()) {
    if (m.name == name) return m;
  }
  throw Error(fmt::format("model '{}': unknown model '{}'{}; valid models: {}", text, name,
                          did_you_mean(name, registry.names()), join(registry.names())));
}

std::vector<std::string> overhead_models(const ModelRegistry& registry) {
  std::vector<std::string> out;
  for (const auto& m : registry.all()) {
    if (m.charges_cpu_overheads) out.push_back(m.name);
  }
  return out;
}

// MODEL or MODEL+OVERHEADS.
ModelPart parse_part(std::string_view part, std::string_view text, const ModelRegistry& registry) {
  ModelPart out;
  const auto plus = part.find('+');
  const std::string_view data = trim(part.substr(0, plus));
  const ModelInfo& mover = registered(data, text, registry);
  out.data = mover.name;
  if (plus == std::string_view::npos) return out;
  const std::string_view overheads = trim(part.substr(plus + 1));
  if (overheads.find('+') != std::string_view::npos) {
    throw Error(fmt::format("model '{}': '{}' adds more than one model on top; write DATA+OVERHEADS", text, part));
  }
  const ModelInfo& adder = registered(overheads, text, registry);
  if (!adder.charges_cpu_overheads) {
    throw Error(fmt::format("model '{}': '{}' charges no CPU overheads to add on top of '{}'; models that do: {}", text,
                            adder.name, mover.name, join(overhead_models(registry))));
  }
  if (mover.charges_cpu_overheads) {
    throw Error(
        fmt::format("model '{}': '{}' already charges CPU overheads; put a model without them (one of the "
                    "contention models) before the '+'",
                    text, mover.name));
  }
  out.overheads = adder.name;
  return out;
}

}  // namespace

bool is_composed_model_name(std::string_view name) { return name.find_first_of("+=,") != std::string_view::npos; }

ModelComposition parse_model_composition(std::string_view text, const ModelRegistry& registry) {
  if (text.find('=') == std::string_view::npos) {
    if (text.find(',') != std::string_view::npos) {
      throw Error(fmt::format("model '{}': a list of models needs a level for each (intra=MODEL,inter=MODEL)", text));
    }
    const ModelPart part = parse_part(text, text, registry);
    return {part, part, part};
  }
  std::array<std::optional<ModelPart>, 3> by_level;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view item = text.substr(begin, comma - begin);
    begin = comma + 1;
    const auto equals = item.find('=');
    if (equals == std::string_view::npos) {
      throw Error(fmt::format("model '{}': '{}' has no level; write LEVEL=MODEL, LEVEL one of {}", text, trim(item),
                              join(level_word_names())));
    }
    const std::string_view word = trim(item.substr(0, equals));
    const LevelWord* level = nullptr;
    for (const auto& w : level_words()) {
      if (w.word == word) level = &w;
    }
    if (level == nullptr) {
      throw Error(fmt::format("model '{}': unknown level '{}'{}; levels: {}", text, word,
                              did_you_mean(word, level_word_names()), join(level_word_names())));
    }
    const ModelPart part = parse_part(item.substr(equals + 1), text, registry);
    for (Level l : level->levels) {
      auto& slot = by_level[static_cast<std::size_t>(l)];
      if (slot) throw Error(fmt::format("model '{}': level {} is given twice", text, level_name(l)));
      slot = part;
    }
  }
  ModelComposition out;
  for (std::size_t l = 0; l < by_level.size(); ++l) {
    const Level level = static_cast<Level>(l);
    if (!by_level[l]) {
      throw Error(fmt::format("model '{}': level {} has no model (add {}=MODEL or {}=MODEL)", text, level_name(level),
                              level == Level::InterNode ? "inter" : "intra", level_name(level)));
    }
    out[l] = *by_level[l];
  }
  return out;
}

ModelInfo composed_model_info(std::string_view text, const ModelRegistry& registry) {
  const ModelComposition composition = parse_model_composition(text, registry);
  // The distinct parts, each built once: levels naming the same part share
  // one instance of it (so intra=A,inter=A is A).
  std::vector<ModelPart> parts;
  std::array<std::size_t, 3> part_of{};
  for (std::size_t l = 0; l < composition.size(); ++l) {
    auto it = std::find(parts.begin(), parts.end(), composition[l]);
    if (it == parts.end()) it = parts.insert(parts.end(), composition[l]);
    part_of[l] = static_cast<std::size_t>(it - parts.begin());
  }
  std::vector<std::pair<ModelInfo, ModelInfo>> infos;  // data model, overheads model (name empty if none)
  for (const auto& p : parts) {
    infos.emplace_back(registry.get(p.data), p.overheads.empty() ? ModelInfo{} : registry.get(p.overheads));
  }

  ModelInfo info;
  info.name = std::string(text);
  info.description = "composed: " + std::string(text);
  info.validate = [infos](const Platform& platform, const YamlField&) {
    for (const auto& [data, overheads] : infos) {
      if (data.validate) data.validate(platform, platform.model_section(data.name));
      if (!overheads.name.empty() && overheads.validate) {
        overheads.validate(platform, platform.model_section(overheads.name));
      }
    }
  };
  info.create = [infos, part_of, text = std::string(text)](const ModelContext& c) {
    auto build = [&c](const ModelInfo& m) {
      ModelContext own = c;
      own.parameters = c.platform.model_section(m.name);
      return m.create(own);
    };
    std::vector<std::unique_ptr<CommunicationModel>> models;
    for (const auto& [data, overheads] : infos) {
      auto mover = build(data);
      if (!overheads.name.empty()) mover = add_overheads_on_top(c, std::move(mover), build(overheads));
      models.push_back(std::move(mover));
    }
    if (models.size() == 1) return std::move(models.front());
    return per_level_model(text, c.sink, std::move(models), part_of);
  };
  return info;
}

std::string model_composition_help() {
  return "Compositions (--model):\n"
         "  A+loggops            model A moves the data; loggops' CPU overheads (o + O k) and gaps (g) are charged on "
         "top\n"
         "  intra=A,inter=B      each message goes to the model of its level: intra (intra_socket and inter_socket),\n"
         "                       inter (inter_node), or intra_socket=, inter_socket=, inter_node= separately;\n"
         "                       every level once; each part may be A+loggops "
         "(intra=staircase,inter=flowcut+loggops)\n";
}

}  // namespace contend
