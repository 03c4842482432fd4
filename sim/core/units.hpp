#pragma once
// Quantities with units, as written in platform files and on the command line.
//
//   bandwidth  12.5GB/s  100Mbps  10.2GB/s  plain number = B/s
//              decimal prefixes (1 GB/s = 1e9 B/s), binary ones with 'i' (1 GiB/s = 2^30 B/s),
//              'b' is bits: 100Mbps = 100e6/8 B/s
//   duration   1.7us  5ms  0.5ns  plain number = seconds
//   size       4096  8KiB  16K  1MB   K/M/G alone are binary (16K = 16384), kB/MB/GB decimal
//   speed      2.25Gf  2.25e9  1Gflop/s   plain number = flop/s
//
// Each parser returns nothing when the text is not a valid quantity; callers
// turn that into an error naming where the text came from.
#include <cstdint>
#include <optional>
#include <string_view>

namespace contend::units {

std::optional<double> parse_bandwidth(std::string_view text);
std::optional<double> parse_duration(std::string_view text);
std::optional<std::uint64_t> parse_size(std::string_view text);
std::optional<double> parse_speed(std::string_view text);

// What each parser accepts, for error messages.
inline constexpr std::string_view kBandwidthHelp = "a bandwidth such as 12.5GB/s, 100Mbps or 1e9 (B/s)";
inline constexpr std::string_view kDurationHelp = "a duration such as 1.7us, 5ms or 2e-6 (s)";
inline constexpr std::string_view kSizeHelp = "a size in bytes such as 4096, 8KiB, 16K or 1MB";
inline constexpr std::string_view kSpeedHelp = "a speed such as 2.25Gf or 2.25e9 (flop/s)";

}  // namespace contend::units
