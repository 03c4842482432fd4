#include "models/loggops/pingpong_measurements.hpp"

#include <algorithm>
#include <vector>

#include "sim/core/csv.hpp"
#include "sim/core/datatype.hpp"
#include "sim/core/error.hpp"

namespace contend {
namespace {

constexpr std::string_view kRoundTrip = "a round-trip time > 0";

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::map<std::uint64_t, double> read_pingpong_medians(const std::string& path, const std::string& datatype) {
  const CsvFile csv = CsvFile::read(
      path, CsvColumns{.required = {"bytes", "seconds"}, .header_error = [](std::string_view) {
                         return std::string(
                             "expected a header with columns 'bytes' and 'seconds' (and optionally 'datatype')");
                       }});
  std::map<std::uint64_t, std::vector<double>> samples;
  for (const auto& row : csv.rows()) {
    if (csv.has_column("datatype")) {
      std::string error;
      const auto type = parse_datatype(row.text("datatype"), error);
      if (!type) row.fail("datatype", "datatype: expected " + error);
      if (type->name() != datatype) continue;
    }
    const std::uint64_t bytes = row.size("bytes");
    const double seconds = row.number("seconds", kRoundTrip);
    if (!(seconds > 0)) row.expected("seconds", kRoundTrip);
    samples[bytes].push_back(seconds);
  }
  std::map<std::uint64_t, double> medians;
  for (auto& [k, v] : samples) medians[k] = median(std::move(v));
  return medians;
}

}  // namespace contend
