#include <boost/test/unit_test.hpp>

#include "sim/core/text.hpp"

using namespace contend;

BOOST_AUTO_TEST_SUITE(text)

BOOST_AUTO_TEST_CASE(edit_distances) {
  BOOST_TEST(edit_distance("kitten", "sitting") == 3u);
  BOOST_TEST(edit_distance("", "abc") == 3u);
  BOOST_TEST(edit_distance("same", "same") == 0u);
  BOOST_TEST(edit_distance("flaot", "float") == 1u);  // a transposition is one edit
}

BOOST_AUTO_TEST_CASE(did_you_mean_only_for_close_words) {
  const std::vector<std::string> names = {"intra_socket", "inter_socket", "inter_node"};
  BOOST_TEST(did_you_mean("inter_sockt", names) == " (did you mean 'inter_socket'?)");
  BOOST_TEST(did_you_mean("bandwidth", names) == "");
  BOOST_TEST(did_you_mean("maxmim", {"maxmin", "staircase"}) == " (did you mean 'maxmin'?)");
}

BOOST_AUTO_TEST_CASE(split_and_trim) {
  const auto f = split_blanks("  0\t1   65536 ");
  BOOST_TEST(f.size() == 3u);
  BOOST_TEST(std::string(f[2]) == "65536");
  BOOST_TEST(std::string(trim("  x y \n")) == "x y");
  BOOST_TEST(join({"a", "b", "c"}) == "a, b, c");
}

BOOST_AUTO_TEST_CASE(command_line_numbers) {
  for (const char* fine : {"0", "1.5", "-2", "1e300", " 3 ", "0x1p3", "abc", ""})
    BOOST_TEST(finite_number_problem(fine) == "");
  BOOST_TEST(finite_number_problem("nan") == "expected a finite number, got 'nan'");
  BOOST_TEST(finite_number_problem("-inf") == "expected a finite number, got '-inf'");
  BOOST_TEST(finite_number_problem("Infinity") == "expected a finite number, got 'Infinity'");
  BOOST_TEST(finite_number_problem("1e999") == "expected a finite number, got '1e999'");
  for (const char* fine : {"0", "-0", "12", "nan", "x-1", ""}) BOOST_TEST(negative_number_problem(fine) == "");
  BOOST_TEST(negative_number_problem("-1") == "expected a number >= 0, got '-1'");
  BOOST_TEST(negative_number_problem("-1e-300") == "expected a number >= 0, got '-1e-300'");
}

BOOST_AUTO_TEST_SUITE_END()
