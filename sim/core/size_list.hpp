#pragma once
// Lists of message sizes as the command line takes them: "16K:4M" (powers of
// two from the first to the last: 16K, 32K, ..., 4M), "16K,64K,1M", or both
// mixed ("1:1K,3000"). Each size is a units::parse_size text of at least 1.
#include <cstdint>
#include <string_view>
#include <vector>

namespace contend {

// Errors start with `option`:
//   --sizes: expected sizes: A:B (powers of two from A to B), or a comma list
//     of sizes and ranges (each size a size in bytes such as ..., at least 1), got '4x'
//   --sizes: the range '4M:16K' ends below its start
std::vector<std::uint64_t> parse_size_list(std::string_view text, std::string_view option);

}  // namespace contend
