#include "sim/core/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/limits.hpp"
#include "sim/core/text.hpp"

namespace contend::units {
namespace {

struct Quantity {
  std::string_view number;  // as written, e.g. "12.5"
  std::string_view unit;    // e.g. "GB/s"
};

// Splits "12.5GB/s" into "12.5" and "GB/s". Fails on a missing or malformed
// number; a number too large for a double ("1e400") is kept: it is a valid
// quantity that lies outside contend's limits.
std::optional<Quantity> split_number(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  double value = 0;
  const auto* begin = text.data();
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if ((ec != std::errc{} && ec != std::errc::result_out_of_range) || ptr == begin) return std::nullopt;
  if (ec == std::errc{} && !std::isfinite(value)) return std::nullopt;  // "inf", "nan": not quantities
  const auto length = static_cast<std::size_t>(ptr - begin);
  return Quantity{text.substr(0, length), trim(text.substr(length))};
}

// number x 10^exponent, rounded once: "1.7" and -6 give exactly the double
// nearest to 1.7e-6 (multiplying 1.7 by 1e-6 would round twice). Numbers
// beyond a double's range become infinity (or 0 when they underflow).
double scale_decimal(std::string_view number, int exponent) {
  std::string text(number);
  double factor = 1;
  if (text.find_first_of("eE") == std::string::npos) {
    text += "e" + std::to_string(exponent);
  } else {
    factor = std::pow(10.0, exponent);  // already has an exponent: one more rounding
  }
  double value = 0;
  // locale-independent, unlike stod
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    // Overflow or underflow: tell them apart by the exponent's sign.
    const auto e = text.find_first_of("eE");
    const bool negative_exponent = e != std::string::npos && e + 1 < text.size() && text[e + 1] == '-';
    value = negative_exponent ? 0.0 : std::numeric_limits<double>::infinity();
  }
  (void)ptr;
  return value * factor;
}

// A unit is a power of ten (exact decimal scaling) times a factor (binary
// prefixes, bits).
struct Unit {
  std::string name;
  int exponent;
  double factor;
};
using UnitTable = std::vector<Unit>;

std::optional<double> scaled(std::string_view text, const UnitTable& table) {
  auto q = split_number(text);
  if (!q) return std::nullopt;
  for (const auto& unit : table) {
    if (q->unit == unit.name) return scale_decimal(q->number, unit.exponent) * unit.factor;
  }
  return std::nullopt;
}

const UnitTable& bandwidth_units() {
  static const UnitTable table = [] {
    UnitTable t{{"", 0, 1.0}};
    const std::vector<Unit> prefixes = {
        {"", 0, 1.0},   {"k", 3, 1.0},     {"K", 3, 1.0},        {"M", 6, 1.0},           {"G", 9, 1.0},
        {"T", 12, 1.0}, {"Ki", 0, 1024.0}, {"Mi", 0, 1048576.0}, {"Gi", 0, 1073741824.0}, {"Ti", 0, 1099511627776.0}};
    for (const auto& p : prefixes) {
      t.push_back({p.name + "B/s", p.exponent, p.factor});
      t.push_back({p.name + "Bps", p.exponent, p.factor});
      t.push_back({p.name + "b/s", p.exponent, p.factor / 8.0});
      t.push_back({p.name + "bps", p.exponent, p.factor / 8.0});
    }
    return t;
  }();
  return table;
}

}  // namespace

namespace {

const UnitTable& duration_units() {
  static const UnitTable table = {{"", 0, 1.0},    {"s", 0, 1.0},   {"ms", -3, 1.0}, {"us", -6, 1.0},
                                  {"µs", -6, 1.0}, {"ns", -9, 1.0}, {"ps", -12, 1.0}};
  return table;
}

const UnitTable& size_units() {
  static const UnitTable table = {
      {"", 0, 1.0},           {"B", 0, 1.0},      {"k", 0, 1024.0},      {"K", 0, 1024.0},         {"M", 0, 1048576.0},
      {"G", 0, 1073741824.0}, {"KiB", 0, 1024.0}, {"MiB", 0, 1048576.0}, {"GiB", 0, 1073741824.0}, {"kB", 3, 1.0},
      {"KB", 3, 1.0},         {"MB", 6, 1.0},     {"GB", 9, 1.0}};
  return table;
}

// Speeds (flop/s) and amounts of computation (flop) share their syntax.
const UnitTable& flop_units() {
  static const UnitTable table = [] {
    UnitTable t{{"", 0, 1.0}};
    for (const auto& [prefix, exponent] :
         std::vector<std::pair<std::string, int>>{{"", 0}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}}) {
      for (const char* suffix : {"f", "flops", "flop/s"}) t.push_back({prefix + suffix, exponent, 1.0});
    }
    return t;
  }();
  return table;
}

// A quantity's value as written (syntax only: any value, infinity for one
// beyond a double), and whether it lies within contend's limits.
struct Reading {
  std::optional<double> value;
  bool valid = false;  // a quantity of this kind at all (e.g. a bandwidth > 0)
  bool within = false;
};

