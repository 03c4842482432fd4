#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/platform.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;

namespace {

const std::string kValid = R"(name: t
description: test platform
nodes: {count: 4, sockets: 2, cores_per_socket: 8, core_speed: 2Gf}
levels:
  intra_socket: {latency: 1us, eager_threshold: 4KiB, bandwidth: {1: 10GB/s, 2: 16GB/s, 8: 20GB/s}}
  inter_socket: {latency: 2us, eager_threshold: 4KiB, bandwidth: 5GB/s}
  inter_node: {latency: 3us, eager_threshold: 12KiB, bandwidth: 10GB/s}
nic: {count: 2, bandwidth: 12.5GB/s, latency: 0.5us}
network: {topology: star}
models:
  maxmin: {}
)";

Platform parse(const std::string& text) { return parse_platform(YamlField::load_string(text, "p.yaml")); }

// The whole error message, exactly.
std::string error_of(const std::string& text) {
  return test::error_message([&] { parse(text); });
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  BOOST_REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The error of kValid with `from` replaced by `to`.
std::string error_with(const std::string& from, const std::string& to) { return error_of(replace(kValid, from, to)); }

}  // namespace

BOOST_AUTO_TEST_SUITE(platform)

BOOST_AUTO_TEST_CASE(valid_platform_fields) {
  const Platform p = parse(kValid);
  BOOST_TEST(p.name == "t");
  BOOST_TEST(p.nodes.count == 4);
  BOOST_TEST(p.nodes.cores_per_node() == 16);
  BOOST_TEST(p.nodes.core_speed == 2e9);
  BOOST_TEST(p.level(Level::IntraSocket).latency == 1e-6);
  BOOST_TEST(p.level(Level::IntraSocket).eager_threshold == 4096u);
  BOOST_TEST(p.level(Level::IntraSocket).bandwidth.aggregate(2) == 16e9);
  BOOST_TEST(p.level(Level::InterSocket).bandwidth.is_constant());
  BOOST_TEST(p.level(Level::InterNode).eager_threshold == 12288u);
  BOOST_TEST(p.nic.aggregate_bandwidth() == 25e9);
  BOOST_TEST(p.nic.latency == 0.5e-6);
  BOOST_TEST(std::string(network_kind(p.network)) == "star");
  // star links default to the NICs' aggregate bandwidth
  BOOST_TEST(std::get<StarNetwork>(p.network).link_bandwidth == 25e9);
  BOOST_TEST(p.model_section("maxmin").is_map());
  BOOST_TEST(!p.model_section("staircase").present());
}

BOOST_AUTO_TEST_CASE(missing_key) {
  BOOST_TEST(error_with("name: t\n", "") ==
             "p.yaml:1:1: document: missing required key 'name' (a short platform name)");
  BOOST_TEST(
      error_with("latency: 2us, ", "") ==
      "p.yaml:6:17: levels.inter_socket: missing required key 'latency' (a duration such as 1.7us, 5ms or 2e-6 (s))");
}

BOOST_AUTO_TEST_CASE(unknown_key_with_suggestion) {
  BOOST_TEST(error_with("inter_node:", "inter_nod:") ==
             "p.yaml:7:3: levels.inter_nod: unknown key (did you mean 'inter_node'?); expected one of: intra_socket, "
             "inter_socket, inter_node");
  BOOST_TEST(error_with("core_speed", "cpu_speed") ==
             "p.yaml:3:52: nodes.cpu_speed: unknown key (did you mean 'core_speed'?); expected one of: count, sockets, "
             "cores_per_socket, core_speed, hosts");
}

BOOST_AUTO_TEST_CASE(bad_values) {
  BOOST_TEST(
      error_with("latency: 1us", "latency: fast") ==
      "p.yaml:5:27: levels.intra_socket.latency: expected a duration such as 1.7us, 5ms or 2e-6 (s), got 'fast'");
  BOOST_TEST(error_with("bandwidth: 5GB/s", "bandwidth: 5GB") ==
             "p.yaml:6:66: levels.inter_socket.bandwidth: expected a bandwidth such as 12.5GB/s, 100Mbps or 1e9 (B/s), "
             "got '5GB'");
  BOOST_TEST(error_with("count: 4", "count: -4") ==
             "p.yaml:3:16: nodes.count: expected an integer in [1, 16384], got '-4'");
  BOOST_TEST(error_with("sockets: 2", "sockets: two") ==
             "p.yaml:3:28: nodes.sockets: expected an integer in [1, 64], got 'two'");
  BOOST_TEST(
      error_with("eager_threshold: 4KiB, bandwidth: 5", "eager_threshold: 4.5, bandwidth: 5") ==
      "p.yaml:6:49: levels.inter_socket.eager_threshold: expected a size in bytes such as 4096, 8KiB, 16K or 1MB, "
      "got '4.5'");
}

