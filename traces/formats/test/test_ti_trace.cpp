// SimGrid time-independent traces: parsing every action SimGrid 3.32 writes
// (lines taken from a `smpirun -trace-ti` run of 4 ranks), writing them back,
// errors with file:line:col, and locating rank files.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "tests/harness/error_message.hpp"
#include "traces/formats/ti_trace.hpp"

using namespace contend;
namespace fs = std::filesystem;

namespace {

// Communicators 1 and 2 exist, of 2 ranks each.
std::optional<int> two_ranks(int id) { return id <= 2 ? std::optional<int>(2) : std::nullopt; }

TiAction parse(const std::string& line, int world = 4) {
  auto a = parse_ti_line(line, "t.txt", 7, world, two_ranks);
  BOOST_REQUIRE(a.has_value());
  return *a;
}

std::string error_of(const std::string& line, int world = 4) {
  return test::error_message([&] { parse_ti_line(line, "t.txt", 7, world, two_ranks); });
}

// A fresh directory under the system's temporary one.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("contend-ti-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ti_trace)

BOOST_AUTO_TEST_CASE(point_to_point_lines_as_simgrid_writes_them) {
  const auto a = parse("0 irecv 3 7 4096 0");
  BOOST_TEST((a.kind == TiKind::Irecv));
  BOOST_TEST(a.rank == 0);
  BOOST_TEST(a.peer == 3);
  BOOST_TEST(a.tag == 7);
  BOOST_TEST(a.count == 4096);
  BOOST_TEST(a.datatype1 == "0");
  const auto w = parse("1 wait 1 0 5");
  BOOST_TEST((w.kind == TiKind::Wait));
  BOOST_TEST(w.src == 1);
  BOOST_TEST(w.dst == 0);
  BOOST_TEST(w.tag == 5);
  BOOST_TEST(parse("0 waitall 2").amount == 2.0);
  BOOST_TEST(parse("0 compute 69.0335").amount == 69.0335);
  BOOST_TEST(parse("2 send 1 3 100").datatype1 == "");  // the type is optional
  BOOST_TEST(parse("1 recv -1 -1 64 1").peer == -1);    // MPI_ANY_SOURCE, MPI_ANY_TAG
}

BOOST_AUTO_TEST_CASE(other_simgrid_lines_map_onto_the_kinds_contend_replays) {
  const auto sr = parse("0 sendRecv 1000 1 1000 3 0 0");  // MPI_Sendrecv: counts and ranks, no tags
  BOOST_TEST((sr.kind == TiKind::SendRecv));
  BOOST_TEST(sr.send_count == 1000);
  BOOST_TEST(sr.dst == 1);
  BOOST_TEST(sr.src == 3);
  const auto ss = parse("0 Ssend 1 2 10 1");
  BOOST_TEST((ss.kind == TiKind::Send));
  BOOST_TEST(ti_action_name(ss) == "Ssend");
  BOOST_TEST((parse("0 ibsend 1 2 10 1").kind == TiKind::Isend));
  BOOST_TEST(parse("0 waitAny 2").amount == 2.0);
}

BOOST_AUTO_TEST_CASE(collective_lines_as_simgrid_writes_them) {
  const auto b = parse("0 bcast 1000 0 0 ");  // SimGrid leaves a trailing blank
  BOOST_TEST(b.count == 1000);
  BOOST_TEST(b.root == 0);
  const auto r = parse("0 reduce 10 0 1 0 ");
  BOOST_TEST(r.count == 10);
  BOOST_TEST(r.root == 1);
  const auto gv = parse("0 gatherv 1 1 2 3 4 0 0 0");
  BOOST_TEST(gv.send_count == 1);
  BOOST_TEST(gv.recv_counts == (std::vector<std::int64_t>{1, 2, 3, 4}), boost::test_tools::per_element());
  const auto sv = parse("1 scatterv 0 0 0 0 2 0 0 0");
  BOOST_TEST(sv.send_counts == (std::vector<std::int64_t>{0, 0, 0, 0}), boost::test_tools::per_element());
  BOOST_TEST(sv.recv_count == 2);
  const auto av = parse("1 alltoallv 8 2 2 2 2 10 1 2 3 4 0 0");
  BOOST_TEST(av.send_count == 8);
  BOOST_TEST(av.send_counts == (std::vector<std::int64_t>{2, 2, 2, 2}), boost::test_tools::per_element());
  BOOST_TEST(av.recv_count == 10);
  BOOST_TEST(av.recv_counts == (std::vector<std::int64_t>{1, 2, 3, 4}), boost::test_tools::per_element());
  const auto rs = parse("0 reducescatter 1 2 3 4 0 0");
  BOOST_TEST(rs.recv_counts == (std::vector<std::int64_t>{1, 2, 3, 4}), boost::test_tools::per_element());
  BOOST_TEST(rs.datatype1 == "0");
  BOOST_TEST(parse("0 gather 10 10 0 0 0").root == 0);
  BOOST_TEST(parse("0 alltoall 100 100 0 0").recv_count == 100);
}

BOOST_AUTO_TEST_CASE(every_action_is_written_back_as_read) {
  const std::vector<std::string> lines = {"0 init",
                                          "0 init 1",
                                          "0 finalize",
                                          "0 send 1 3 100 1",
                                          "0 isend 1 7 4096 0",
                                          "0 recv -1 2 64 1",
                                          "0 irecv 3 7 4096",
                                          "0 test 3 0 7",
                                          "0 wait 1 0 5",
                                          "0 waitall 2",
                                          "0 compute 69.0335",
                                          "0 sleep 0.5",
                                          "0 barrier",
                                          "0 bcast 1000 0 0",
                                          "0 reduce 10 0 1 0",
                                          "0 allreduce 10 0 0",
                                          "0 alltoall 100 100 0 0",
                                          "0 alltoallv 4 1 1 1 1 10 1 2 3 4 0 0",
                                          "0 gather 10 10 0 0 0",
                                          "0 gatherv 1 1 2 3 4 0 0 0",
                                          "0 scatter 10 10 0 0 0",
                                          "0 scatterv 1 2 3 4 1 0 0 0",
                                          "0 allgather 10 10 0 0",
                                          "0 allgatherv 1 1 2 3 4 0 0",
                                          "0 reducescatter 1 2 3 4 0 0",
                                          "0 comm_size 4",
                                          "0 comm_split 0 1 3",
                                          "0 comm_dup 2",
                                          "0 allreduce 5 0 0 comm=2",
                                          "0 isend 1 4 64 6 type=vector:16,1,16:float comm=1",
                                          "3 gatherv 1 1 2 0 0 0 comm=1",
                                          "0 sendRecv 1000 1 1000 3 0 0",
                                          "0 Ssend 1 2 10 1",
                                          "0 bsend 1 2 10 1",
                                          "0 ISsend 1 2 10 1",
                                          "0 ibsend 1 2 10 1",
                                          "0 waitAny 2",
                                          "0 testany",
                                          "0 testall",
                                          "0 testsome",
                                          "0 scan 8 100",
                                          "0 exscan 8 100 1"};
  for (const auto& line : lines) BOOST_TEST(format_ti_action(parse(line)) == line);
  // 39 actions, and the 11 names SimGrid wrote before 3.20 (Isend, waitAll, ...).
  BOOST_TEST(ti_action_names().size() == 50u);
}

BOOST_AUTO_TEST_CASE(lines_on_a_communicator_count_its_ranks_not_the_world) {
  const auto a = parse("3 allgatherv 5 1 2 0 0 comm=1");
  BOOST_TEST(a.comm == 1);
  BOOST_TEST(a.rank == 3);  // the line's rank is a world rank
  BOOST_TEST(a.recv_counts == (std::vector<std::int64_t>{1, 2}), boost::test_tools::per_element());
  BOOST_TEST(error_of("0 isend 3 0 8 comm=1") == "t.txt:7:9: peer: 3 is out of range [0, 1]");
  BOOST_TEST(error_of("0 barrier comm=3") ==
             "t.txt:7:11: communicator 3 was not created on this rank (by comm_split or comm_dup) before this line");
}

BOOST_AUTO_TEST_CASE(comments_and_blank_lines_are_skipped) {
  BOOST_TEST(!parse_ti_line("", "t", 1, 4).has_value());
  BOOST_TEST(!parse_ti_line("   # note", "t", 1, 4).has_value());
  BOOST_TEST((parse("0 barrier # the first one").kind == TiKind::Barrier));
}

BOOST_AUTO_TEST_CASE(errors_name_the_line_the_column_and_what_was_expected) {
  BOOST_TEST(error_of("0 isnd 1 2 3") == "t.txt:7:3: unknown action 'isnd' (did you mean 'isend'?)");
  BOOST_TEST(error_of("0 isend 1 2") ==
             "t.txt:7:11: expected 'RANK isend PEER TAG COUNT [DATATYPE]': 1 field(s) missing");
  BOOST_TEST(error_of("0 isend 9 2 3") == "t.txt:7:9: peer: 9 is out of range [0, 3]");
  BOOST_TEST(error_of("4 barrier") == "t.txt:7:1: rank: 4 is out of range [0, 3]");
  BOOST_TEST(error_of("0 send 1 2 x") == "t.txt:7:12: count: expected an integer, got 'x'");
  BOOST_TEST(error_of("0 send 1 2 3 99") ==
             "t.txt:7:14: unknown datatype id '99': SimGrid 3.32 predefines ids 0 to 59");
  BOOST_TEST(error_of("0 compute -1") == "t.txt:7:11: flops: expected a number >= 0, got '-1'");
  BOOST_TEST(error_of("0 gatherv 1 1 2") ==
             "t.txt:7:15: expected 'RANK gatherv SEND_COUNT RECV_COUNT x 4 ...': "
             "2 field(s) missing");
  BOOST_TEST(error_of("0 barrier comm=x") == "t.txt:7:11: expected 'comm=ID' with ID >= 0, got 'comm=x'");
  BOOST_TEST(error_of("0") == "t.txt:7:1: expected 'RANK ACTION ARGUMENTS...'");
  // Collectives with and without a root: the usage names the fields each takes.
  const std::pair<std::string, std::string> usages[] = {
      {"0 reduce 10", "t.txt:7:10: expected 'RANK reduce COUNT FLOPS [ROOT [DATATYPE]]'"},
      {"0 allreduce 10", "t.txt:7:13: expected 'RANK allreduce COUNT FLOPS [DATATYPE]'"},
      {"0 gather 10", "t.txt:7:10: expected 'RANK gather SEND_COUNT RECV_COUNT [ROOT [DATATYPE1 [DATATYPE2]]]'"},
      {"0 scatter 10", "t.txt:7:11: expected 'RANK scatter SEND_COUNT RECV_COUNT [ROOT [DATATYPE1 [DATATYPE2]]]'"},
      {"0 allgather 10", "t.txt:7:13: expected 'RANK allgather SEND_COUNT RECV_COUNT [DATATYPE1 [DATATYPE2]]'"},
      {"0 alltoall 10", "t.txt:7:12: expected 'RANK alltoall SEND_COUNT RECV_COUNT [DATATYPE1 [DATATYPE2]]'"},
  };
  for (const auto& [line, usage] : usages) BOOST_TEST(error_of(line) == usage + ": 1 field(s) missing");
  BOOST_TEST(error_of("0 reduce 10 0 9") == "t.txt:7:15: root: 9 is out of range [0, 3]");
  BOOST_TEST(error_of("0 allreduce 10 0 99") ==
             "t.txt:7:18: unknown datatype id '99': SimGrid 3.32 predefines "
             "ids 0 to 59");
  BOOST_TEST(error_of("0 gather 10 10 9") == "t.txt:7:16: root: 9 is out of range [0, 3]");
  BOOST_TEST(error_of("0 allgather 10 10 0 99") ==
             "t.txt:7:21: unknown datatype id '99': SimGrid 3.32 predefines "
             "ids 0 to 59");
}

BOOST_AUTO_TEST_CASE(bytes_follow_simgrid_datatype_sizes) {
  BOOST_TEST(simgrid_datatype_size("0").value() == 8);    // MPI_DOUBLE
  BOOST_TEST(simgrid_datatype_size("1").value() == 4);    // MPI_INT
  BOOST_TEST(simgrid_datatype_size("2").value() == 1);    // MPI_CHAR
  BOOST_TEST(simgrid_datatype_size("6").value() == 1);    // MPI_BYTE
  BOOST_TEST(simgrid_datatype_size("27").value() == 32);  // MPI_C_LONG_DOUBLE_COMPLEX
  BOOST_TEST(!simgrid_datatype_size("60").has_value());
  BOOST_TEST(!simgrid_datatype_size("-1").has_value());
  const SourceLocation where{"t", 1, 1};
  BOOST_TEST(ti_bytes(10, "0", false, where) == 80u);
  BOOST_TEST(ti_bytes(10, "", false, where) == 10u);  // default MPI_BYTE
  BOOST_TEST(ti_bytes(10, "", true, where) == 80u);   // `init` with an argument: MPI_DOUBLE
}

BOOST_AUTO_TEST_CASE(an_index_is_resolved_next_to_itself_whatever_the_directory_smpirun_ran_in) {
  const auto dir = scratch("index");
  // As smpirun writes it when run from elsewhere: "run/trace.txt_files/<stamp>_rank-N.txt".
  write(dir / "trace.txt_files" / "1_rank-1.txt", "0 init\n0 finalize\n");
  write(dir / "trace.txt_files" / "1_rank-2.txt", "1 init\n1 finalize\n");
  write(dir / "trace.txt", "run/trace.txt_files/1_rank-1.txt\nrun/trace.txt_files/1_rank-2.txt\n");
  const auto files = open_ti_trace((dir / "trace.txt").string());
  BOOST_TEST(!files.single_file);
  BOOST_TEST(files.ranks() == 2);
  BOOST_TEST(fs::path(files.rank_files[1]).filename() == "1_rank-2.txt");
  TiRankReader reader(files, 1);
  BOOST_TEST((reader.next()->kind == TiKind::Init));
  BOOST_TEST((reader.next()->kind == TiKind::Finalize));
  BOOST_TEST(!reader.next().has_value());
}

BOOST_AUTO_TEST_CASE(a_missing_rank_file_is_an_error_at_its_index_line) {
  const auto dir = scratch("missing");
  write(dir / "trace.txt", "rank-0.txt\n");
  BOOST_CHECK_EXCEPTION(open_ti_trace((dir / "trace.txt").string()), Error, [&](const Error& e) {
    return std::string(e.what()).starts_with((dir / "trace.txt").string() + ":1:1: rank file 'rank-0.txt' not found");
  });
}

BOOST_AUTO_TEST_CASE(a_single_file_holds_every_rank_and_each_reader_sees_its_own) {
  const auto dir = scratch("single");
  write(dir / "all.txt", "0 init\n2 init\n1 init\n0 isend 2 0 8\n2 irecv 0 0 8\n0 waitall 1\n2 waitall 1\n");
  const auto files = open_ti_trace((dir / "all.txt").string());
  BOOST_TEST(files.single_file);
  BOOST_TEST(files.ranks() == 3);
  TiRankReader reader(files, 2);
  std::vector<TiKind> kinds;
  while (auto a = reader.next()) kinds.push_back(a->kind);
  BOOST_TEST((kinds == std::vector<TiKind>{TiKind::Init, TiKind::Irecv, TiKind::Waitall}));
  BOOST_TEST(reader.where().line == 7);
}

BOOST_AUTO_TEST_CASE(an_index_of_one_file_holding_every_rank_is_a_single_file_trace) {
  // SimGrid's --cfg=tracing/smpi/format/ti-one-file:yes
  const auto dir = scratch("one-file");
  write(dir / "one.txt_files" / "1_rank-1.txt", "0 init\n1 init\n2 init\n0 finalize\n1 finalize\n2 finalize\n");
  write(dir / "one.txt", "one.txt_files/1_rank-1.txt\n");
  const auto files = open_ti_trace((dir / "one.txt").string());
  BOOST_TEST(files.single_file);
  BOOST_TEST(files.ranks() == 3);
  TiRankReader reader(files, 2);
  BOOST_TEST(reader.next()->rank == 2);
  BOOST_TEST(reader.where().line == 3);
}

BOOST_AUTO_TEST_CASE(a_line_in_the_wrong_rank_file_is_an_error) {
  const auto dir = scratch("wrong");
  write(dir / "r0.txt", "0 init\n1 barrier\n");
  write(dir / "r1.txt", "1 init\n");
  write(dir / "trace.txt", "r0.txt\nr1.txt\n");
  TiRankReader reader(open_ti_trace((dir / "trace.txt").string()), 0);
  reader.next();
  BOOST_CHECK_EXCEPTION(reader.next(), Error, [](const Error& e) {
    return std::string(e.what()).ends_with("r0.txt:2:1: line for rank 1 in rank 0's file");
  });
}

BOOST_AUTO_TEST_SUITE_END()
