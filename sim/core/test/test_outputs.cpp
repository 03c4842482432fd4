#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/results.hpp"

using namespace contend;

namespace {

Results sample() {
  Results r;
  r.model = "maxmin";
  r.platform = "p";
  r.workload = "w";
  r.mapping = "block";
  r.ranks = {{0, {0, 0, 0}, 0.001, 0.002, 0.002}, {1, {1, 0, 3}, 1.0 / 3.0, 0.0, 1.0 / 3.0}};
  r.levels[2] = {2, 3000};
  r.messages = {{0, 1, 1000, Level::InterNode, 0.0, 0.001}};
  return r;
}

// What `write` prints of sample().
template <class Write>
std::string written(Write write) {
  std::ostringstream out;
  write(out, sample());
  return out.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(outputs)

BOOST_AUTO_TEST_CASE(rank_csv_has_header_and_12_significant_digits) {
  BOOST_TEST(written(write_rank_csv) ==
             "rank,node,socket,core,recv_time_s,send_time_s,total_time_s\n"
             "0,0,0,0,0.001,0.002,0.002\n"
             "1,1,0,3,0.333333333333,0,0.333333333333\n");
}

BOOST_AUTO_TEST_CASE(messages_csv) {
  BOOST_TEST(written(write_messages_csv) == "src,dst,bytes,level,start_s,end_s\n0,1,1000,inter_node,0,0.001\n");
}

BOOST_AUTO_TEST_CASE(json_summary) {
  const auto head = json_head("simulate", "9.9", {{"size", "B"}}, {{"model", "maxmin"}, {"oversubscribe", false}});
  const std::string j = written([&](std::ostream& out, const Results& r) { write_json(out, r, head); });
  BOOST_TEST(j.find("\"makespan\": 0.3333333333333333") != std::string::npos);
  BOOST_TEST(j.find("\"inter_node\": {\n      \"messages\": 2,\n      \"bytes\": 3000") != std::string::npos);
  // What the document is, how it was made, and its units, first.
  BOOST_TEST(
      j.starts_with("{\n  \"schema\": \"contend.simulate\",\n  \"schema_version\": 1,\n"
                    "  \"contend_version\": \"9.9\",\n  \"units\": {\n    \"size\": \"B\",\n"
                    "    \"makespan\": \"s\",\n    \"recv_time\": \"s\",\n    \"send_time\": \"s\",\n"
                    "    \"total_time\": \"s\",\n    \"bytes\": \"B\"\n  },\n  \"options\": {\n"
                    "    \"model\": \"maxmin\",\n    \"oversubscribe\": false\n  },\n"));
  BOOST_TEST(nlohmann::json::parse(j)["ranks"][1]["total_time"].get<double>() == 1.0 / 3.0);
}

BOOST_AUTO_TEST_CASE(summary_names_slowest_and_fastest) {
  const std::string s = written([](std::ostream& out, const Results& r) { print_summary(out, r); });
  BOOST_TEST(s.find("makespan        333.333 ms") != std::string::npos);
  BOOST_TEST(s.find("slowest rank    1 (333.333 ms, node 1 socket 0 core 3)") != std::string::npos);
  BOOST_TEST(s.find("fastest rank    0 (2.000 ms, node 0 socket 0 core 0)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(atomic_write_leaves_nothing_on_failure) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / "contend-atomic-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto target = (dir / "out.csv").string();
  write_file_atomically(target, [](std::ostream& o) { o << "complete\n"; });
  BOOST_CHECK_THROW(write_file_atomically(target,
                                          [](std::ostream& o) {
                                            o << "partial";
                                            throw Error("interrupted");
                                          }),
                    Error);
  std::ifstream in(target);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BOOST_TEST(content == "complete\n");                                                    // the old file is untouched
  BOOST_TEST(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}) == 1);  // no temporary left
  BOOST_CHECK_THROW(write_file_atomically((dir / "missing" / "x.csv").string(), [](std::ostream&) {}), Error);
}

BOOST_AUTO_TEST_SUITE_END()
