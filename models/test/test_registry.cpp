#include <boost/test/unit_test.hpp>

#include "models/registry.hpp"
#include "sim/core/error.hpp"
#include "sim/core/platform.hpp"
#include "tests/harness/error_message.hpp"
#include "tests/harness/platform_text.hpp"

using namespace contend;

BOOST_AUTO_TEST_SUITE(registry)

BOOST_AUTO_TEST_CASE(models_have_name_description_citation) {
  const auto& models = all_models();
  BOOST_TEST(!models.all().empty());
  for (const auto& m : models.all()) {
    BOOST_TEST(!m.name.empty());
    BOOST_TEST(!m.description.empty());
    BOOST_TEST(!m.citation.empty());
    BOOST_TEST(static_cast<bool>(m.create));
  }
  BOOST_TEST(models.get("maxmin").name == "maxmin");
}

BOOST_AUTO_TEST_CASE(unknown_model_lists_valid_ones) {
  BOOST_TEST(test::error_message([] {
               all_models().get("maxmim");
             }).starts_with("unknown model 'maxmim' (did you mean 'maxmin'?); valid models: maxmin"));
}

BOOST_AUTO_TEST_CASE(platform_models_section_is_checked) {
  const std::string text = test::platform_yaml(1, 1, 2, test::levels_yaml("1us", "4KiB", "1GB/s"), "{topology: star}",
                                               "{bandwidth: 1GB/s}") +
                           "models:\n  maxmn: {}\n";  // line 10
  const Platform p = test::parse_platform_text(text, "m.yaml");
  BOOST_TEST(test::error_message([&] {
               all_models().validate_platform(p);
             }).starts_with("m.yaml:10:3: models.maxmn: unknown model 'maxmn' (did you mean 'maxmin'?)"));
}

BOOST_AUTO_TEST_SUITE_END()
