#include "sim/core/datatype.hpp"

#include <charconv>
#include <stdexcept>

#include "sim/core/text.hpp"

namespace contend {
namespace {

struct Base {
  const char* name;
  int size;
};
constexpr Base kBases[] = {{"byte", 1},  {"char", 1}, {"short", 2}, {"int", 4},
                           {"float", 4}, {"long", 8}, {"double", 8}};

bool parse_positive(std::string_view text, int& value) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc{} && ptr == text.data() + text.size() && value > 0;
}

}  // namespace

const std::vector<std::string>& datatype_base_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& b : kBases) n.emplace_back(b.name);
    return n;
  }();
  return names;
}

std::string Datatype::name() const {
  if (kind == Kind::Contiguous) return "contiguous";
  return "vector:" + std::to_string(count) + "," + std::to_string(blocklength) + "," + std::to_string(stride) + ":" +
         base;
}

std::uint64_t Datatype::payload_bytes() const {
  if (kind == Kind::Contiguous) return static_cast<std::uint64_t>(base_size);
  return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(blocklength) *
         static_cast<std::uint64_t>(base_size);
}

std::optional<Datatype> parse_datatype(std::string_view text, std::string& error) {
  const std::string expected = "a datatype: contiguous, or vector:COUNT,BLOCKLENGTH,STRIDE:BASE with BASE one of " +
                               join(datatype_base_names()) + " (e.g. vector:4,1,4:float)";
  if (text == "contiguous") return Datatype{};
  if (text.substr(0, 7) != "vector:") {
    error = expected;
    return std::nullopt;
  }
  const auto rest = text.substr(7);
  const auto colon = rest.find(':');
  if (colon == std::string_view::npos) {
    error = expected;
    return std::nullopt;
  }
  const auto numbers = rest.substr(0, colon);
  const auto base = rest.substr(colon + 1);
  Datatype d;
  d.kind = Datatype::Kind::Vector;
  const auto c1 = numbers.find(',');
  const auto c2 = c1 == std::string_view::npos ? std::string_view::npos : numbers.find(',', c1 + 1);
  if (c2 == std::string_view::npos || !parse_positive(numbers.substr(0, c1), d.count) ||
      !parse_positive(numbers.substr(c1 + 1, c2 - c1 - 1), d.blocklength) ||
      !parse_positive(numbers.substr(c2 + 1), d.stride)) {
    error = expected;
    return std::nullopt;
  }
  if (d.stride < d.blocklength) {
    error = "a vector whose stride (" + std::to_string(d.stride) + ") is at least its block length (" +
            std::to_string(d.blocklength) + ")";
    return std::nullopt;
  }
  bool known = false;
  for (const auto& b : kBases) {
    if (base == b.name) {
      d.base = b.name;
      d.base_size = b.size;
      known = true;
    }
  }
  if (!known) {
    error = "a base type, one of " + join(datatype_base_names()) + did_you_mean(base, datatype_base_names()) +
            ", got '" + std::string(base) + "'";
    return std::nullopt;
  }
  return d;
}

DatatypeId DatatypeTable::intern(const Datatype& type) {
  for (std::size_t i = 0; i < types_.size(); ++i) {
    if (types_[i] == type) return static_cast<DatatypeId>(i);
  }
  if (types_.size() >= 65535) throw std::length_error("too many distinct datatypes (65535)");
  types_.push_back(type);
  return static_cast<DatatypeId>(types_.size() - 1);
}

}  // namespace contend
