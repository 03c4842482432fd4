// Platform YAML: the whole file, as `contend platform` reads it.
#include "sim/core/platform.hpp"
#include "sim/core/yaml_field.hpp"
#include "tests/fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend;
  return fuzz::run(data, size,
                   [](const std::string& text) { (void)parse_platform(YamlField::load_string(text, "fuzz.yaml")); });
}
