#include <boost/test/unit_test.hpp>

#include "sim/core/platform.hpp"
#include "models/registry.hpp"
#include "sim/core/error.hpp"

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
  try {
    all_models().get("maxmim");
    BOOST_FAIL("expected an error");
  } catch (const Error& e) {
    const std::string msg = e.what();
    BOOST_TEST(msg.rfind("unknown model 'maxmim' (did you mean 'maxmin'?); valid models: maxmin", 0) == 0u);
  }
}

BOOST_AUTO_TEST_CASE(platform_models_section_is_checked) {
  const std::string text = R"(name: t
nodes: {count: 1, sockets: 1, cores_per_socket: 2, core_speed: 1Gf}
levels:
  intra_socket: {latency: 1us, eager_threshold: 4KiB, bandwidth: 1GB/s}
  inter_socket: {latency: 1us, eager_threshold: 4KiB, bandwidth: 1GB/s}
  inter_node: {latency: 1us, eager_threshold: 4KiB, bandwidth: 1GB/s}
nic: {bandwidth: 1GB/s}
network: {topology: star}
models:
  maxmn: {}
)";
  const Platform p = parse_platform(YamlField::load_string(text, "m.yaml"));
  try {
    all_models().validate_platform(p);
    BOOST_FAIL("expected an error");
  } catch (const Error& e) {
    BOOST_TEST(std::string(e.what()).rfind("m.yaml:10:3: models.maxmn: unknown model 'maxmn' (did you mean 'maxmin'?)", 0) ==
               0u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
