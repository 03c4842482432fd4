#include <boost/test/unit_test.hpp>
#include <sstream>
#include <stdexcept>

#include "sim/core/parallel_rows.hpp"

using namespace contend;

namespace {

void format_rows(fmt::memory_buffer& text, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) fmt::format_to(std::back_inserter(text), "{},{:.12g}\n", i, 1.0 / (i + 1));
}

std::string sequential(std::size_t count) {
  fmt::memory_buffer text;
  format_rows(text, 0, count);
  return fmt::to_string(text);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(parallel_rows)

BOOST_AUTO_TEST_CASE(writes_the_rows_in_order) {
  // Around the block size (2^15 rows) and over many blocks, odd and even counts.
  for (std::size_t count : {0u, 1u, 32767u, 32768u, 32769u, 65536u, 100000u, 300001u}) {
    std::ostringstream out;
    write_rows_in_parallel(out, count, format_rows);
    BOOST_TEST_REQUIRE(out.str() == sequential(count), count << " rows");
  }
}

BOOST_AUTO_TEST_CASE(an_error_in_any_block_reaches_the_caller) {
  for (std::size_t failing_block : {0u, 1u, 4u, 5u}) {
    std::ostringstream out;
    auto failing = [&](fmt::memory_buffer& text, std::size_t begin, std::size_t end) {
      if (begin == failing_block * (std::size_t{1} << 15)) throw std::runtime_error("bad row");
      format_rows(text, begin, end);
    };
    BOOST_CHECK_THROW(write_rows_in_parallel(out, 200000, failing), std::runtime_error);
  }
}

BOOST_AUTO_TEST_SUITE_END()
