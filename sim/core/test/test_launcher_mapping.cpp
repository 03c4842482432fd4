// Launcher mappings (ompi:, slurm:) against hand-worked placements, and Open
// MPI rankfiles written then read back.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/hosts.hpp"
#include "sim/core/launcher_mapping.hpp"
#include "sim/core/mapping.hpp"
#include "sim/core/rankfile.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;

namespace contend {
// Defined in test_mapping.cpp.
std::ostream& operator<<(std::ostream& out, const Placement& p);
}  // namespace contend

namespace {

// 2 nodes of 2 sockets of 4 cores, named node0 and node1.
Machine two_by_two_by_four() { return default_machine(NodeArchitecture{2, 2, 4, 1e9}); }

std::vector<Placement> placements(const Mapping& m) { return m.placements(); }

std::string write_temp(const std::string& name, const std::string& content) {
  const auto path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << content;
  return path;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(launcher_mapping)

// rmaps_base_map_job.c: by core for 2 processes or fewer, else by NUMA (a
// socket here); ranked by slot, bound to the mapped object's first free core.
BOOST_AUTO_TEST_CASE(ompi_default_is_by_core_up_to_two_ranks) {
  const auto m = ompi_mapping("default", 2, two_by_two_by_four(), false);
  const std::vector<Placement> expected = {{0, 0, 0}, {0, 0, 1}};
  BOOST_TEST(placements(m) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ompi_default_is_by_socket_beyond_two_ranks) {
  const auto m = ompi_mapping("default", 4, two_by_two_by_four(), false);
  const std::vector<Placement> expected = {{0, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 1}};
  BOOST_TEST(placements(m) == expected, boost::test_tools::per_element());
  // The first node's 8 slots fill before the second node.
  const auto nine = ompi_mapping("default", 9, two_by_two_by_four(), false);
  BOOST_TEST(nine[7].node == 0);
  BOOST_TEST(nine[8].node == 1);
}

BOOST_AUTO_TEST_CASE(ompi_by_node_and_ppr) {
  const auto by_node = ompi_mapping("node", 4, two_by_two_by_four(), false);
  BOOST_TEST(by_node[0].node == 0);
  BOOST_TEST(by_node[1].node == 1);
  BOOST_TEST(by_node[2].node == 0);
  BOOST_TEST(by_node[3].node == 1);
  // ppr:1:socket: one process per socket, 4 in all.
  const auto ppr = ompi_mapping("ppr:1:socket", 4, two_by_two_by_four(), false);
  const std::vector<Placement> expected = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}};
  BOOST_TEST(placements(ppr) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ompi_pe_binds_several_cores) {
  const auto m = ompi_mapping("socket:PE=2", 4, two_by_two_by_four(), false);
  BOOST_TEST(m.cores_per_rank() == 2);
  check_cores_not_shared(m, false, "test");
}

BOOST_AUTO_TEST_CASE(ompi_more_ranks_than_slots) {
  BOOST_TEST(test::error_message([] { ompi_mapping("core", 17, two_by_two_by_four(), false); }) != test::kNoError);
  BOOST_TEST(ompi_mapping("core", 17, two_by_two_by_four(), true).rank_count() == 17);
}

BOOST_AUTO_TEST_CASE(slurm_block_and_cyclic) {
  // --distribution=block:block on 2 nodes: 8 tasks fill node 0, socket by socket.
  const auto block = slurm_mapping("block:block", 10, two_by_two_by_four(), false);
  BOOST_TEST(block[3].node == 0);
  BOOST_TEST(block[4].socket == 1);
  BOOST_TEST(block[9].node == 1);
  // cyclic over nodes, cyclic (the default second level) over sockets.
  const auto cyclic = slurm_mapping("cyclic", 4, two_by_two_by_four(), false);
  const std::vector<Placement> expected = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  BOOST_TEST(placements(cyclic) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(slurm_plane_deals_blocks_to_nodes) {
  // plane=2, 8 tasks on 2 nodes: {0,1,4,5} on node 0, {2,3,6,7} on node 1.
  const auto m = slurm_mapping("plane=2", 8, two_by_two_by_four(), false);
  for (int r : {0, 1, 4, 5}) BOOST_TEST(m[r].node == 0);
  for (int r : {2, 3, 6, 7}) BOOST_TEST(m[r].node == 1);
  check_cores_not_shared(m, false, "test");
}

BOOST_AUTO_TEST_CASE(rankfile_written_then_read_is_the_same_mapping) {
  const Machine machine = two_by_two_by_four();
  for (const std::string spec :
       {"block", "cyclic", "socket", "ompi:default", "ompi:node", "slurm:plane=3", "slurm:cyclic:block"}) {
    const Mapping original = make_mapping(spec, 7, machine, false);
    for (SlotStyle style : {SlotStyle::SocketCore, SlotStyle::NodeCore}) {
      std::ostringstream text;
      write_rankfile(text, original, machine, style);
      const auto path = write_temp("contend-roundtrip.rankfile", text.str());
      const Mapping read = read_rankfile(path, 7, machine, false);
      BOOST_TEST_INFO(spec);
      BOOST_TEST(placements(read) == placements(original), boost::test_tools::per_element());
      BOOST_TEST(read.cores_per_rank() == original.cores_per_rank());
    }
  }
  // Two cores per rank: slot=S:C1-C2 ranges.
  const Mapping wide = make_mapping("ompi:socket:PE=2", 4, machine, false);
  std::ostringstream text;
  write_rankfile(text, wide, machine, SlotStyle::SocketCore);
  BOOST_TEST(text.str().find("slot=0:0-1") != std::string::npos);
  const Mapping read = read_rankfile(write_temp("contend-wide.rankfile", text.str()), 4, machine, false);
  BOOST_TEST((read == wide));
}

BOOST_AUTO_TEST_CASE(rankfile_errors_name_file_line_column) {
  const Machine machine = two_by_two_by_four();
  const auto read = [&](const std::string& text) {
    const auto path = write_temp("contend-bad.rankfile", text);
    return test::error_message([&] { read_rankfile(path, 2, machine, false); });
  };
  const auto at = (std::filesystem::temp_directory_path() / "contend-bad.rankfile").string();
  BOOST_TEST(read("rank 0=node0 slot=0:0\nrank 1=node9 slot=0:1\n") ==
             at + ":2:8: unknown host 'node9' (did you mean 'node0'?); the machine's hosts are node0, node1 "
                  "(nodes.hosts in the platform, or --hosts FILE)");
  BOOST_TEST(read("rank 0=node0 slot=0:0\nrank 0=node1 slot=0:1\n") == at + ":2:6: rank 0 is already placed on line 1");
  BOOST_TEST(read("rank 1=node0 slot=0:0\n") == at + ": rank 0 is not placed (the workload has 2 ranks)");
  BOOST_TEST(read("rank 0=node0 slot=2:0\nrank 1=node0 slot=0:1\n") ==
             at + ":1:19: slot=2:0: node0 has 2 sockets (0-1)");
  BOOST_TEST(read("rank 0=node0 slot=8\nrank 1=node0 slot=0:1\n") == at + ":1:19: slot=8: node0 has 8 cores (0-7)");
  BOOST_TEST(read("rank 0=+n0 slot=0:0\nrank 1=+n0 slot=0:0\n") ==
             at + ":2:17: rank 1 shares node0 socket 0 core 0 with rank 0; pass --oversubscribe to allow it");
  BOOST_TEST(read("rank 0=node0 slot=0:0\nrank 2=node0 slot=0:1\n") ==
             at + ":2:6: rank 2, but the workload has 2 ranks (0-1)");
}

BOOST_AUTO_TEST_SUITE_END()
