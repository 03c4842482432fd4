// Units: every parser and the limit it names.
#include "sim/core/size_list.hpp"
#include "sim/core/units.hpp"
#include "tests/fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend;
  return fuzz::run(data, size, [](const std::string& text) {
    (void)units::parse_bandwidth(text);
    (void)units::parse_duration(text);
    (void)units::parse_size(text);
    (void)units::parse_speed(text);
    (void)units::parse_flops(text);
    for (auto kind : {units::QuantityKind::bandwidth, units::QuantityKind::duration, units::QuantityKind::size,
                      units::QuantityKind::speed, units::QuantityKind::flops}) {
      (void)units::limit_breach(kind, text);
    }
    (void)parse_size_list(text, "--sizes");
  });
}
