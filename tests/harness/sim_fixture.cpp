#include "tests/harness/sim_fixture.hpp"

#include "sim/engine/simulation.hpp"
#include "sim/core/mapping.hpp"
#include "models/registry.hpp"
#include "sim/core/error.hpp"

namespace contend::test {

std::string platform_yaml(int nodes, int sockets, int cores, const std::string& levels_yaml,
                          const std::string& network_yaml, const std::string& nic_yaml) {
  return "name: test\nnodes: {count: " + std::to_string(nodes) + ", sockets: " + std::to_string(sockets) +
         ", cores_per_socket: " + std::to_string(cores) + ", core_speed: 1Gf}\nlevels:\n" + levels_yaml +
         "nic: " + nic_yaml + "\nnetwork: " + network_yaml + "\n";
}

Results run(const std::string& platform_text, Workload& workload, const RunOptions& o) {
  const Platform platform = parse_platform(YamlField::load_string(platform_text, "test.yaml"));
  const Mapping mapping = make_mapping(o.mapping, workload.rank_count(), platform.nodes, o.oversubscribe);
  SimulationOptions options;
  options.model = o.model;
  options.mapping_name = o.mapping;
  options.record_messages = true;
  return simulate(platform, mapping, workload, all_models(), options);
}

Results run_pattern(const std::string& platform, const std::vector<PatternMessage>& messages, int ranks,
                    const RunOptions& o) {
  ManyPairPattern p;
  p.name = "test";
  p.ranks = ranks;
  p.messages = messages;
  PatternWorkload w(p);
  return run(platform, w, o);
}

std::string run_error(const std::string& platform, Workload& workload, const RunOptions& o) {
  try {
    run(platform, workload, o);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<MessageRecord> messages_between(const Results& r, int src, int dst) {
  std::vector<MessageRecord> out;
  for (const auto& m : r.messages)
    if (m.src == src && m.dst == dst) out.push_back(m);
  return out;
}

}  // namespace contend::test
