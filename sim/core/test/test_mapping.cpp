#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "sim/core/error.hpp"
#include "sim/core/mapping.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
namespace tt = boost::test_tools;

namespace contend {
std::ostream& operator<<(std::ostream& out, const Placement& p) {
  return out << "{" << p.node << ", " << p.socket << ", " << p.core << "}";
}
}  // namespace contend

namespace {

NodeArchitecture arch(int nodes, int sockets, int cores) { return NodeArchitecture{nodes, sockets, cores, 1e9}; }

// Every rank's placement (node, socket, core), in rank order.
std::vector<Placement> placements(const Mapping& m) {
  std::vector<Placement> out;
  for (int rank = 0; rank < m.rank_count(); ++rank) out.push_back(m[rank]);
  return out;
}

std::string write_temp(const std::string& name, const std::string& content) {
  const auto path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << content;
  return path;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mapping)

BOOST_AUTO_TEST_CASE(block_fills_node_by_node) {
  const auto m = make_mapping("block", 8, arch(2, 2, 2), false);
  const std::vector<Placement> expected = {{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {0, 1, 1},
                                           {1, 0, 0}, {1, 0, 1}, {1, 1, 0}, {1, 1, 1}};
  BOOST_TEST(placements(m) == expected, tt::per_element());
  BOOST_TEST(m.level(0, 1) == Level::IntraSocket);
  BOOST_TEST(m.level(0, 2) == Level::InterSocket);
  BOOST_TEST(m.level(3, 4) == Level::InterNode);
  BOOST_TEST(m.level(5, 5) == Level::IntraSocket);
}

BOOST_AUTO_TEST_CASE(block_needs_oversubscribe_beyond_cores) {
  BOOST_TEST(
      test::error_message([] { make_mapping("block", 17, arch(2, 2, 4), false); }) ==
      "mapping 'block': 17 ranks but the platform has only 16 cores (2 nodes x 8); pass --oversubscribe to share "
      "cores");
  const auto m = make_mapping("block", 18, arch(2, 2, 4), true);
  BOOST_TEST((m[16] == Placement{0, 0, 0}));  // wraps around
  BOOST_TEST((m[17] == Placement{0, 0, 1}));
}

BOOST_AUTO_TEST_CASE(cyclic_deals_over_nodes) {
  const auto m = make_mapping("cyclic", 6, arch(3, 2, 2), false);
  BOOST_TEST(
      placements(m) == std::vector<Placement>({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, 1}, {1, 0, 1}, {2, 0, 1}}),
      tt::per_element());
}

BOOST_AUTO_TEST_CASE(socket_deals_over_sockets_of_a_node) {
  // Open MPI --map-by socket: 0 -> s0, 1 -> s1, 2 -> s0, ... until the node is full.
  const auto m = make_mapping("socket", 6, arch(2, 2, 2), false);
  BOOST_TEST(
      placements(m) == std::vector<Placement>({{0, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 1}, {1, 0, 0}, {1, 1, 0}}),
      tt::per_element());
}

BOOST_AUTO_TEST_CASE(mapping_file) {
  const auto path = write_temp("contend-map-ok.txt", "# rank node socket core\n0 1 0 0\n1 0 1 3\n\n2 0 0 0 # last\n");
  const auto m = make_mapping(path, 3, arch(2, 2, 4), false);
  BOOST_TEST(placements(m) == std::vector<Placement>({{1, 0, 0}, {0, 1, 3}, {0, 0, 0}}), tt::per_element());
}

BOOST_AUTO_TEST_CASE(mapping_file_errors) {
  const auto a = arch(2, 2, 4);
  auto bad = [&](const std::string& content) {
    const auto path = write_temp("contend-map-bad.txt", content);
    return test::error_message([&] { make_mapping(path, 2, a, false); });
  };
  const std::string f = (std::filesystem::temp_directory_path() / "contend-map-bad.txt").string();
  BOOST_TEST(bad("0 0 0\n") == f + ":1:1: expected 'rank node socket core', got 3 fields");
  BOOST_TEST(bad("0 0 0 0\n1 2 0 0\n") == f + ":2:1: node must be an integer in [0, 1], got '2'");
  BOOST_TEST(bad("0 0 0 x\n") == f + ":1:1: core must be an integer in [0, 3], got 'x'");
  BOOST_TEST(bad("0 0 0 0\n0 0 0 1\n") == f + ":2:1: rank 0 is already placed on line 1");
  BOOST_TEST(bad("0 0 0 0\n1 0 0 0\n") ==
             f + ":2:1: rank 1 shares node 0 socket 0 core 0 with rank 0; pass --oversubscribe to allow it");
  BOOST_TEST(bad("0 0 0 0\n") == f + ": rank 1 is not placed (the workload has 2 ranks)");
  BOOST_TEST(bad("0 0 0 0\n5 0 0 1\n") == f + ":2:1: rank must be an integer in [0, 1], got '5'");
}

BOOST_AUTO_TEST_CASE(unknown_mapping_name) {
  BOOST_TEST(
      test::error_message([] { make_mapping("cyclc", 2, arch(2, 2, 4), false); }) ==
      "--mapping 'cyclc': neither a mapping (block, cyclic, socket, ompi:POLICY, slurm:DIST, rankfile:FILE) nor an "
      "existing file (did you mean "
      "'cyclic'?)");
}

BOOST_AUTO_TEST_SUITE_END()
