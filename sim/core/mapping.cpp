#include "sim/core/mapping.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/launcher_mapping.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/rankfile.hpp"
#include "sim/core/text.hpp"

namespace contend {

Level Mapping::level(int from, int to) const {
  const auto& a = (*this)[from];
  const auto& b = (*this)[to];
  if (a.node != b.node) return Level::InterNode;
  if (a.socket != b.socket) return Level::InterSocket;
  return Level::IntraSocket;
}

namespace {

void check_capacity(int rank_count, const NodeArchitecture& nodes, bool oversubscribe, const std::string& spec) {
  if (rank_count <= 0) throw Error("the workload has no ranks");
  if (rank_count > limits::kMaxRanks) {
    throw LimitError(limits::exceeds("the workload's " + std::to_string(rank_count) + " ranks", limits::kMaxRanksText));
  }
  if (!oversubscribe && rank_count > nodes.total_cores()) {
    throw Error("mapping '" + spec + "': " + std::to_string(rank_count) + " ranks but the platform has only " +
                std::to_string(nodes.total_cores()) + " cores (" + std::to_string(nodes.count) + " nodes x " +
                std::to_string(nodes.cores_per_node()) + "); pass --oversubscribe to share cores");
  }
}

// Core `slot` of a node, numbered socket-major: socket = slot / cores_per_socket.
Placement node_slot(int node, long long slot, const NodeArchitecture& nodes) {
  const int s = static_cast<int>(slot % nodes.cores_per_node());
  return Placement{node, s / nodes.cores_per_socket, s % nodes.cores_per_socket};
}

std::vector<Placement> block_mapping(int rank_count, const NodeArchitecture& nodes) {
  std::vector<Placement> out;
  out.reserve(static_cast<std::size_t>(rank_count));
  const long long total = nodes.total_cores();
  for (int r = 0; r < rank_count; ++r) {
    const long long slot = r % total;  // wraps only when oversubscribed
    out.push_back(node_slot(static_cast<int>(slot / nodes.cores_per_node()), slot % nodes.cores_per_node(), nodes));
  }
  return out;
}

std::vector<Placement> cyclic_mapping(int rank_count, const NodeArchitecture& nodes) {
  std::vector<Placement> out;
  out.reserve(static_cast<std::size_t>(rank_count));
  for (int r = 0; r < rank_count; ++r) {
    out.push_back(node_slot(r % nodes.count, r / nodes.count, nodes));
  }
  return out;
}

std::vector<Placement> socket_mapping(int rank_count, const NodeArchitecture& nodes) {
  std::vector<Placement> out;
  out.reserve(static_cast<std::size_t>(rank_count));
  const int per_node = nodes.cores_per_node();
  for (int r = 0; r < rank_count; ++r) {
    const long long slot = r % nodes.total_cores();
    const int node = static_cast<int>(slot / per_node);
    const int local = static_cast<int>(slot % per_node);
    // Round-robin over sockets: the k-th rank of a node goes to socket k % S,
    // core k / S of that socket.
    out.push_back(Placement{node, local % nodes.sockets, local / nodes.sockets});
  }
  return out;
}

bool parse_int(std::string_view text, long long& value) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc{} && ptr == text.data() + text.size();
}

}  // namespace

std::string mapping_forms() { return join(builtin_mapping_names()) + ", ompi:POLICY, slurm:DIST, rankfile:FILE"; }

Mapping make_mapping(const std::string& spec, int rank_count, const Machine& machine, bool oversubscribe) {
  const NodeArchitecture& nodes = machine.nodes();
  if (spec == "block" || spec == "cyclic" || spec == "socket") {
    check_capacity(rank_count, nodes, oversubscribe, spec);
    if (spec == "block") return Mapping(block_mapping(rank_count, nodes));
    if (spec == "cyclic") return Mapping(cyclic_mapping(rank_count, nodes));
    return Mapping(socket_mapping(rank_count, nodes));
  }
  if (rank_count <= 0) throw Error("the workload has no ranks");
  if (spec.starts_with("ompi:")) return ompi_mapping(spec.substr(5), rank_count, machine, oversubscribe);
  if (spec.starts_with("slurm:")) return slurm_mapping(spec.substr(6), rank_count, machine, oversubscribe);
  if (spec.starts_with("rankfile:")) return read_rankfile(spec.substr(9), rank_count, machine, oversubscribe);
  if (!std::filesystem::exists(spec)) {
    throw Error("--mapping '" + spec + "': neither a mapping (" + mapping_forms() + ") nor an existing file" +
                did_you_mean(spec, builtin_mapping_names()));
  }
  return read_mapping_file(spec, rank_count, nodes, oversubscribe);
}

