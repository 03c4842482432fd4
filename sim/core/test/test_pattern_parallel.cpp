// A pattern file of a megabyte or more is scanned in pieces on two threads
// (read_pattern(path)): it must give the same pattern, locations and errors
// as reading the same text line by line (read_pattern(istream)).
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/pattern.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
namespace fs = std::filesystem;

namespace {

// Lines of plain messages, with comments, blank lines, steps, start offsets
// and datatypes between them: about `lines` lines, a few megabytes.
std::string large_pattern(int lines, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::ostringstream out;
  out << "# a large pattern\nranks 4096\n";
  for (int i = 0; i < lines; ++i) {
    const auto kind = rng() % 1000;
    if (kind == 0) {
      out << "---\n";
    } else if (kind == 1) {
      out << "compute 1ms\n";
    } else if (kind == 2) {
      out << "\n# a comment\n";
    } else if (kind == 3) {
      out << rng() % 4096 << ' ' << rng() % 4096 << " 8KiB @1us\n";
    } else if (kind == 4) {
      out << rng() % 4096 << ' ' << rng() % 4096 << " 64 type=vector:4,1,4:float\n";
    } else {
      out << rng() % 4096 << "\t " << rng() % 4096 << ' ' << rng() % 200000 << (kind == 5 ? "  # note" : "") << '\n';
    }
  }
  return out.str();
}

class TempFile {
 public:
  explicit TempFile(const std::string& text)
      : path_(fs::temp_directory_path() / ("contend-pattern-parallel-" + std::to_string(getpid()) + ".pattern")) {
    std::ofstream(path_) << text;
  }
  ~TempFile() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

Pattern read_sequentially(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  return read_pattern(in, name);
}

void check_same(const Pattern& a, const Pattern& b) {
  BOOST_TEST(a.name == b.name);
  BOOST_TEST(a.ranks == b.ranks);
  BOOST_TEST(a.datatypes.size() == b.datatypes.size());
  BOOST_REQUIRE(a.steps.size() == b.steps.size());
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    BOOST_TEST(a.steps[i].where.str() == b.steps[i].where.str());
    BOOST_TEST_REQUIRE(a.steps[i].content.index() == b.steps[i].content.index());
    const auto* x = std::get_if<ExchangeSpec>(&a.steps[i].content);
    if (x == nullptr) continue;
    const auto& y = std::get<ExchangeSpec>(b.steps[i].content);
    BOOST_TEST_REQUIRE(x->messages.size() == y.messages.size());
    for (std::size_t m = 0; m < x->messages.size(); ++m) {
      const auto &p = x->messages[m], &q = y.messages[m];
      BOOST_TEST_REQUIRE(
          (p.src == q.src && p.dst == q.dst && p.bytes == q.bytes && p.start == q.start && p.datatype == q.datatype));
    }
    BOOST_TEST(x->overlapped.size() == y.overlapped.size());
  }
}

// The error that reading `text` from a file gives, and the one reading it line by line gives.
std::pair<std::string, std::string> errors_of(const std::string& text) {
  const TempFile file(text);
  return {test::error_message([&] { read_pattern(file.path()); }),
          test::error_message([&] { read_sequentially(text, file.path()); })};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pattern_parallel_read)

BOOST_AUTO_TEST_CASE(equals_the_line_by_line_read) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    const std::string text = large_pattern(200000, seed);
    BOOST_REQUIRE(text.size() > (std::size_t{1} << 20));  // large enough to be read in pieces
    const TempFile file(text);
    check_same(read_pattern(file.path()), read_sequentially(text, file.path()));
  }
}

BOOST_AUTO_TEST_CASE(without_a_final_line_end_or_ranks_line) {
  std::string text = large_pattern(150000, 4);
  text = text.substr(text.find('\n', text.find("ranks")) + 1);  // ranks inferred from the highest
  text.pop_back();                                              // no final newline
  const TempFile file(text);
  check_same(read_pattern(file.path()), read_sequentially(text, file.path()));
}

BOOST_AUTO_TEST_CASE(reports_the_first_bad_line_in_the_second_half) {
  const std::string text = large_pattern(200000, 5);
  const std::size_t late = text.find('\n', text.size() * 3 / 4) + 1;
  for (const std::string bad : {"4096 1 10\n", "1 2 10 parsecs\n", "1 2 -5\n", "17 x 3\n", "1 2\n", "bcast\n"}) {
    const auto [parallel, sequential] = errors_of(text.substr(0, late) + bad + text.substr(late));
    BOOST_TEST(parallel == sequential);
    BOOST_TEST(parallel.find(":" + std::to_string(std::count(text.begin(), text.begin() + late, '\n') + 1) + ":") !=
               std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(applies_the_byte_limit_to_every_piece) {
  const std::string text = large_pattern(200000, 6) + "5 6 300000\n";
  const TempFile file(text);
  PatternLimits limits{.max_message_bytes = 250000, .max_message_bytes_text = "250 kB"};
  const std::string parallel = test::error_message([&] { read_pattern(file.path(), limits); });
  std::istringstream in(text);
  const std::string sequential = test::error_message([&] { read_pattern(in, file.path(), limits); });
  BOOST_TEST(parallel == sequential);
  BOOST_TEST(parallel.find("at most 250 kB") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
