#pragma once
// A read-only view of one YAML node that knows where it sits: the file, the
// line and column, and its dotted path from the document root. Every accessor
// validates and reports errors as
//   file:line:col: path.to.key: expected <what>, got '<text>'
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"

namespace contend {

class YamlField {
 public:
  // Loads a whole file; syntax errors come back as contend::Error with the position.
  static YamlField load_file(const std::string& path);
  static YamlField load_string(const std::string& text, const std::string& name);

  YamlField() : node_(std::make_shared<const YAML::Node>()), file_(std::make_shared<const std::string>()) {}
  YamlField(YAML::Node node, std::string path, std::shared_ptr<const std::string> file, SourceLocation fallback);

  bool present() const { return node_->IsDefined() && !node_->IsNull(); }
  // yaml-cpp throws on type queries of absent ("zombie") nodes: check first.
  bool is_map() const { return node_->IsDefined() && node_->IsMap(); }
  bool is_sequence() const { return node_->IsDefined() && node_->IsSequence(); }
  bool is_scalar() const { return node_->IsDefined() && node_->IsScalar(); }
  const std::string& path() const { return path_; }
  const std::string& file() const { return *file_; }
  SourceLocation where() const;
  const YAML::Node& node() const { return *node_; }

  // Throws "where: path: expected <what>[, got '<text>']".
  [[noreturn]] void fail(std::string_view expected) const;
  // Throws "where: path: <message>".
  [[noreturn]] void fail_with(const std::string& message) const;
  // Throws LimitError "where: path: <message>" (a limit of sim/core/limits.hpp).
  [[noreturn]] void refuse(const std::string& limit_message) const;

  // Map access. child() may return an absent field; require() throws if absent.
  YamlField child(std::string_view key) const;
  YamlField require(std::string_view key, std::string_view what) const;
  // Rejects keys other than `allowed` (with a "did you mean") and duplicate keys.
  void allow_only(const std::vector<std::string>& allowed) const;
  // Keys of a map in document order, with their fields.
  std::vector<std::pair<YamlField, YamlField>> entries() const;
  std::vector<YamlField> items() const;  // sequence elements

  std::string as_string() const;
  long long as_int(long long min, long long max) const;
  double as_number() const;
  bool as_bool() const;
  double as_bandwidth() const;
  double as_duration() const;
  std::uint64_t as_size() const;
  double as_speed() const;

 private:
  std::string scalar_text() const;

  // Held by pointer: YAML::Node's assignment writes into the document
  // instead of rebinding, so a copyable view must not assign nodes.
  std::shared_ptr<const YAML::Node> node_;
  std::string path_;
  std::shared_ptr<const std::string> file_;
  SourceLocation fallback_;  // where to point when the node itself has no mark
};

}  // namespace contend
