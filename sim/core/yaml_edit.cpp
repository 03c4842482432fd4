#include "sim/core/yaml_edit.hpp"

#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> keys;
  std::size_t begin = 0;
  while (true) {
    const auto dot = path.find('.', begin);
    keys.emplace_back(path.substr(begin, dot == std::string_view::npos ? std::string_view::npos : dot - begin));
    if (dot == std::string_view::npos) return keys;
    begin = dot + 1;
  }
}

// Spaces before the first other character; npos for a line of spaces.
std::size_t indentation(std::string_view line) { return line.find_first_not_of(' '); }

bool is_blank_or_comment(std::string_view line) {
  const auto t = trim(line);
  return t.empty() || t[0] == '#';
}

bool in_flow_style(const YamlField& map) { return map.is_map() && map.node().Style() == YAML::EmitterStyle::Flow; }

std::string described(const YamlField& map) {
  return map.path().empty() ? std::string("the file") : "'" + map.path() + "'";
}

// `block` moved so that its first line (its key) starts at `indent`.
std::vector<std::string> indented(const std::vector<std::string>& block, std::size_t indent) {
  std::size_t base = std::string::npos;
  for (const auto& line : block) {
    if (!trim(line).empty()) {
      base = indentation(line);
      break;
    }
  }
  std::vector<std::string> out;
  for (const auto& line : block) {
    if (trim(line).empty()) {
      out.emplace_back();
      continue;
    }
    if (indentation(line) < base)
      throw Error("internal error: a YAML block has a line left of its key: '" + line + "'");
    out.push_back(std::string(indent, ' ') + line.substr(base));
  }
  return out;
}

}  // namespace

// The keys of a path as far as they exist: maps[i] is the map in which
// keys[i] was looked up, entries[i] what was found there.
struct YamlText::Found {
  std::vector<std::string> keys;
  std::vector<YamlField> maps;
  std::vector<std::pair<YamlField, YamlField>> entries;
  bool complete() const { return entries.size() == keys.size(); }
};

YamlText::YamlText(std::string text, std::string name)
    : name_(std::move(name)),
      text_(std::move(text)),
      lines_(split_lines(text_)),
      root_(YamlField::load_string(text_, name_)) {}

YamlText::Found YamlText::walk(std::string_view path) const {
  Found f;
  f.keys = split_path(path);
  YamlField map = root_;
  for (const auto& key : f.keys) {
    f.maps.push_back(map);
    if (!map.is_map()) return f;
    bool found = false;
    for (const auto& entry : map.entries()) {
      if (entry.first.as_string() != key) continue;
      f.entries.push_back(entry);
      found = true;
      break;
    }
    if (!found) return f;
    map = f.entries.back().second;
  }
  return f;
}

YamlText::Entry YamlText::block_entry(const YamlField& parent, const YamlField& key, const YamlField& value,
                                      std::string_view noun) const {
  const auto where = key.where();
  Entry e;
  e.key = key;
  e.value = value;
  e.first_line = static_cast<std::size_t>(where.line - 1);
  e.indent = static_cast<std::size_t>(where.column - 1);
  if (in_flow_style(parent) || e.first_line >= lines_.size() || indentation(lines_[e.first_line]) != e.indent) {
    const std::string what(noun);
    key.fail_with("cannot rewrite this " + what + " in place: write " + described(parent) + " in block style (one " +
                  what + " per line)");
  }
  // A block sequence may stand at its key's own indentation ("key:\n- a").
  const bool sequence = value.is_sequence() && value.node().Style() != YAML::EmitterStyle::Flow;
  e.last_line = e.first_line;
  for (std::size_t i = e.first_line + 1; i < lines_.size(); ++i) {
    if (is_blank_or_comment(lines_[i])) continue;
    const std::size_t at = indentation(lines_[i]);
    if (at < e.indent || (at == e.indent && !(sequence && lines_[i][at] == '-'))) break;
    e.last_line = i;
  }
  e.child_indent = e.indent + 2;
  if (value.is_map() && !in_flow_style(value)) {
    const auto children = value.entries();
    if (!children.empty()) e.child_indent = static_cast<std::size_t>(children.front().first.where().column - 1);
  }
  e.lines.assign(lines_.begin() + static_cast<std::ptrdiff_t>(e.first_line),
                 lines_.begin() + static_cast<std::ptrdiff_t>(e.last_line) + 1);
  return e;
}

