// The list of models. Adding a model: a folder models/<name>/ with its
// CMakeLists.txt and a `ModelInfo <name>_model_info()`, plus one line below.
#include "registry.hpp"

#include "flowcut/flowcut.hpp"
#include "loggops/loggops.hpp"
#include "maxmin/maxmin.hpp"
#include "staircase/staircase.hpp"
#include "taulop/taulop.hpp"

namespace contend {

const ModelRegistry& all_models() {
  static const ModelRegistry registry = [] {
    ModelRegistry r;
    r.add(maxmin_model_info());
    r.add(staircase_model_info());
    r.add(flowcut_model_info());
    r.add(loggops_model_info());
    r.add(taulop_model_info());
    return r;
  }();
  return registry;
}

}  // namespace contend
