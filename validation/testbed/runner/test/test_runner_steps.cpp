// The real runner (validation/testbed/runner) reads pattern files with the
// simulator's reader and runs what it can as MPI calls: its steps must be the
// pattern's, message for message, and what it cannot run must be refused
// with the place in the file.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <optional>
#include <sstream>

#include "sim/core/error.hpp"
#include "tests/harness/error_message.hpp"
#include "validation/testbed/runner/runner_steps.hpp"

using namespace contend;

namespace {

void check_same(const std::string& path) {
  BOOST_TEST_CONTEXT(path) {
    const Pattern pattern = read_pattern(path);
    std::optional<testbed::RealPattern> maybe_real;
    try {
      maybe_real.emplace(testbed::runner_steps(pattern));
    } catch (const Error& e) {
      // Steps the real runner does not execute (it runs exchanges, bcast and barrier only).
      BOOST_TEST(std::string(e.what()).find("not supported by the real pattern runner") != std::string::npos, e.what());
      return;
    }
    const auto& real = *maybe_real;
    BOOST_TEST(real.ranks == pattern.ranks);
    BOOST_REQUIRE(real.steps.size() == pattern.steps.size());
    for (std::size_t s = 0; s < real.steps.size(); ++s) {
      const auto* exchange = std::get_if<ExchangeSpec>(&pattern.steps[s].content);
      const auto* real_exchange = std::get_if<testbed::Exchange>(&real.steps[s]);
      BOOST_REQUIRE((exchange != nullptr) == (real_exchange != nullptr));  // collective steps: same place
      if (!exchange) continue;
      const auto& a = exchange->messages;
      const auto& b = *real_exchange;
      BOOST_REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        BOOST_TEST(a[i].src == b[i].src);
        BOOST_TEST(a[i].dst == b[i].dst);
        BOOST_TEST(a[i].bytes == b[i].bytes);
        BOOST_TEST(a[i].start == b[i].start);
      }
    }
  }
}

std::string error_of(const std::string& text) {
  std::istringstream in(text);
  return test::error_message([&] { testbed::read_real_pattern(in, "x.pattern"); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(runner_steps)

BOOST_AUTO_TEST_CASE(reads_steps_offsets_and_units) {
  std::istringstream in("# c\nranks 4\n0 1 1MB @2ms\n1 0 64KiB\n\n---\n---\n2 3 16K @1.5us  # note\n");
  const auto p = testbed::read_real_pattern(in, "x.pattern");
  BOOST_TEST(p.ranks == 4);
  BOOST_REQUIRE(p.steps.size() == 2u);
  const auto& first = std::get<testbed::Exchange>(p.steps[0]);
  const auto& second = std::get<testbed::Exchange>(p.steps[1]);
  BOOST_TEST(first[0].bytes == 1000000u);
  BOOST_TEST(first[0].start == 2e-3);
  BOOST_TEST(first[1].bytes == 65536u);
  BOOST_TEST(second[0].bytes == 16384u);
  BOOST_TEST(second[0].start == 1.5e-6);
}

BOOST_AUTO_TEST_CASE(collective_steps_end_an_exchange) {
  std::istringstream in("0 1 10\nbcast 3 1MiB\n1 0 10\nbarrier\n");
  const auto p = testbed::read_real_pattern(in, "x.pattern");
  BOOST_TEST(p.ranks == 4);  // the root counts
  BOOST_REQUIRE(p.steps.size() == 4u);
  BOOST_TEST(std::get<testbed::Bcast>(p.steps[1]).root == 3);
  BOOST_TEST(std::get<testbed::Bcast>(p.steps[1]).bytes == 1048576u);
  BOOST_TEST(std::get<testbed::Exchange>(p.steps[2]).size() == 1u);
  BOOST_TEST(std::holds_alternative<testbed::Barrier>(p.steps[3]));
}

BOOST_AUTO_TEST_CASE(same_as_the_simulator_on_every_shipped_pattern) {
  std::vector<std::string> files;
  for (const char* dir : {"traces/samples", "validation/results/workloads", "tests/data"}) {
    const auto root = std::filesystem::path(CONTEND_SOURCE_DIR) / dir;
    if (!std::filesystem::exists(root)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
      if (entry.path().extension() == ".pattern" && entry.path().filename().string().rfind("bad-", 0) != 0) {
        files.push_back(entry.path().string());
      }
    }
  }
  BOOST_TEST(files.size() >= 3u);
  for (const auto& f : files) check_same(f);
}

BOOST_AUTO_TEST_CASE(errors_name_the_place) {
  BOOST_TEST(error_of("0 1 10xB\n") ==
             "x.pattern:1:5: bytes: expected a size in bytes such as 4096, 8KiB, 16K or 1MB, got '10xB'");
  BOOST_TEST(error_of("ranks 2\n0 2 10\n") == "x.pattern:2:3: rank 2 is out of range: the pattern declares 2 ranks");
  BOOST_TEST(error_of("0 1 10 2ms\n").find("x.pattern:1:8: expected '@TIME'") == 0u);
  BOOST_TEST(error_of("ranks 2\nalltoall 10\n")
                 .find("x.pattern:2:1: step 'alltoall' is not supported by the real pattern runner") == 0u);
  BOOST_TEST(error_of("0 1 10\ncompute 1ms\n").find("x.pattern:2:1: step 'compute' is not supported") == 0u);
  BOOST_TEST(
      error_of("0 1 10\ncompute 1ms overlap\n").find("x.pattern:2:1: step 'compute ... overlap' is not supported") ==
      0u);
  BOOST_TEST(error_of("0 1 10\n0 1 4 type=vector:1,1,2:int\n")
                 .find("x.pattern:1:1: this exchange sends a message of a non-contiguous datatype") == 0u);
  BOOST_TEST(error_of("bcast 0\n") == "x.pattern:1:1: expected 'bcast ROOT BYTES', got 2 fields");
  BOOST_TEST(error_of("0 1 3GiB\n") == "x.pattern:1:5: bytes: at most 2 GiB - 1 in one MPI call, got 3221225472");
  BOOST_TEST(error_of("# nothing\n") == "x.pattern: the pattern names no rank and has no 'ranks N' line");
}

BOOST_AUTO_TEST_SUITE_END()