std::optional<YamlText::Entry> YamlText::entry(std::string_view path, std::string_view noun) const {
  const Found f = walk(path);
  if (!f.complete()) return std::nullopt;
  return block_entry(f.maps.back(), f.entries.back().first, f.entries.back().second, noun);
}

void YamlText::set_entry(std::string_view path, const std::vector<std::string>& block, std::string_view noun) {
  const Found f = walk(path);
  if (f.complete()) {
    const Entry e = block_entry(f.maps.back(), f.entries.back().first, f.entries.back().second, noun);
    replace_lines(e.first_line, e.last_line - e.first_line + 1, indented(block, e.indent));
    return;
  }
  // Added under the deepest map that exists (the whole file when no key does).
  const std::size_t depth = f.entries.size();
  const YamlField& holder = f.maps.back();
  std::size_t at = lines_.size();
  std::size_t indent = 0;
  if (holder.present() && !holder.is_map()) holder.fail("a mapping");
  if (in_flow_style(holder)) {
    holder.fail_with("cannot add '" + f.keys[depth] + "' in place: write " + described(holder) +
                     " in block style (one key per line)");
  }
  if (depth > 0) {
    const Entry parent = block_entry(f.maps[depth - 1], f.entries[depth - 1].first, holder, noun);
    at = parent.last_line + 1;
    indent = parent.child_indent;
  } else if (holder.is_map() && !holder.entries().empty()) {
    indent = static_cast<std::size_t>(holder.entries().front().first.where().column - 1);
  }
  std::vector<std::string> added;
  for (std::size_t k = depth; k + 1 < f.keys.size(); ++k, indent += 2)
    added.push_back(std::string(indent, ' ') + f.keys[k] + ":");
  for (auto& line : indented(block, indent)) added.push_back(std::move(line));
  replace_lines(at, 0, added);
}

void YamlText::set_entry(std::string_view path, std::string_view block, std::string_view noun) {
  set_entry(path, split_lines(block), noun);
}

void YamlText::set_scalar(std::string_view path, std::string_view value, std::string_view comment) {
  const Found f = walk(path);
  const std::string& name = f.keys.back();
  if (!f.complete()) {
    const std::size_t depth = f.entries.size();
    const YamlField holder = depth == 0 ? root_ : f.entries[depth - 1].second;
    holder.fail_with("has no " + f.keys[depth] + " to set");
  }
  const auto& [key, old] = f.entries.back();
  const auto where = key.where();
  const auto index = static_cast<std::size_t>(where.line - 1);
  const auto column = static_cast<std::size_t>(where.column - 1);
  std::string line = lines_.at(index);
  if (line.compare(column, name.size() + 1, name + ":") != 0) key.fail_with("cannot rewrite " + name + " in place");
  if (old.is_map() || old.is_sequence()) old.fail("a single value");
  const std::string assignment = name + ": " + std::string(value);
  if (!in_flow_style(f.maps.back()) && indentation(line) == column) {
    line = std::string(column, ' ') + assignment + (comment.empty() ? "" : "  # " + std::string(comment));
  } else {
    // The old value ends at the next ',' or '}' of the line, after its closing quote if it has one.
    std::size_t end = column + name.size() + 1;
    if (old.present() && old.where().line == where.line) {
      end = static_cast<std::size_t>(old.where().column - 1);
      if (end < line.size() && (line[end] == '"' || line[end] == '\'')) end = line.find(line[end], end + 1);
    }
    if (end != std::string::npos) end = line.find_first_of(",}", end);
    if (end == std::string::npos) key.fail_with("cannot rewrite " + name + " in place: write it on one line");
    line = line.substr(0, column) + assignment + line.substr(end);
  }
  replace_lines(index, 1, {line});
}

void YamlText::replace_lines(std::size_t first, std::size_t count, const std::vector<std::string>& lines) {
  lines_.erase(lines_.begin() + static_cast<std::ptrdiff_t>(first),
               lines_.begin() + static_cast<std::ptrdiff_t>(first + count));
  lines_.insert(lines_.begin() + static_cast<std::ptrdiff_t>(first), lines.begin(), lines.end());
  text_.clear();
  for (const auto& line : lines_) text_ += line + "\n";
  root_ = YamlField::load_string(text_, name_);
}

}  // namespace contend