BOOST_AUTO_TEST_CASE(transport_buffer) {
  // Absent: 0, a send completes at delivery as before.
  for (Level l : kAllLevels) BOOST_TEST(parse(kValid).level(l).transport_buffer == 0u);
  const Platform p = parse(replace(kValid, "bandwidth: 10GB/s}", "bandwidth: 10GB/s, transport_buffer: 1MiB}"));
  BOOST_TEST(p.level(Level::InterNode).transport_buffer == 1048576u);
  BOOST_TEST(p.level(Level::IntraSocket).transport_buffer == 0u);
  // The inter-node level's entry with `extra` added: its error.
  auto error_adding = [](const std::string& extra) {
    return error_with("bandwidth: 10GB/s}", "bandwidth: 10GB/s, " + extra + "}");
  };
  BOOST_TEST(error_adding("transport_buffer: 1.5MB/s") ==
             "p.yaml:7:91: levels.inter_node.transport_buffer: expected a size in bytes such as 4096, 8KiB, 16K or "
             "1MB, got '1.5MB/s'");
  BOOST_TEST(error_adding("transport_bufer: 1MiB") ==
             "p.yaml:7:73: levels.inter_node.transport_bufer: unknown key (did you mean 'transport_buffer'?); expected "
             "one of: latency, eager_threshold, bandwidth, transport_buffer");
}

BOOST_AUTO_TEST_CASE(bad_bandwidth_tables) {
  const std::string table = "{1: 10GB/s, 2: 16GB/s, 8: 20GB/s}";
  BOOST_TEST(error_with(table, "{2: 16GB/s, 8: 20GB/s}") ==
             "p.yaml:5:66: levels.intra_socket.bandwidth: invalid bandwidth table: the first entry must be N = 1 (the "
             "single-pair bandwidth)");
  BOOST_TEST(error_with(table, "{1: 10GB/s, 8: 16GB/s, 2: 20GB/s}") ==
             "p.yaml:5:66: levels.intra_socket.bandwidth: invalid bandwidth table: N must increase strictly (N = 2 "
             "follows N = 8)");
  BOOST_TEST(error_with(table, "{1: 10GB/s, 1: 16GB/s}") ==
             "p.yaml:5:78: levels.intra_socket.bandwidth.1: duplicate key");
  BOOST_TEST(error_with(table, "{1: 10GB/s, x: 16GB/s}") ==
             "p.yaml:5:78: levels.intra_socket.bandwidth.x: expected an integer in [1, 1048576], got 'x'");
  BOOST_TEST(error_with(table, "[10GB/s]") ==
             "p.yaml:5:66: levels.intra_socket.bandwidth: expected a bandwidth, or a table {N: bandwidth} of aggregate "
             "bandwidth by competing processes, got a list");
}

BOOST_AUTO_TEST_CASE(networks) {
  BOOST_TEST(error_with("topology: star", "topology: tree") ==
             "p.yaml:9:21: network.topology: unknown topology 'tree'; expected one of: star, fat-tree, dragonfly+");
  BOOST_TEST(error_with("topology: star", "topology: fat-tre") ==
             "p.yaml:9:21: network.topology: unknown topology 'fat-tre' (did you mean 'fat-tree'?); expected one of: "
             "star, fat-tree, dragonfly+");
  const std::string tree = "{topology: fat-tree, levels: 2, down: [2, 2], up: [1, 2], link_count: [1, 1]}";
  const Platform ok = parse(replace(kValid, "{topology: star}", tree));
  BOOST_TEST(std::get<FatTreeNetwork>(ok.network).leaves() == 4u);
  BOOST_TEST(
      error_with("{topology: star}", "{topology: fat-tree, levels: 2, down: [2], up: [1, 2], link_count: [1, 1]}") ==
      "p.yaml:9:48: network.down: expected a list of 2 positive integers (one per level), got 1");
  BOOST_TEST(
      error_with("{topology: star}", "{topology: fat-tree, levels: 2, down: [1, 2], up: [1, 2], link_count: [1, 1]}") ==
      "p.yaml:9:48: network.down: the fat tree has 2 leaves (product of 'down') but 4 nodes need one each");
}

