// SimGrid TI trace lines, in both dialects, on a world of 4 ranks (and a
// communicator 1 of 2), and the recorded-speed comment.
#include <algorithm>

#include "tests/fuzz/fuzz_target.hpp"
#include "traces/formats/ti_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend;
  return fuzz::run(data, size, [](const std::string& text) {
    const CommSizeLookup comms = [](int id) -> std::optional<int> {
      if (id == 1) return 2;
      return std::nullopt;
    };
    std::size_t begin = 0;
    int line = 0;
    while (begin <= text.size()) {
      const std::size_t end = std::min(text.find('\n', begin), text.size());
      const std::string_view one(text.data() + begin, end - begin);
      ++line;
      for (auto dialect : {TiDialect::simgrid_3_20, TiDialect::before_3_20}) {
        try {
          if (auto action = parse_ti_line(one, "fuzz.txt", line, 4, comms, dialect)) {
            (void)format_ti_action(*action);
            (void)ti_bytes(action->count < 0 ? 0 : action->count, action->datatype1, false,
                           SourceLocation{"fuzz.txt", line, 1});
          }
        } catch (const Error&) {
        }
      }
      (void)ti_recorded_speed(one, "fuzz.txt", line);
      begin = end + 1;
    }
  });
}
