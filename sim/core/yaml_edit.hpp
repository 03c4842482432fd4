#pragma once
// Edits a YAML file's text one entry at a time, keeping every other byte:
// the comments, the order, the style of what is not edited. The calibrations
// write their fits into platform files this way. Positions come from the
// parsed document (YamlField's marks); after each edit the text is parsed
// again, so an edit never leaves it invalid.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/yaml_field.hpp"

namespace contend {

class YamlText {
 public:
  // Parses `text`; `name` names it in errors.
  YamlText(std::string text, std::string name);

  const std::string& text() const { return text_; }
  const YamlField& root() const { return root_; }

  // A block-style entry: its key line and the lines indented deeper that
  // follow it, up to its last line that is neither blank nor a comment.
  struct Entry {
    YamlField key, value;
    std::size_t first_line = 0, last_line = 0;  // 0-based, inclusive
    std::size_t indent = 0;                     // the key's column
    std::size_t child_indent = 0;               // its children's column (a block map's), else indent + 2
    std::vector<std::string> lines;             // first_line .. last_line as written
  };

  // The entry at a dotted path ("levels.intra_socket"), or nothing when a key
  // on the way is absent. Throws when it shares a line with other keys:
  //   file:line:col: levels.intra_socket: cannot rewrite this <noun> in place:
  //   write 'levels' in block style (one <noun> per line)
  std::optional<Entry> entry(std::string_view path, std::string_view noun = "entry") const;

  // Replaces the entry at `path` by `block`, or adds it after the last child
  // of the deepest map on the way that exists, with the keys still missing
  // (a file without `models:` gets one at its end). `block` is the entry as
  // it would stand anywhere, its key line first: lines are re-indented
  // relative to that key ("  taulop:\n    Q: 4\n" and "taulop:\n  Q: 4\n" are
  // the same block).
  void set_entry(std::string_view path, const std::vector<std::string>& block, std::string_view noun = "entry");
  void set_entry(std::string_view path, std::string_view block, std::string_view noun = "entry");

  // Sets the scalar at `path`, which must exist. On a line of its own (block
  // style) the line becomes "key: value", with "  # comment" if one is given;
  // in a one-line flow map only "key: value" up to the next ',' or '}' changes.
  void set_scalar(std::string_view path, std::string_view value, std::string_view comment = "");

 private:
  struct Found;
  Found walk(std::string_view path) const;
  Entry block_entry(const YamlField& parent, const YamlField& key, const YamlField& value, std::string_view noun) const;
  void replace_lines(std::size_t first, std::size_t count, const std::vector<std::string>& lines);

  std::string name_;
  std::string text_;
  std::vector<std::string> lines_;
  YamlField root_;
};

}  // namespace contend
