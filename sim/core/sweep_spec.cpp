#include "sim/core/sweep_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "sim/core/file_io.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/text.hpp"
#include "sim/core/yaml_edit.hpp"

namespace contend {
namespace {

namespace fs = std::filesystem;

// One column of the sweep: an option or a platform path, and its values.
struct Axis {
  std::string column;
  bool is_override = false;  // a `set:` path
  std::vector<YamlField> values;
};

std::string resolve(const std::string& folder, const std::string& path) {
  if (path.empty() || fs::path(path).is_absolute() || folder.empty()) return path;
  return (fs::path(folder) / path).lexically_normal().string();
}

// "block", "ompi:...", "slurm:..." stand as they are; a file (FILE,
// rankfile:FILE) is relative to the sweep file.
std::string resolve_mapping(const std::string& folder, const std::string& spec) {
  const auto& builtin = builtin_mapping_names();
  if (std::find(builtin.begin(), builtin.end(), spec) != builtin.end()) return spec;
  if (spec.starts_with("ompi:") || spec.starts_with("slurm:")) return spec;
  if (spec.starts_with("rankfile:")) return "rankfile:" + resolve(folder, spec.substr(9));
  return resolve(folder, spec);
}

// The value's text for its column: a list (coll) is its items joined by spaces.
std::string value_text(const YamlField& value) {
  if (!value.is_sequence()) return value.as_string();
  std::vector<std::string> items;
  for (const auto& item : value.items()) items.push_back(item.as_string());
  return join(items, " ");
}

void apply(SweepCase& c, const Axis& axis, const YamlField& value, const std::string& folder) {
  const std::string& key = axis.column;
  if (axis.is_override) {
    if (!value.is_scalar()) value.fail("one platform value");
    c.overrides.push_back(PlatformOverride{key, value.as_string(), value.where()});
    return;
  }
  if (key == "coll") {
    c.coll.clear();
    if (value.is_sequence()) {
      for (const auto& item : value.items()) c.coll.push_back(item.as_string());
    } else {
      // split_blanks returns views into its argument: keep the text alive
      // for the loop (a temporary in a range-for's init dies before C++23).
      const std::string words = value.as_string();
      for (const auto word : split_blanks(words)) c.coll.emplace_back(word);
    }
    return;
  }
  if (key == "oversubscribe") {
    c.oversubscribe = value.as_bool();
    return;
  }
  if (key == "time_limit") {
    c.time_limit = value.as_duration();
    return;
  }
  const std::string text = value.as_string();
  if (key == "platform") {
    c.platform = resolve(folder, text);
    c.platform_where = value.where();
  } else if (key == "pattern") {
    c.pattern = resolve(folder, text);
  } else if (key == "trace") {
    c.trace = resolve(folder, text);
  } else if (key == "hosts") {
    c.hosts = resolve(folder, text);
  } else if (key == "mapping") {
    c.mapping = resolve_mapping(folder, text);
  } else if (key == "model") {
    c.model = text;
  } else if (key == "ompi") {
    if (text != "3.1" && text != "4.1") value.fail("3.1 or 4.1");
    c.ompi = text;
  } else if (key == "compute") {
    if (text != "scaled" && text != "measured") value.fail("scaled or measured");
    c.compute = text;
  } else if (key == "progress") {
    try {
      progress_by_name(text);
    } catch (const Error& e) {
      throw Error(value.where(), "progress: " + std::string(e.what()));
    }
    c.progress = text;
  }
}

// The values of one key: a list is an axis, anything else one value.
std::vector<YamlField> values_of(const YamlField& field, const std::string& key) {
  if (key == "coll" && field.is_sequence()) {
    // coll: [a, b] is an axis of single options; coll: [[a, b], [c]] an axis of option lists.
    return field.items();
  }
  if (!field.is_sequence()) return {field};
  auto items = field.items();
  if (items.empty()) field.fail("at least one value");
  for (const auto& item : items) {
    if (item.is_map()) item.fail("a value");
    if (item.is_sequence() && key != "coll") item.fail("a value");
  }
  return items;
}

std::vector<Axis> axes_of(const YamlField& map, bool in_case) {
  std::vector<Axis> axes;
  for (const auto& [key_field, value] : map.entries()) {
    const std::string key = key_field.as_string();
    if (key == "cases") continue;
    if (key == "set") {
      for (const auto& [path_field, path_value] : value.entries()) {
        if (!path_value.present()) path_value.fail("a platform value or a list of them");
        auto values = values_of(path_value, "set");
        if (in_case && values.size() > 1) path_value.fail("one value (a case sets one value per path)");
        axes.push_back(Axis{path_field.as_string(), true, std::move(values)});
      }
      continue;
    }
    if (!value.present()) value.fail("a value or a list of values");
    auto values = values_of(value, key);
    if (in_case && values.size() > 1 && !(key == "coll" && value.is_sequence()))
      value.fail("one value (a case gives one value per key)");
    if (in_case && key == "coll" && value.is_sequence()) values = {value};
    axes.push_back(Axis{key, false, std::move(values)});
  }
  return axes;
}

void add_column(std::vector<std::string>& columns, const std::string& name) {
  if (std::find(columns.begin(), columns.end(), name) == columns.end()) columns.push_back(name);
}

void check_case(const SweepCase& c, const SourceLocation& where) {
  const std::string name = fmt::format("case {}", c.index);
  if (c.platform.empty()) throw Error(where, name + ": no platform: give 'platform:'");
  if (c.pattern.empty() == c.trace.empty())
    throw Error(where, name + (c.pattern.empty() ? ": no workload: give 'pattern:' or 'trace:'"
                                                 : ": both 'pattern:' and 'trace:': give one"));
}

void fnv(std::uint64_t& h, std::string_view bytes) {
  for (unsigned char b : bytes) {
    h ^= b;
    h *= 1099511628211ULL;
  }
}

constexpr std::uint64_t kFnvOffset = 14695981039346656037ULL;

}  // namespace

const std::vector<std::string>& sweep_option_keys() {
  static const std::vector<std::string> keys = {"platform", "pattern", "trace",         "compute",
                                                "mapping",  "model",   "progress",      "hosts",
                                                "ompi",     "coll",    "oversubscribe", "time_limit"};
  return keys;
}

SweepSpec read_sweep(const std::string& path) {
  return parse_sweep(YamlField::load_file(path), fs::path(path).parent_path().string());
}

namespace {

// Where `cases:` sits among the axes: the number of axes written before it.
std::size_t axes_before_cases(const YamlField& root) {
  std::size_t before = 0;
  for (const auto& [key, value] : root.entries()) {
    const std::string name = key.as_string();
    if (name == "cases") break;
    before += name == "set" ? value.entries().size() : 1;
  }
  return before;
}

struct CaseEntry {
  YamlField field;
  std::vector<Axis> axes;  // one value each
};

std::vector<CaseEntry> case_entries(const YamlField& root, const std::vector<Axis>& top) {
  const auto cases = root.child("cases");
  if (!cases.present()) return {};
  if (!cases.is_sequence() || cases.items().empty()) cases.fail("a list of cases (mappings of keys to values)");
  auto keys = sweep_option_keys();
  keys.push_back("set");
  std::vector<CaseEntry> out;
  for (const auto& entry : cases.items()) {
    if (!entry.is_map()) entry.fail("a case: a mapping of keys to values");
    entry.allow_only(keys);
    CaseEntry e{entry, axes_of(entry, true)};
    for (const auto& axis : e.axes) {
      for (const auto& t : top) {
        if (t.column == axis.column && t.values.size() > 1)
          throw Error(axis.values.front().where(),
                      axis.column + ": also a list of values at the top of the file: give it in one place");
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<std::string> columns_of(const YamlField& root, const std::vector<Axis>& top,
                                    const std::vector<CaseEntry>& entries) {
  std::vector<std::string> columns;
  const std::size_t at = entries.empty() ? top.size() : axes_before_cases(root);
  for (std::size_t i = 0; i <= top.size(); ++i) {
    if (i == at) {
      for (const auto& e : entries)
        for (const auto& axis : e.axes) add_column(columns, axis.column);
    }
    if (i < top.size()) add_column(columns, top[i].column);
  }
  return columns;
}

void set_column(SweepCase& c, const std::vector<std::string>& columns, const std::string& column,
                const std::string& text) {
  const auto it = std::find(columns.begin(), columns.end(), column);
  c.values[static_cast<std::size_t>(it - columns.begin())] = text;
}

void apply_axis(SweepCase& c, const Axis& axis, const YamlField& value, const std::vector<std::string>& columns,
                const std::string& folder) {
  if (axis.is_override) {
    // A case's own value replaces the one written at the top of the file.
    std::erase_if(c.overrides, [&](const PlatformOverride& o) { return o.path == axis.column; });
  }
  apply(c, axis, value, folder);
  set_column(c, columns, axis.column, value_text(value));
}

}  // namespace

SweepSpec parse_sweep(const YamlField& root, const std::string& folder) {
  if (!root.is_map()) root.fail("a sweep: keys such as platform, pattern, model, set, cases");
  std::vector<std::string> allowed = sweep_option_keys();
  allowed.push_back("set");
  allowed.push_back("cases");
  root.allow_only(allowed);
  SweepSpec spec;
  spec.file = root.file();
  const std::vector<Axis> top = axes_of(root, false);
  const std::vector<CaseEntry> entries = case_entries(root, top);
  spec.columns = columns_of(root, top, entries);

  // Mixed-radix digits, the last dimension fastest; `cases:` is a dimension at its place.
  const std::size_t cases_at = entries.empty() ? top.size() : axes_before_cases(root);
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i <= top.size(); ++i) {
    if (i == cases_at && !entries.empty()) sizes.push_back(entries.size());
    if (i < top.size()) sizes.push_back(top[i].values.size());
  }
  std::uint64_t total = 1;
  for (auto size : sizes) {
    const auto product = limits::checked_multiply(total, size);
    if (!product || *product > limits::kMaxSweepCases)
      root.refuse(limits::exceeds("the product of the sweep's axes", limits::kMaxSweepCasesText));
    total = *product;
  }
  for (const auto& axis : top)
    for (const auto& v : axis.values) spec.values.push_back({axis.column, value_text(v), v.where()});
  for (const auto& e : entries)
    for (const auto& axis : e.axes)
      for (const auto& v : axis.values) spec.values.push_back({axis.column, value_text(v), v.where()});

  spec.cases.reserve(total);
  for (std::uint64_t index = 0; index < total; ++index) {
    std::vector<std::size_t> digit(sizes.size());
    std::uint64_t rest = index;
    for (std::size_t d = sizes.size(); d-- > 0;) {
      digit[d] = rest % sizes[d];
      rest /= sizes[d];
    }
    SweepCase c;
    c.index = index;
    c.values.assign(spec.columns.size(), "");
    c.platform_where = root.where();
    std::size_t d = 0;
    const CaseEntry* entry = nullptr;
    for (std::size_t i = 0; i <= top.size(); ++i) {
      if (i == cases_at && !entries.empty()) entry = &entries[digit[d++]];
      if (i < top.size()) apply_axis(c, top[i], top[i].values[digit[d++]], spec.columns, folder);
    }
    if (entry) {
      for (const auto& axis : entry->axes) apply_axis(c, axis, axis.values.front(), spec.columns, folder);
    }
    check_case(c, entry ? entry->field.where() : root.where());
    spec.cases.push_back(std::move(c));
  }
  return spec;
}

namespace {

// The platform's text with `overrides` applied, or the error of the first
// override it cannot take.
std::string apply_overrides(const std::string& platform, const std::string& text,
                            const std::vector<PlatformOverride>& overrides) {
  YamlText yaml(text, platform);
  for (const auto& o : overrides) {
    const auto entry = yaml.entry(o.path, "value");
    if (entry && entry->value.is_scalar()) {
      yaml.set_scalar(o.path, o.value);
    } else {
      // Absent, or a table (a bandwidth per sharing count): the entry becomes `key: value`.
      const auto dot = o.path.rfind('.');
      yaml.set_entry(o.path, o.path.substr(dot == std::string::npos ? 0 : dot + 1) + ": " + o.value, "value");
    }
  }
  parse_platform(YamlField::load_string(yaml.text(), platform));
  return yaml.text();
}

}  // namespace

std::string platform_text(const SweepCase& c) {
  std::string text;
  try {
    text = read_text(c.platform);
    parse_platform(YamlField::load_string(text, c.platform));
  } catch (const Error& e) {
    throw Error(c.platform_where, std::string("platform: ") + e.what());
  }
  try {
    return apply_overrides(c.platform, text, c.overrides);
  } catch (const Error&) {
    // Name the first override the platform cannot take.
    for (std::size_t n = 1; n <= c.overrides.size(); ++n) {
      const std::vector<PlatformOverride> first(c.overrides.begin(), c.overrides.begin() + static_cast<long>(n));
      try {
        apply_overrides(c.platform, text, first);
      } catch (const Error& e) {
        const auto& o = c.overrides[n - 1];
        throw Error(o.where, fmt::format("set {} = '{}' in {}: {}", o.path, o.value, c.platform, e.what()));
      }
    }
    throw;
  }
}

std::vector<std::string> trace_files(const std::string& trace) {
  std::vector<std::string> files = {trace};
  const fs::path path(trace);
  std::error_code ec;
  if (path.extension() == ".otf2") {
    const fs::path stem = path.parent_path() / path.stem();
    if (fs::is_regular_file(fs::path(stem.string() + ".def"), ec)) files.push_back(stem.string() + ".def");
    if (fs::is_directory(stem, ec)) {
      std::vector<std::string> inside;
      for (const auto& f : fs::recursive_directory_iterator(stem, ec))
        if (f.is_regular_file(ec)) inside.push_back(f.path().string());
      std::sort(inside.begin(), inside.end());
      files.insert(files.end(), inside.begin(), inside.end());
    }
    return files;
  }
  // A TI index names one file per line (as ti_trace.hpp resolves them).
  std::ifstream in(trace);
  std::string line;
  int number = 0;
  while (number < limits::kMaxRanks && read_line(in, line, trace, ++number)) {
    const std::string name(trim(line));
    if (name.empty() || name.front() == '#') continue;
    if (name.find(' ') != std::string::npos) return files;  // a trace of actions, not an index
    for (const fs::path& candidate : {fs::path(name), path.parent_path() / name, fs::path(trace + "_files") / name}) {
      if (fs::is_regular_file(candidate, ec)) {
        files.push_back(candidate.string());
        break;
      }
    }
  }
  return files;
}

std::uint64_t CaseHasher::file_hash(const std::string& path) {
  if (const auto it = files_.find(path); it != files_.end()) return it->second;
  std::uint64_t h = kFnvOffset;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fnv(h, "unreadable");
  } else {
    std::vector<char> buffer(1 << 16);
    while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0)
      fnv(h, std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
  }
  files_[path] = h;
  return h;
}

std::string CaseHasher::hash(const SweepCase& c) {
  std::uint64_t h = kFnvOffset;
  auto add = [&](std::string_view name, std::string_view value) {
    fnv(h, name);
    fnv(h, "=");
    fnv(h, value);
    fnv(h, "\n");
  };
  // Files by their contents, not their paths: the same sweep run from
  // another folder, or moved, is the same sweep.
  auto add_file = [&](std::string_view name, const std::string& path) {
    add(name, fmt::format("{:016x}", file_hash(path)));
  };
  add("contend", version_);
  add("platform text", platform_text(c));
  if (!c.pattern.empty()) add_file("pattern", c.pattern);
  if (!c.trace.empty()) {
    for (const auto& file : trace_files(c.trace)) add_file("trace", file);
    add("compute", c.compute);
  }
  const bool rankfile = c.mapping.starts_with("rankfile:");
  const std::string mapping_file = rankfile ? c.mapping.substr(9) : c.mapping;
  if (rankfile || fs::is_regular_file(mapping_file)) {
    add_file(rankfile ? "rankfile" : "mapping file", mapping_file);
  } else {
    add("mapping", c.mapping);
  }
  if (!c.hosts.empty()) add_file("hosts", c.hosts);
  add("model", c.model);
  add("progress", c.progress);
  add("ompi", c.ompi);
  add("coll", join(c.coll, " "));
  add("oversubscribe", c.oversubscribe ? "true" : "false");
  add("time_limit", fmt::format("{}", c.time_limit));
  return fmt::format("{:016x}", h);
}

}  // namespace contend
