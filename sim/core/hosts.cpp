#include "sim/core/hosts.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/text.hpp"

namespace contend {

Machine::Machine(NodeArchitecture nodes, std::vector<Host> hosts) : nodes_(nodes), hosts_(std::move(hosts)) {
  if (hosts_.size() != static_cast<std::size_t>(nodes_.count)) {
    throw Error("the machine has " + std::to_string(nodes_.count) + " nodes but " + std::to_string(hosts_.size()) +
                " host names");
  }
  for (std::size_t i = 0; i < hosts_.size(); ++i) node_of_.emplace(hosts_[i].name, static_cast<int>(i));
}

std::vector<std::string> Machine::host_names() const {
  std::vector<std::string> names;
  names.reserve(hosts_.size());
  for (const auto& h : hosts_) names.push_back(h.name);
  return names;
}

std::optional<int> Machine::node_named(std::string_view name) const {
  auto it = node_of_.find(std::string(name));
  if (it == node_of_.end()) return std::nullopt;
  return it->second;
}

long long Machine::total_slots() const {
  long long total = 0;
  for (const auto& h : hosts_) total += h.slots;
  return total;
}

bool is_valid_host_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::vector<std::string> host_names_from_rule(const std::string& rule, int count) {
  if (rule.find('{') == std::string::npos) {
    throw Error("host naming rule '" + rule + "' has no '{}' for the node index: every node would have that name");
  }
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(count));
  try {
    for (int i = 0; i < count; ++i) names.push_back(fmt::format(fmt::runtime(rule), i));
  } catch (const fmt::format_error& e) {
    throw Error("host naming rule '" + rule + "' is not a format such as 'node{}' or 'cn{:03}' (" + e.what() + ")");
  }
  return names;
}

namespace {

std::vector<Host> hosts_with_core_slots(const std::vector<std::string>& names, const NodeArchitecture& nodes) {
  std::vector<Host> hosts;
  hosts.reserve(names.size());
  for (const auto& name : names) hosts.push_back(Host{name, nodes.cores_per_node()});
  return hosts;
}

// "slots=N" of an Open MPI hostfile line; other keys are errors.
int parse_slots(std::string_view field, const SourceLocation& where) {
  const auto eq = field.find('=');
  const std::string_view key = field.substr(0, eq);
  if (eq == std::string_view::npos || key != "slots") {
    throw Error(where, "expected 'slots=N' after the host name, got '" + std::string(field) + "'");
  }
  const std::string_view value = field.substr(eq + 1);
  int slots = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), slots);
  if (ec != std::errc{} || ptr != value.data() + value.size() || slots < 1) {
    throw Error(where, "slots must be a positive integer, got '" + std::string(value) + "'");
  }
  return slots;
}

}  // namespace

Machine machine_of(const Platform& platform) {
  const auto names =
      platform.hosts.empty() ? host_names_from_rule(kDefaultHostRule, platform.nodes.count) : platform.hosts;
  return Machine(platform.nodes, hosts_with_core_slots(names, platform.nodes));
}

Machine machine_of(const Platform& platform, const std::string& hosts_file) {
  Machine machine = machine_of(platform);
  return hosts_file.empty() ? machine : with_hosts_file(machine, hosts_file);
}

Machine default_machine(const NodeArchitecture& nodes) {
  return Machine(nodes, hosts_with_core_slots(host_names_from_rule(kDefaultHostRule, nodes.count), nodes));
}

Machine with_hosts_file(const Machine& machine, const std::string& path) {
  std::ifstream in = open_input(path, "cannot open hosts file '" + path + "'");
  const NodeArchitecture& nodes = machine.nodes();
  std::vector<Host> hosts;
  std::unordered_map<std::string, int> seen_at;
  std::string line;
  int line_no = 0;
  while (read_line(in, line, path, line_no + 1)) {
    ++line_no;
    const std::string_view content = without_comment(line);
    const auto fields = split_blanks(content);
    if (fields.empty()) continue;
    const int column = static_cast<int>(fields[0].data() - line.data()) + 1;
    const SourceLocation where{path, line_no, column};
    const std::string name(fields[0]);
    if (!is_valid_host_name(name)) {
      throw Error(where, "expected a host name (letters, digits, '-', '_', '.'), got '" + name + "'");
    }
    if (auto [it, inserted] = seen_at.emplace(name, line_no); !inserted) {
      throw Error(where, "host '" + name + "' is already listed on line " + std::to_string(it->second));
    }
    Host host{name, nodes.cores_per_node()};
    for (std::size_t i = 1; i < fields.size(); ++i) {
      const SourceLocation at{path, line_no, static_cast<int>(fields[i].data() - line.data()) + 1};
      host.slots = parse_slots(fields[i], at);
    }
    if (hosts.size() == static_cast<std::size_t>(nodes.count)) {
      throw Error(where, "more hosts than the platform's " + std::to_string(nodes.count) +
                             " nodes (one host per node, in node order)");
    }
    hosts.push_back(std::move(host));
  }
  if (hosts.size() != static_cast<std::size_t>(nodes.count)) {
    throw Error(SourceLocation{path, 0, 0}, "names " + std::to_string(hosts.size()) + " hosts but the platform has " +
                                                std::to_string(nodes.count) +
                                                " nodes (one host per node, in node order)");
  }
  return Machine(nodes, std::move(hosts));
}

}  // namespace contend