BOOST_AUTO_TEST_CASE(dragonfly_plus) {
  const std::string df =
      "{topology: dragonfly+, groups: 2, leaves_per_group: 2, spines_per_group: 2, nodes_per_leaf: 2, "
      "global_links: 1, local_link_bandwidth: 25GB/s, global_link_bandwidth: 25GB/s";
  const Platform ok = parse(replace(kValid, "{topology: star}", df + "}"));
  const auto& d = std::get<DragonflyPlusNetwork>(ok.network);
  BOOST_TEST(d.nodes_per_group == std::vector<int>({4, 0}), boost::test_tools::per_element());
  const Platform uneven = parse(replace(kValid, "{topology: star}", df + ", nodes_per_group: [3, 1]}"));
  BOOST_TEST(std::get<DragonflyPlusNetwork>(uneven.network).nodes_per_group == std::vector<int>({3, 1}),
             boost::test_tools::per_element());
  BOOST_TEST(error_with("{topology: star}", df + ", nodes_per_group: [3, 3]}") ==
             "p.yaml:9:200: network.nodes_per_group: the entries add up to 6 nodes but nodes.count is 4");
  BOOST_TEST(error_with("{topology: star}", df + ", nodes_per_group: [5, 0]}") ==
             "p.yaml:9:201: network.nodes_per_group[0]: expected an integer in [0, 4], got '5'");
  BOOST_TEST(error_of(replace(replace(kValid, "{topology: star}", df + "}"), "count: 4", "count: 9")) ==
             "p.yaml:9:10: network: the network has room for 8 nodes (groups x leaves_per_group x nodes_per_leaf) but "
             "nodes.count is 9");
}

BOOST_AUTO_TEST_CASE(yaml_syntax_and_files) {
  BOOST_TEST(error_of("name: t\nnodes: {count: 4\n") == "p.yaml:3:1: YAML syntax error: end of map flow not found");
  BOOST_TEST(
      error_of("- just\n- a list\n") ==
      "p.yaml:1:1: document: expected a platform description (a mapping with nodes, levels, nic, network), got a "
      "list");
  BOOST_CHECK_EXCEPTION(read_platform("/nonexistent/x.yaml"), Error, [](const Error& e) {
    return std::string(e.what()) == "cannot open '/nonexistent/x.yaml' for reading: No such file or directory";
  });
}

BOOST_AUTO_TEST_CASE(progression_setting) {
  BOOST_TEST((parse(kValid).progress == Progress::Thread));  // the default
  BOOST_TEST((parse(kValid + "progress: none\n").progress == Progress::None));
  BOOST_TEST(error_of(kValid + "progress: eventually\n") ==
             "p.yaml:12:11: progress: expected none, thread, dedicated-core (how nonblocking communication "
             "progresses), got 'eventually'");
  BOOST_TEST(error_of(replace(kValid, "sockets: 2, cores_per_socket: 8", "sockets: 1, cores_per_socket: 1") +
                      "progress: dedicated-core\n") ==
             "p.yaml:12:11: progress: dedicated-core needs at least two cores per node");
}

BOOST_AUTO_TEST_CASE(models_section_must_be_a_map) {
  BOOST_TEST(error_with("models:\n  maxmin: {}\n", "models: [maxmin]\n") ==
             "p.yaml:10:9: models: expected a mapping from model name to its parameters, got a list");
}

BOOST_AUTO_TEST_CASE(shipped_platforms_parse) {
  namespace fs = std::filesystem;
  int count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(CONTEND_SOURCE_DIR) / "platforms")) {
    if (entry.path().extension() != ".yaml") continue;
    BOOST_TEST_CONTEXT(entry.path().filename().string()) {
      const Platform p = read_platform(entry.path().string());
      BOOST_TEST(p.name == entry.path().stem().string());
      BOOST_TEST(p.nodes.total_cores() > 0);
      ++count;
    }
  }
  BOOST_TEST(count >= 2);
}

BOOST_AUTO_TEST_SUITE_END()
