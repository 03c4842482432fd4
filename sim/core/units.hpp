#pragma once
// Quantities with units, as written in platform files and on the command line.
//
//   bandwidth  12.5GB/s  100Mbps  10.2GB/s  plain number = B/s
//              decimal prefixes (1 GB/s = 1e9 B/s), binary ones with 'i' (1 GiB/s = 2^30 B/s),
//              'b' is bits: 100Mbps = 100e6/8 B/s
//   duration   1.7us  5ms  0.5ns  plain number = seconds
//   size       4096  8KiB  16K  1MB   K/M/G alone are binary (16K = 16384), kB/MB/GB decimal
//   speed      2.25Gf  2.25e9  1Gflop/s   plain number = flop/s
//   flops      2Gf  1e9flops  5Mf        an amount of computation, flop
//
// Each parser returns nothing when the text is not a valid quantity, or is
// one outside contend's limits (sim/core/limits.hpp: a bandwidth of 1 B/s to
// 1 PB/s, a duration of at most 1e9 s, a size of at most 1 TiB, ...): a
// value that overflows as it is scaled ("1e308GB/s") is refused, never
// infinite. Callers turn that into an error naming where the text came
// from: limit_breach() says which limit, when one was broken.
//
// The formatters write quantities back: in the parsers' syntax for the files
// contend writes ("12.5GB/s", "1.7us", "64KiB"), and in human-readable forms
// for summaries ("1.234 ms", "12.34 KiB"), which are not read back.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace contend::units {

std::optional<double> parse_bandwidth(std::string_view text);
std::optional<double> parse_duration(std::string_view text);
std::optional<std::uint64_t> parse_size(std::string_view text);
std::optional<double> parse_speed(std::string_view text);
std::optional<double> parse_flops(std::string_view text);

// When parse_X refused a text that does read as a quantity of that kind,
// the limit it breaks: "the bandwidth '1e308GB/s' is outside contend's
// limits, 1 B/s to 1e15 B/s (docs/limits.md)"; empty otherwise (the text is
// not such a quantity, or was accepted).
enum class QuantityKind { bandwidth, duration, size, speed, flops };
std::string limit_breach(QuantityKind kind, std::string_view text);

// What each parser accepts, for error messages.
inline constexpr std::string_view kBandwidthHelp = "a bandwidth such as 12.5GB/s, 100Mbps or 1e9 (B/s)";
inline constexpr std::string_view kDurationHelp = "a duration such as 1.7us, 5ms or 2e-6 (s)";
inline constexpr std::string_view kSizeHelp = "a size in bytes such as 4096, 8KiB, 16K or 1MB";
inline constexpr std::string_view kSpeedHelp = "a speed such as 2.25Gf or 2.25e9 (flop/s)";

// --- Text that the parsers read back (platform-file syntax) ---
// Four significant digits in the unit that keeps the number between 1 and
// 1000; the value is rounded to four digits before the unit is chosen, so that
// 999.99996 us is "1ms", not "1000us".
std::string format_duration(double seconds);            // "85.31us", "1.5ms", "0us"; negative: "-2us"
std::string format_bandwidth(double bytes_per_second);  // "11.93MB/s", "2.5GB/s"; below 1 kB/s plain B/s

// Whole KiB or MiB with their suffix, anything else in bytes: "4KiB", "3MiB",
// "1000" (SizeSuffix::iec), or "4K", "3M" (SizeSuffix::letter, as --sizes takes them).
enum class SizeSuffix { iec, letter };
std::string format_size(std::uint64_t bytes, SizeSuffix suffix = SizeSuffix::iec);

// --- Human-readable forms for summaries ---
std::string human_duration(double seconds);  // "0 s", "850.000 ns", "1.234 ms", "2.000 s"
std::string human_size(double bytes);        // "512 B", "12.34 KiB", "1.50 GiB"

// A number in a unit that the text around it names ("tau 1.5 us", a column
// "[ms]"): `digits` significant digits of the value in that unit.
std::string in_microseconds(double seconds, int digits = 4);
std::string in_milliseconds(double seconds, int digits = 4);
std::string in_giga(double value, int digits = 4);  // GB/s, Gflop/s

}  // namespace contend::units
