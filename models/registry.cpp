// The list of models. Adding a model: a folder models/<name>/ with its
// CMakeLists.txt and a `ModelInfo <name>_model_info()`, plus one line below.
#include "models/registry.hpp"

#include "models/flowcut/flowcut.hpp"
#include "models/loggops/loggops.hpp"
#include "models/maxmin/maxmin.hpp"
#include "models/simgrid_lmm/simgrid_lmm.hpp"
#include "models/staircase/staircase.hpp"
#include "models/taulop/taulop.hpp"

namespace contend {

const ModelRegistry& all_models() {
  static const ModelRegistry registry = [] {
    ModelRegistry r;
    r.add(maxmin_model_info());
    r.add(simgrid_lmm_model_info());
    r.add(staircase_model_info());
    r.add(flowcut_model_info());
    r.add(loggops_model_info());
    r.add(taulop_model_info());
    return r;
  }();
  return registry;
}

}  // namespace contend
