// maxmin's sharing by age (age_sharing.hpp): the weights a link's route
// classes get as they become active and idle, and the option's parsing.
#include <boost/test/unit_test.hpp>
#include <utility>
#include <vector>

#include "models/maxmin/age_sharing.hpp"
#include "sim/core/yaml_field.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using Changes = AgeWeights::Changes;
using contend::test::error_message;

BOOST_AUTO_TEST_SUITE(maxmin_age_sharing)

BOOST_AUTO_TEST_CASE(the_mth_route_on_a_link_weighs_decay_to_the_m) {
  AgeWeights w(0.5);
  Changes c;
  w.activate(7, 0, c);
  w.activate(3, 0, c);
  w.activate(9, 0, c);
  w.activate(4, 1, c);  // another link: ranked on its own
  BOOST_TEST((c == Changes{{7, 1.0}, {3, 0.5}, {9, 0.25}, {4, 1.0}}));
}

BOOST_AUTO_TEST_CASE(the_younger_routes_move_up_when_one_goes_idle) {
  AgeWeights w(0.5);
  Changes c;
  for (std::uint32_t r : {7u, 3u, 9u}) w.activate(r, 0, c);
  c.clear();
  w.deactivate(7, 0, c);
  BOOST_TEST((c == Changes{{3, 1.0}, {9, 0.5}}));
  c.clear();
  w.deactivate(9, 0, c);  // the youngest: nobody moves
  BOOST_TEST(c.empty());
  w.activate(7, 0, c);  // back, now the youngest
  BOOST_TEST((c == Changes{{7, 0.5}}));
}

BOOST_AUTO_TEST_CASE(the_option_is_parsed_and_checked) {
  auto parse = [](const std::string& text) {
    return parse_maxmin_sharing(YamlField::load_string(text, "p.yaml").child("maxmin"));
  };
  BOOST_TEST(parse("other: 1\n").fair());
  BOOST_TEST(parse("maxmin: {}\n").fair());
  BOOST_TEST(parse("maxmin: {sharing: {age_decay: 0.86}}\n").age_decay == 0.86);
  BOOST_TEST(error_message([&] { parse("maxmin: {sharing: {age_decay: 0}}\n"); }) ==
             "p.yaml:1:31: maxmin.sharing.age_decay: expected a weight ratio in (0, 1], got '0'");
  BOOST_TEST(error_message([&] { parse("maxmin: {sharing: {age_decay: 1.5}}\n"); }).find("expected a weight ratio") !=
             std::string::npos);
  BOOST_TEST(error_message([&] { parse("maxmin: {sharing: {decay: 0.5}}\n"); }).find("decay") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
