#include "sim/core/yaml_field.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "sim/core/file_io.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text.hpp"
#include "sim/core/units.hpp"

namespace contend {
namespace {

SourceLocation location_of(const YAML::Mark& mark, const std::string& file) {
  if (mark.is_null()) return SourceLocation{file, 0, 0};
  return SourceLocation{file, mark.line + 1, mark.column + 1};
}

std::string child_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

// YAML text holds no NUL byte: a file with one is binary (yaml-cpp would
// guess a UTF-16 or UTF-32 encoding for it and read garbage).
void check_text(const std::string& name, const std::string& text) {
  const auto nul = text.find('\0');
  if (nul == std::string::npos) return;
  const auto line_start = text.rfind('\n', nul);
  const int line =
      1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n'));
  const int column = static_cast<int>(nul - (line_start == std::string::npos ? 0 : line_start + 1)) + 1;
  throw Error(SourceLocation{name, line, column}, "a NUL byte: expected YAML text, not a binary file");
}

YamlField load(const std::string& name, const std::string& text) {
  check_text(name, text);
  auto file = std::make_shared<const std::string>(name);
  try {
    YAML::Node root = YAML::Load(text);
    return YamlField(root, "", file, SourceLocation{name, 1, 1});
  } catch (const YAML::ParserException& e) {
    throw Error(location_of(e.mark, name), "YAML syntax error: " + e.msg);
  }
}

}  // namespace

// Read through read_text: its size bound and its errors for directories and
// unreadable paths (yaml-cpp would read a device such as /dev/zero forever).
YamlField YamlField::load_file(const std::string& path) { return load(path, read_text(path)); }

YamlField YamlField::load_string(const std::string& text, const std::string& name) { return load(name, text); }

YamlField::YamlField(YAML::Node node, std::string path, std::shared_ptr<const std::string> file,
                     SourceLocation fallback)
    : node_(std::make_shared<const YAML::Node>(std::move(node))),
      path_(std::move(path)),
      file_(std::move(file)),
      fallback_(std::move(fallback)) {}

SourceLocation YamlField::where() const {
  if (node_->IsDefined()) {
    auto loc = location_of(node_->Mark(), *file_);
    if (loc.line > 0) return loc;
  }
  return fallback_;
}

void YamlField::fail(std::string_view expected) const {
  std::string message = (path_.empty() ? std::string("document") : path_) + ": expected " + std::string(expected);
  if (is_scalar()) {
    message += ", got '" + node_->Scalar() + "'";
  } else if (is_map()) {
    message += ", got a mapping";
  } else if (is_sequence()) {
    message += ", got a list";
  } else {
    message += ", got nothing";
  }
  throw Error(where(), message);
}

void YamlField::fail_with(const std::string& message) const {
  throw Error(where(), (path_.empty() ? std::string("document") : path_) + ": " + message);
}

void YamlField::refuse(const std::string& limit_message) const {
  throw LimitError(where(), (path_.empty() ? std::string("document") : path_) + ": " + limit_message);
}

YamlField YamlField::child(std::string_view key) const {
  const std::string name(key);
  // Copy-construct: yaml-cpp's assignment throws when the key is absent.
  const YAML::Node sub = is_map() ? (*node_)[name] : YAML::Node(YAML::NodeType::Undefined);
  return YamlField(sub, child_path(path_, key), file_, where());
}

YamlField YamlField::require(std::string_view key, std::string_view what) const {
  if (!is_map()) fail("a mapping with key '" + std::string(key) + "'");
  YamlField sub = child(key);
  if (!sub.present()) {
    throw Error(where(), (path_.empty() ? std::string("document") : path_) + ": missing required key '" +
                             std::string(key) + "' (" + std::string(what) + ")");
  }
  return sub;
}

void YamlField::allow_only(const std::vector<std::string>& allowed) const {
  if (!present()) return;
  if (!is_map()) fail("a mapping");
  std::set<std::string> seen;
  for (auto it = node_->begin(); it != node_->end(); ++it) {
    const auto loc = location_of(it->first.Mark(), *file_);
    // A complex key (`? {a: 1}`) is no key of ours: yaml-cpp would throw its own exception.
    if (!it->first.IsScalar())
      throw Error(loc, (path_.empty() ? std::string("document") : path_) + ": expected a plain key");
    const std::string key = it->first.Scalar();
    if (!seen.insert(key).second) {
      throw Error(loc, child_path(path_, key) + ": duplicate key");
    }
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (!known) {
      const std::string expected =
          allowed.empty() ? "; this section takes no keys" : "; expected one of: " + join(allowed);
      throw Error(loc, child_path(path_, key) + ": unknown key" + did_you_mean(key, allowed) + expected);
    }
  }
}

std::vector<std::pair<YamlField, YamlField>> YamlField::entries() const {
  if (!is_map()) fail("a mapping");
  std::vector<std::pair<YamlField, YamlField>> out;
  std::set<std::string> seen;
  for (auto it = node_->begin(); it != node_->end(); ++it) {
    const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string("?");
    YamlField key_field(it->first, child_path(path_, key), file_, where());
    if (!it->first.IsScalar()) key_field.fail("a plain key");
    if (!seen.insert(key).second) key_field.fail_with("duplicate key");
    out.emplace_back(key_field, YamlField(it->second, child_path(path_, key), file_, key_field.where()));
  }
  return out;
}

std::vector<YamlField> YamlField::items() const {
  if (!is_sequence()) fail("a list");
  std::vector<YamlField> out;
  std::size_t index = 0;
  for (const auto& element : *node_) {
    out.emplace_back(element, path_ + "[" + std::to_string(index++) + "]", file_, where());
  }
  return out;
}

std::string YamlField::scalar_text() const {
  if (!is_scalar()) fail("a single value");
  return node_->Scalar();
}

std::string YamlField::as_string() const { return scalar_text(); }

long long YamlField::as_int(long long min, long long max) const {
  const std::string text = scalar_text();
  long long value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string range = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (ec != std::errc{} || ptr != text.data() + text.size()) fail(range);
  if (value < min || value > max) fail(range);
  return value;
}

double YamlField::as_number() const {
  const std::string text = scalar_text();
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size() || !std::isfinite(value)) fail("a number");
  if (std::fabs(value) > limits::kMaxPlainNumber) {
    refuse(limits::exceeds("the number '" + text + "'", limits::kMaxPlainNumberText));
  }
  return value;
}

bool YamlField::as_bool() const {
  const std::string text = scalar_text();
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  fail("true or false");
}

namespace {

// A quantity of `kind`: the limit it breaks, or what was expected.
template <typename Parse>
auto quantity(const YamlField& field, const std::string& text, units::QuantityKind kind, std::string_view help,
              Parse parse) {
  auto v = parse(text);
  if (v) return *v;
  if (const std::string breach = units::limit_breach(kind, text); !breach.empty()) field.refuse(breach);
  field.fail(help);
}

}  // namespace

double YamlField::as_bandwidth() const {
  return quantity(*this, scalar_text(), units::QuantityKind::bandwidth, units::kBandwidthHelp, units::parse_bandwidth);
}

double YamlField::as_duration() const {
  return quantity(*this, scalar_text(), units::QuantityKind::duration, units::kDurationHelp, units::parse_duration);
}

std::uint64_t YamlField::as_size() const {
  return quantity(*this, scalar_text(), units::QuantityKind::size, units::kSizeHelp, units::parse_size);
}

double YamlField::as_speed() const {
  return quantity(*this, scalar_text(), units::QuantityKind::speed, units::kSpeedHelp, units::parse_speed);
}

}  // namespace contend
