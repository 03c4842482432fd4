// The composition grammar of --model (sim/engine/model_composition.hpp)
// over the registered models.
#include <boost/test/unit_test.hpp>

#include "models/registry.hpp"
#include "sim/engine/model_composition.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;

namespace {

std::string error_of(const std::string& text) {
  return test::error_message([&] { parse_model_composition(text, all_models()); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(model_composition)

BOOST_AUTO_TEST_CASE(overheads_on_top_of_one_model) {
  const ModelComposition c = parse_model_composition("staircase+loggops", all_models());
  for (const auto& part : c) {
    BOOST_TEST(part.data == "staircase");
    BOOST_TEST(part.overheads == "loggops");
  }
  BOOST_TEST(all_models().get("flowcut+loggops").name == "flowcut+loggops");
}

BOOST_AUTO_TEST_CASE(levels_grouped_or_spelled_out) {
  const ModelComposition c = parse_model_composition("intra=staircase, inter=flowcut+loggops", all_models());
  BOOST_TEST(c[0].text() == "staircase");
  BOOST_TEST(c[1].text() == "staircase");
  BOOST_TEST(c[2].text() == "flowcut+loggops");
  const ModelComposition d =
      parse_model_composition("inter_node=taulop,inter_socket=maxmin,intra_socket=staircase", all_models());
  BOOST_TEST(d[0].text() == "staircase");
  BOOST_TEST(d[1].text() == "maxmin");
  BOOST_TEST(d[2].text() == "taulop");
}

BOOST_AUTO_TEST_CASE(errors_name_the_token) {
  BOOST_TEST(error_of("stiarcase+loggops")
                 .starts_with("model 'stiarcase+loggops': unknown model 'stiarcase' (did you mean 'staircase'?); valid "
                              "models: maxmin"));
  BOOST_TEST(
      error_of("maxmin+logops").starts_with("model 'maxmin+logops': unknown model 'logops' (did you mean 'loggops'?)"));
  BOOST_TEST(error_of("intra=maxmin,inter_nod=flowcut")
                 .starts_with("model 'intra=maxmin,inter_nod=flowcut': unknown level 'inter_nod' (did you mean "
                              "'inter_node'?); levels: intra, inter, intra_socket, inter_socket, inter_node"));
  BOOST_TEST(error_of("intra=maxmin") ==
             "model 'intra=maxmin': level inter_node has no model (add inter=MODEL or inter_node=MODEL)");
  BOOST_TEST(error_of("intra_socket=maxmin,inter=maxmin") ==
             "model 'intra_socket=maxmin,inter=maxmin': level inter_socket has no model (add intra=MODEL or "
             "inter_socket=MODEL)");
  BOOST_TEST(error_of("intra=maxmin,intra_socket=staircase,inter=flowcut") ==
             "model 'intra=maxmin,intra_socket=staircase,inter=flowcut': level intra_socket is given twice");
  BOOST_TEST(error_of("intra=maxmin,flowcut").starts_with("model 'intra=maxmin,flowcut': 'flowcut' has no level"));
  BOOST_TEST(error_of("maxmin,flowcut").starts_with("model 'maxmin,flowcut': a list of models needs a level"));
  BOOST_TEST(error_of("intra=,inter=maxmin") == "model 'intra=,inter=maxmin': a model name is missing");
  BOOST_TEST(error_of("maxmin+staircase") ==
             "model 'maxmin+staircase': 'staircase' charges no CPU overheads to add on top of 'maxmin'; models "
             "that do: loggops");
  BOOST_TEST(
      error_of("loggops+loggops").starts_with("model 'loggops+loggops': 'loggops' already charges CPU overheads"));
  BOOST_TEST(error_of("maxmin+loggops+loggops")
                 .starts_with("model 'maxmin+loggops+loggops': 'maxmin+loggops+loggops' adds more than one model"));
}

BOOST_AUTO_TEST_CASE(plain_names_are_no_composition) {
  BOOST_TEST(!is_composed_model_name("simgrid-lmm"));
  BOOST_TEST(is_composed_model_name("maxmin+loggops"));
  BOOST_TEST(is_composed_model_name("intra=maxmin,inter=flowcut"));
}

BOOST_AUTO_TEST_SUITE_END()
