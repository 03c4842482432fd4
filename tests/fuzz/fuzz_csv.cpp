// The CSV reader with the columns of each of its users (compare, progress,
// pingpong --measured, fit-multipair, fit-loggops, fit-flowcut, fit-taulop):
// the first byte picks the set, every field is read as each type.
#include <sstream>

#include "sim/core/csv.hpp"
#include "tests/fuzz/fuzz_target.hpp"

namespace {

const std::vector<contend::CsvColumns>& column_sets() {
  using contend::CsvColumns;
  static const std::vector<CsvColumns> sets = {
      CsvColumns{.required = {"rank"}},
      CsvColumns{.required = {"rank", "time_s"}, .former_names = {{"time_s", "time"}}},
      CsvColumns{.required = {"bytes", "seconds"}, .optional = {"datatype"}, .only_known = true},
      CsvColumns{.required = {"level", "direction", "P", "N", "size", "repeats", "sample", "time_s"},
                 .former_names = {{"time_s", "time"}}},
      CsvColumns{.required = {"datatype", "bytes", "count", "quantity", "n", "delay_s", "repetition", "time_s"},
                 .former_names = {{"delay_s", "delay"}, {"time_s", "time"}}},
      CsvColumns{.required = {"conflict", "repetition", "flow", "src", "dst", "bytes", "seconds"}},
      CsvColumns{.required = {"experiment", "channel", "algorithm", "ompi_algorithm", "segment", "fanout", "P", "nodes",
                              "size", "calls", "sample", "time_s"},
                 .former_names = {{"time_s", "time"}}},
  };
  return sets;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contend;
  if (size == 0) return 0;
  const contend::CsvColumns& columns = column_sets()[data[0] % column_sets().size()];
  return fuzz::run(data + 1, size - 1, [&](const std::string& text) {
    std::istringstream in(text);
    const CsvFile csv = CsvFile::read(in, "fuzz.csv", columns);
    for (const auto& row : csv.rows()) {
      for (const auto& column : columns.required) {
        for (int kind = 0; kind < 4; ++kind) {
          try {
            if (kind == 0) (void)row.number(column);
            if (kind == 1) (void)row.seconds(column);
            if (kind == 2) (void)row.count(column);
            if (kind == 3) (void)row.size(column);
          } catch (const Error&) {
          }
        }
      }
    }
  });
}
