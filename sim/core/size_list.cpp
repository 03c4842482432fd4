#include "sim/core/size_list.hpp"

#include <string>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/units.hpp"

namespace contend {
namespace {

std::uint64_t size_or_fail(std::string_view text, std::string_view option) {
  const auto size = units::parse_size(text);
  if (!size) {
    if (auto breach = units::limit_breach(units::QuantityKind::size, text); !breach.empty()) {
      throw LimitError(std::string(option) + ": " + breach);
    }
  }
  if (!size || *size == 0) {
    throw Error(std::string(option) +
                ": expected sizes: A:B (powers of two from A to B), or a comma list of sizes and ranges (each size " +
                std::string(units::kSizeHelp) + ", at least 1), got '" + std::string(text) + "'");
  }
  return *size;
}

}  // namespace

std::vector<std::uint64_t> parse_size_list(std::string_view text, std::string_view option) {
  std::vector<std::uint64_t> sizes;
  std::size_t begin = 0;
  while (true) {
    if (sizes.size() > limits::kMaxSizeListEntries) {
      throw LimitError(std::string(option) + ": " +
                       limits::exceeds("the list", std::to_string(limits::kMaxSizeListEntries) + " sizes"));
    }
    const auto comma = text.find(',', begin);
    const auto item = text.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
    if (const auto colon = item.find(':'); colon != std::string_view::npos) {
      const std::uint64_t first = size_or_fail(item.substr(0, colon), option);
      const std::uint64_t last = size_or_fail(item.substr(colon + 1), option);
      if (last < first)
        throw Error(std::string(option) + ": the range '" + std::string(item) + "' ends below its start");
      for (std::uint64_t k = first; k <= last && k >= first; k *= 2) sizes.push_back(k);  // k >= first: no overflow
    } else {
      sizes.push_back(size_or_fail(item, option));
    }
    if (comma == std::string_view::npos) return sizes;
    begin = comma + 1;
  }
}

}  // namespace contend