Reading read(QuantityKind kind, std::string_view text) {
  using namespace limits;
  Reading r;
  switch (kind) {
    case QuantityKind::bandwidth:
      r.value = scaled(text, bandwidth_units());
      r.valid = r.value && *r.value > 0;
      r.within = r.valid && *r.value >= kMinBandwidth && *r.value <= kMaxBandwidth;
      break;
    case QuantityKind::duration:
      r.value = scaled(text, duration_units());
      r.valid = r.value && *r.value >= 0;
      r.within = r.valid && *r.value <= kMaxDuration;
      break;
    case QuantityKind::size: {
      r.value = scaled(text, size_units());
      r.valid = r.value && *r.value >= 0;
      if (r.valid && std::isfinite(*r.value)) {
        const double rounded = std::round(*r.value);
        r.valid = std::fabs(rounded - *r.value) <= 1e-9 * std::max(1.0, *r.value);  // no fractional bytes
      }
      r.within = r.valid && *r.value <= static_cast<double>(kMaxMessageBytes);
      break;
    }
    case QuantityKind::speed:
      r.value = scaled(text, flop_units());
      r.valid = r.value && *r.value > 0;
      r.within = r.valid && *r.value >= kMinSpeed && *r.value <= kMaxSpeed;
      break;
    case QuantityKind::flops:
      r.value = scaled(text, flop_units());
      r.valid = r.value && *r.value > 0;
      r.within = r.valid && *r.value <= kMaxFlops;
      break;
  }
  return r;
}

std::optional<double> accepted(QuantityKind kind, std::string_view text) {
  const Reading r = read(kind, text);
  if (!r.within) return std::nullopt;
  return r.value;
}

}  // namespace

std::optional<double> parse_bandwidth(std::string_view text) { return accepted(QuantityKind::bandwidth, text); }

std::optional<double> parse_duration(std::string_view text) { return accepted(QuantityKind::duration, text); }

std::optional<std::uint64_t> parse_size(std::string_view text) {
  const auto v = accepted(QuantityKind::size, text);
  if (!v) return std::nullopt;
  return static_cast<std::uint64_t>(std::round(*v));
}

std::optional<double> parse_speed(std::string_view text) { return accepted(QuantityKind::speed, text); }

std::optional<double> parse_flops(std::string_view text) { return accepted(QuantityKind::flops, text); }

std::string limit_breach(QuantityKind kind, std::string_view text) {
  const Reading r = read(kind, text);
  if (!r.valid || r.within) return {};
  const std::string quoted = "'" + std::string(trim(text)) + "'";
  switch (kind) {
    case QuantityKind::bandwidth:
      return limits::outside("the bandwidth " + quoted, limits::kBandwidthRangeText);
    case QuantityKind::duration:
      return limits::exceeds("the duration " + quoted, limits::kMaxDurationText);
    case QuantityKind::size:
      return limits::exceeds("the size " + quoted, limits::kMaxMessageBytesText);
    case QuantityKind::speed:
      return limits::outside("the speed " + quoted, limits::kSpeedRangeText);
    case QuantityKind::flops:
      return limits::exceeds("the amount " + quoted, limits::kMaxFlopsText);
  }
  return {};
}

namespace {

// Rounded to four significant digits, as the formatters below print them.
double four_digits(double x) {
  const std::string text = fmt::format("{:.4g}", x);
  double rounded = 0;
  std::from_chars(text.data(), text.data() + text.size(), rounded);
  return rounded;
}

}  // namespace

std::string format_duration(double seconds) {
  if (seconds < 0) return "-" + format_duration(-seconds);
  const double s = four_digits(seconds);
  if (s == 0) return "0us";
  if (s >= 1) return fmt::format("{:.4g}s", s);
  if (s >= 1e-3) return fmt::format("{:.4g}ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:.4g}us", s * 1e6);
  return fmt::format("{:.4g}ns", s * 1e9);
}

std::string format_bandwidth(double bytes_per_second) {
  const double bps = four_digits(bytes_per_second);
  if (bps >= 1e9) return fmt::format("{:.4g}GB/s", bps / 1e9);
  if (bps >= 1e6) return fmt::format("{:.4g}MB/s", bps / 1e6);
  if (bps >= 1e3) return fmt::format("{:.4g}kB/s", bps / 1e3);
  return fmt::format("{:.4g}", bps);
}

std::string format_size(std::uint64_t bytes, SizeSuffix suffix) {
  const bool iec = suffix == SizeSuffix::iec;
  if (bytes >= (1ULL << 20) && bytes % (1ULL << 20) == 0) return fmt::format("{}{}", bytes >> 20, iec ? "MiB" : "M");
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{}{}", bytes >> 10, iec ? "KiB" : "K");
  return std::to_string(bytes);
}

std::string human_duration(double seconds) {
  if (seconds == 0) return "0 s";
  if (seconds < 1e-6) return fmt::format("{:.3f} ns", seconds * 1e9);
  if (seconds < 1e-3) return fmt::format("{:.3f} us", seconds * 1e6);
  if (seconds < 1) return fmt::format("{:.3f} ms", seconds * 1e3);
  return fmt::format("{:.3f} s", seconds);
}

std::string human_size(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.2f} {}", bytes, kUnits[unit]);
}

// Scaled as the printed outputs always were (x 1e6, x 1e3, / 1e9): the last bit,
// and so the rounded digits, stay the same.
std::string in_microseconds(double seconds, int digits) { return fmt::format("{:.{}g}", seconds * 1e6, digits); }
std::string in_milliseconds(double seconds, int digits) { return fmt::format("{:.{}g}", seconds * 1e3, digits); }
std::string in_giga(double value, int digits) { return fmt::format("{:.{}g}", value / 1e9, digits); }

}  // namespace contend::units
