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

BOOST_AUTO_TEST_SUITE_END()
