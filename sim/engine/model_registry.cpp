#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"
#include "sim/engine/model.hpp"
#include "sim/engine/model_composition.hpp"

namespace contend {

void ModelRegistry::add(ModelInfo info) {
  for (const auto& m : models_) {
    if (m.name == info.name) throw std::logic_error("model registered twice: " + info.name);
  }
  models_.push_back(std::move(info));
}

std::vector<std::string> ModelRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& m : models_) out.push_back(m.name);
  return out;
}

ModelInfo ModelRegistry::get(std::string_view name) const {
  for (const auto& m : models_) {
    if (m.name == name) return m;
  }
  if (is_composed_model_name(name)) return composed_model_info(name, *this);
  throw Error("unknown model '" + std::string(name) + "'" + did_you_mean(name, names()) +
              "; valid models: " + join(names()));
}

void ModelRegistry::validate_platform(const Platform& platform) const {
  if (!platform.default_model.empty()) {
    try {
      get(platform.default_model);
    } catch (const Error& e) {
      platform.default_model_field.fail_with(e.what());
    }
  }
  if (!platform.models.present()) return;
  for (const auto& [key, section] : platform.models.entries()) {
    const std::string name = key.as_string();
    bool known = false;
    for (const auto& m : models_) {
      if (m.name == name) {
        known = true;
        if (m.validate) m.validate(platform, section);
      }
    }
    if (!known) {
      key.fail_with("unknown model '" + name + "'" + did_you_mean(name, names()) + "; valid models: " + join(names()));
    }
  }
}

}  // namespace contend
