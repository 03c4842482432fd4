// Pattern files.
#include <sstream>

#include "sim/core/pattern.hpp"
#include "tests/fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend;
  return fuzz::run(data, size, [](const std::string& text) {
    std::istringstream in(text);
    (void)read_pattern(in, "fuzz.pattern");
  });
}