Mapping make_mapping(const std::string& spec, int rank_count, const NodeArchitecture& nodes, bool oversubscribe) {
  return make_mapping(spec, rank_count, default_machine(nodes), oversubscribe);
}

void write_mapping_file(std::ostream& out, const Mapping& mapping, const std::vector<std::string>& comments) {
  for (const auto& c : comments) out << "# " << c << "\n";
  out << "# rank node socket core\n";
  for (int r = 0; r < mapping.rank_count(); ++r) {
    const auto& p = mapping[r];
    out << r << ' ' << p.node << ' ' << p.socket << ' ' << p.core << '\n';
  }
}

void check_cores_not_shared(const Mapping& mapping, bool oversubscribe, const std::string& what) {
  if (oversubscribe) return;
  std::map<std::tuple<int, int, int>, int> owner;
  for (int r = 0; r < mapping.rank_count(); ++r) {
    const auto& p = mapping[r];
    for (int c = p.core; c < p.core + mapping.cores_per_rank(); ++c) {
      auto [it, inserted] = owner.emplace(std::make_tuple(p.node, p.socket, c), r);
      if (!inserted) {
        throw Error(what + ": ranks " + std::to_string(it->second) + " and " + std::to_string(r) + " share node " +
                    std::to_string(p.node) + " socket " + std::to_string(p.socket) + " core " + std::to_string(c) +
                    "; pass --oversubscribe to allow it");
      }
    }
  }
}

Mapping read_mapping_file(const std::string& path, int rank_count, const NodeArchitecture& nodes, bool oversubscribe) {
  std::ifstream in = open_input(path, "cannot open mapping file '" + path + "'");
  check_capacity(rank_count, nodes, true, path);  // capacity is checked per core below
  std::vector<Placement> placements(static_cast<std::size_t>(rank_count));
  std::vector<int> defined_at(static_cast<std::size_t>(rank_count), 0);
  std::map<std::tuple<int, int, int>, int> core_owner;
  std::string line;
  int line_no = 0;
  while (read_line(in, line, path, line_no + 1)) {
    ++line_no;
    const std::string_view content = without_comment(line);
    auto fields = split_blanks(content);
    if (fields.empty()) continue;
    const SourceLocation where{path, line_no, 1};
    if (fields.size() != 4) {
      throw Error(where, "expected 'rank node socket core', got " + std::to_string(fields.size()) + " fields");
    }
    long long v[4];
    const char* names[4] = {"rank", "node", "socket", "core"};
    const long long limits[4] = {rank_count, nodes.count, nodes.sockets, nodes.cores_per_socket};
    for (int i = 0; i < 4; ++i) {
      if (!parse_int(fields[static_cast<std::size_t>(i)], v[i]) || v[i] < 0 || v[i] >= limits[i]) {
        throw Error(where, std::string(names[i]) + " must be an integer in [0, " + std::to_string(limits[i] - 1) +
                               "], got '" + std::string(fields[static_cast<std::size_t>(i)]) + "'");
      }
    }
    const auto rank = static_cast<std::size_t>(v[0]);
    if (defined_at[rank] != 0) {
      throw Error(where,
                  "rank " + std::to_string(v[0]) + " is already placed on line " + std::to_string(defined_at[rank]));
    }
    defined_at[rank] = line_no;
    placements[rank] = Placement{static_cast<int>(v[1]), static_cast<int>(v[2]), static_cast<int>(v[3])};
    auto [it, inserted] = core_owner.emplace(std::make_tuple(v[1], v[2], v[3]), static_cast<int>(v[0]));
    if (!inserted && !oversubscribe) {
      throw Error(where, "rank " + std::to_string(v[0]) + " shares node " + std::to_string(v[1]) + " socket " +
                             std::to_string(v[2]) + " core " + std::to_string(v[3]) + " with rank " +
                             std::to_string(it->second) + "; pass --oversubscribe to allow it");
    }
  }
  for (int r = 0; r < rank_count; ++r) {
    if (defined_at[static_cast<std::size_t>(r)] == 0) {
      throw Error(SourceLocation{path, 0, 0}, "rank " + std::to_string(r) + " is not placed (the workload has " +
                                                  std::to_string(rank_count) + " ranks)");
    }
  }
  return Mapping(std::move(placements));
}

}  // namespace contend
