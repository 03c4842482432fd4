// Sweep files: the product of the axes in its documented order, explicit
// cases, platform overrides, the case hash, the rows of results.csv, and
// bad inputs as file:line:col errors.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/sweep_rows.hpp"
#include "sim/core/sweep_spec.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using contend::test::error_message;
namespace fs = std::filesystem;

namespace {

const std::string kSource = CONTEND_SOURCE_DIR;

SweepSpec sweep(const std::string& text) { return parse_sweep(YamlField::load_string(text, "sweep.yaml"), kSource); }

std::string values(const SweepCase& c) {
  std::string out;
  for (const auto& v : c.values) out += (out.empty() ? "" : "|") + v;
  return out;
}

// A folder of its own with a platform file and a pattern, to edit.
fs::path scratch(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("contend-sweep-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kSource + "/platforms/epyc-rome-2node.yaml", dir / "p.yaml");
  fs::copy_file(kSource + "/traces/samples/bidirectional-pairs-4.pattern", dir / "w.pattern");
  return dir;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sweep_spec)

BOOST_AUTO_TEST_CASE(the_product_varies_the_last_axis_fastest) {
  const auto spec = sweep(
      "platform: platforms/epyc-rome-2node.yaml\n"
      "model: [maxmin, staircase]\n"
      "pattern: traces/samples/bidirectional-pairs-4.pattern\n"
      "mapping: [block, cyclic, socket]\n");
  BOOST_TEST(spec.columns == (std::vector<std::string>{"platform", "model", "pattern", "mapping"}),
             boost::test_tools::per_element());
  BOOST_REQUIRE(spec.cases.size() == 6u);
  const char* const expected[] = {"maxmin|block",    "maxmin|cyclic",    "maxmin|socket",
                                  "staircase|block", "staircase|cyclic", "staircase|socket"};
  for (std::size_t i = 0; i < 6; ++i) {
    BOOST_TEST(spec.cases[i].index == i);
    BOOST_TEST(spec.cases[i].model + "|" + spec.cases[i].mapping == expected[i]);
  }
  // Paths are relative to the sweep file's folder; values keep what was written.
  BOOST_TEST(spec.cases[0].platform == kSource + "/platforms/epyc-rome-2node.yaml");
  BOOST_TEST(spec.cases[0].values[0] == "platforms/epyc-rome-2node.yaml");
}

BOOST_AUTO_TEST_CASE(set_paths_are_axes_at_their_place) {
  const auto spec = sweep(
      "platform: platforms/epyc-rome-2node.yaml\n"
      "pattern: traces/samples/bidirectional-pairs-4.pattern\n"
      "set:\n"
      "  levels.inter_node.latency: [1us, 2us]\n"
      "  levels.inter_node.eager_threshold: 64KiB\n"
      "model: [maxmin, loggops]\n");
  BOOST_TEST(spec.columns.size() == 5u);
  BOOST_TEST(spec.columns[2] == "levels.inter_node.latency");
  BOOST_REQUIRE(spec.cases.size() == 4u);
  BOOST_TEST(values(spec.cases[1]) ==
             "platforms/epyc-rome-2node.yaml|traces/samples/bidirectional-pairs-4.pattern|1us|64KiB|loggops");
  BOOST_REQUIRE(spec.cases[2].overrides.size() == 2u);
  BOOST_TEST(spec.cases[2].overrides[0].value == "2us");
  BOOST_TEST(spec.cases[2].overrides[0].where.str() == "sweep.yaml:4:36");
  const std::string text = platform_text(spec.cases[2]);
  BOOST_TEST(text.find("    latency: 2us\n    eager_threshold: 64KiB\n    bandwidth: {1: 10.5GB/s") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(explicit_cases_are_one_more_axis) {
  const auto spec = sweep(
      "platform: platforms/epyc-rome-2node.yaml\n"
      "model: [maxmin, staircase]\n"
      "cases:\n"
      "  - {pattern: traces/samples/bidirectional-pairs-4.pattern, mapping: cyclic}\n"
      "  - {pattern: traces/samples/halo-256.pattern, oversubscribe: true, coll: [bcast=chain, reduce=binomial]}\n"
      "progress: none\n");
  BOOST_TEST(spec.columns == (std::vector<std::string>{"platform", "model", "pattern", "mapping", "oversubscribe",
                                                       "coll", "progress"}),
             boost::test_tools::per_element());
  BOOST_REQUIRE(spec.cases.size() == 4u);
  BOOST_TEST(spec.cases[0].mapping == "cyclic");
  BOOST_TEST(spec.cases[1].mapping == "block");
  BOOST_TEST(spec.cases[1].oversubscribe);
  BOOST_TEST(spec.cases[1].coll == (std::vector<std::string>{"bcast=chain", "reduce=binomial"}),
             boost::test_tools::per_element());
  BOOST_TEST(spec.cases[1].values[5] == "bcast=chain reduce=binomial");
  BOOST_TEST(spec.cases[3].model == "staircase");
  BOOST_TEST(spec.cases[3].progress == "none");
}

BOOST_AUTO_TEST_CASE(bad_sweep_files_are_errors_at_their_line) {
  const std::string head = "platform: platforms/epyc-rome-2node.yaml\n";
  BOOST_TEST(error_message([&] { sweep(head + "pattern: a.pattern\nmodle: [maxmin]\n"); }) ==
             "sweep.yaml:3:1: modle: unknown key (did you mean 'model'?); expected one of: platform, pattern, trace, "
             "compute, mapping, model, progress, hosts, ompi, coll, oversubscribe, time_limit, set, cases");
  BOOST_TEST(error_message([&] { sweep(head + "pattern: a.pattern\nmodel: []\n"); }) ==
             "sweep.yaml:3:8: model: expected at least one value, got a list");
  BOOST_TEST(error_message([&] {
               sweep(head + "pattern: a.pattern\nprogress: [thread, fast]\n");
             }).starts_with("sweep.yaml:3:20: progress: "));
  BOOST_TEST(error_message([&] { sweep(head + "model: maxmin\n"); }) ==
             "sweep.yaml:1:1: case 0: no workload: give 'pattern:' or 'trace:'");
  BOOST_TEST(error_message([&] { sweep("pattern: a.pattern\ncases:\n  - {model: maxmin}\n"); }) ==
             "sweep.yaml:3:5: case 0: no platform: give 'platform:'");
  BOOST_TEST(error_message([&] { sweep(head + "pattern: a.pattern\nmodel: [a, b]\ncases:\n  - {model: c}\n"); }) ==
             "sweep.yaml:5:13: model: also a list of values at the top of the file: give it in one place");
  BOOST_TEST(error_message([&] { sweep(head + "pattern: a.pattern\noversubscribe: [maybe]\n"); }) ==
             "sweep.yaml:3:17: oversubscribe[0]: expected true or false, got 'maybe'");
  BOOST_TEST(error_message([&] { sweep(head + "pattern: a.pattern\ncases: 3\n"); }) ==
             "sweep.yaml:3:8: cases: expected a list of cases (mappings of keys to values), got '3'");
  // The product is bounded before it is built.
  std::string huge = head + "pattern: a.pattern\nset:\n";
  for (int axis = 0; axis < 7; ++axis) huge += "  a" + std::to_string(axis) + ": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n";
  BOOST_TEST(
      error_message([&] { sweep(huge); }) ==
      "sweep.yaml:1:1: document: the product of the sweep's axes exceeds contend's limit of 1000000 cases in one sweep "
      "(docs/limits.md)");
}

BOOST_AUTO_TEST_CASE(a_bad_override_names_the_sweep_line_and_the_platform) {
  const auto spec = sweep(
      "platform: platforms/epyc-rome-2node.yaml\n"
      "pattern: traces/samples/bidirectional-pairs-4.pattern\n"
      "set:\n"
      "  nodes.count: [2, many]\n"
      "  levels.inter_node.latency: 2us\n");
  BOOST_TEST(platform_text(spec.cases[0]).find("nodes:\n  count: 2\n") != std::string::npos);
  const std::string platform = kSource + "/platforms/epyc-rome-2node.yaml";
  BOOST_TEST(error_message([&] { platform_text(spec.cases[1]); }) ==
             "sweep.yaml:4:20: set nodes.count = 'many' in " + platform + ": " + platform +
                 ":24:10: nodes.count: expected an integer in [1, 16384], got 'many'");
  auto section = spec.cases[0];
  section.overrides[1].path = "levels.inter_node";
  BOOST_TEST(error_message([&] { platform_text(section); }) ==
             "sweep.yaml:5:30: set levels.inter_node = '2us' in " + platform + ": " + platform +
                 ":37:15: levels.inter_node: expected a mapping, got '2us'");
  // A table (a bandwidth per sharing count) becomes the one value given.
  auto table = spec.cases[0];
  table.overrides[1].path = "levels.inter_node.bandwidth";
  table.overrides[1].value = "25GB/s";
  BOOST_TEST(platform_text(table).find("    eager_threshold: 8KiB\n    bandwidth: 25GB/s\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_hash_covers_inputs_and_file_contents) {
  const auto dir = scratch("hash");
  std::ofstream(dir / "sweep.yaml") << "platform: p.yaml\npattern: w.pattern\nmodel: [maxmin, staircase]\n";
  const auto spec = read_sweep((dir / "sweep.yaml").string());
  CaseHasher hasher("1.0");
  const auto hash = hasher.hash(spec.cases[0]);
  BOOST_TEST(hash.size() == 16u);
  BOOST_TEST(hasher.hash(spec.cases[0]) == hash);
  BOOST_TEST(hasher.hash(spec.cases[1]) != hash);             // another model
  BOOST_TEST(CaseHasher("1.1").hash(spec.cases[0]) != hash);  // another contend
  // The same files elsewhere are the same case: contents, not paths.
  const auto moved = fs::temp_directory_path() / "contend-sweep-test-hash-moved";
  fs::remove_all(moved);
  fs::copy(dir, moved);
  BOOST_TEST(CaseHasher("1.0").hash(read_sweep((moved / "sweep.yaml").string()).cases[0]) == hash);
  // An edited pattern or platform is a new case.
  std::ofstream(moved / "w.pattern", std::ios::app) << "# edited\n";
  BOOST_TEST(CaseHasher("1.0").hash(read_sweep((moved / "sweep.yaml").string()).cases[0]) != hash);
  fs::copy_file(dir / "w.pattern", moved / "w.pattern", fs::copy_options::overwrite_existing);
  BOOST_TEST(CaseHasher("1.0").hash(read_sweep((moved / "sweep.yaml").string()).cases[0]) == hash);
  std::ofstream(moved / "p.yaml", std::ios::app) << "# edited\n";
  BOOST_TEST(CaseHasher("1.0").hash(read_sweep((moved / "sweep.yaml").string()).cases[0]) != hash);
  fs::remove_all(moved);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_ti_trace_is_its_index_and_rank_files) {
  const std::string folder = kSource + "/traces/examples/traces/cg-2/";
  const auto files = trace_files(folder + "trace.txt");
  BOOST_TEST(files == (std::vector<std::string>{folder + "trace.txt", folder + "rank-0.txt", folder + "rank-1.txt"}),
             boost::test_tools::per_element());
  // A single-file trace of actions is itself.
  const std::string single = kSource + "/tests/data/ti/ring-4.txt";
  BOOST_TEST(trace_files(single) == std::vector<std::string>{single}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(rows_are_written_and_read_back) {
  const auto dir = scratch("rows");
  std::ofstream(dir / "sweep.yaml") << "platform: p.yaml\npattern: w.pattern\ncoll: ['bcast=chain:8K,x', b]\n";
  const auto spec = read_sweep((dir / "sweep.yaml").string());
  BOOST_TEST(sweep_header_line(spec) ==
             "case,hash,platform,pattern,coll,status,makespan_s,mean_rank_time_s,min_rank_time_s,max_rank_time_s,"
             "messages,intra_socket_bytes,inter_socket_bytes,inter_node_bytes,wall_s,error");
  CaseOutcome ok;
  ok.ok = true;
  ok.makespan = 1.0 / 3;
  ok.mean_rank_time = 0.25;
  ok.min_rank_time = 0.125;
  ok.max_rank_time = 1.0 / 3;
  ok.messages = 8;
  ok.level_bytes = {1, 2, 3};
  ok.wall_seconds = 0.5;
  BOOST_TEST(encode_outcome(ok) == "ok,0.333333333333,0.25,0.125,0.333333333333,8,1,2,3,0.5,");
  const std::string failed = failed_outcome("a.pattern:3: bad, \"really\"\n# details", 2);
  BOOST_TEST(failed == "error,,,,,,,,,2,\"a.pattern:3: bad, \"\"really\"\" | # details\"");
  check_outcome(encode_outcome(ok), "case 0");
  check_outcome(failed, "case 1");
  BOOST_TEST(error_message([] { check_outcome("fine", "rank 2"); }) ==
             "rank 2:2:1: expected 11 fields as in the header, got 1");
  BOOST_TEST(error_message([] { check_outcome("maybe,,,,,,,,,2,", "rank 2"); }) ==
             "rank 2:2:1: status: expected ok or error, got 'maybe'");

  std::map<std::size_t, SweepRow> rows;
  rows[1] = sweep_row(spec.cases[1], "00000000000000bb", failed);
  rows[0] = sweep_row(spec.cases[0], "00000000000000aa", encode_outcome(ok));
  BOOST_TEST(rows[0].ok);
  BOOST_TEST(!rows[1].ok);
  BOOST_TEST(rows[0].line == "0,00000000000000aa,p.yaml,w.pattern,\"bcast=chain:8K,x\"," + encode_outcome(ok));
  const auto csv = (dir / "results.csv").string();
  {
    std::ofstream out(csv);
    write_sweep_csv(out, spec, rows);
  }
  const auto back = read_sweep_rows(csv, spec);
  BOOST_REQUIRE(back.size() == 2u);
  BOOST_TEST(back.at(0).line == rows[0].line);
  BOOST_TEST(back.at(1).line == rows[1].line);
  BOOST_TEST(back.at(1).hash == "00000000000000bb");
  // Another sweep's file is refused rather than mixed in.
  std::ofstream(dir / "other.csv") << "case,hash,status\n";
  BOOST_TEST(error_message([&] {
               read_sweep_rows((dir / "other.csv").string(), spec);
             }).starts_with((dir / "other.csv").string() + ":1:1: not the results of this sweep"));
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
