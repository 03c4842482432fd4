// Editing a YAML file's text one entry at a time: what is edited changes,
// every other byte stays, and the result is parsed again.
#include <boost/test/unit_test.hpp>

#include "sim/core/yaml_edit.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using contend::test::error_message;

namespace {

const std::string kFile =
    "# head\n"
    "levels:\n"
    "  intra:\n"
    "    # measured\n"
    "    latency: 1us   # old\n"
    "    eager_threshold: 8KiB\n"
    "\n"
    "  inter: {latency: 2us, eager_threshold: 64KiB,\n"
    "          bandwidth: 1GB/s}\n"
    "  # about models\n"
    "models:\n"
    "    maxmin: {}\n"
    "    old:\n"
    "      x: 1\n"
    "      # the end of old\n"
    "\n"
    "tail: {a: 1, b: \"x,y\"}\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(yaml_edit)

BOOST_AUTO_TEST_CASE(entries_are_found_with_their_lines) {
  const YamlText yaml(kFile, "p.yaml");
  const auto intra = yaml.entry("levels.intra");
  BOOST_REQUIRE(intra.has_value());
  BOOST_TEST(intra->first_line == 2u);
  BOOST_TEST(intra->last_line == 5u);  // the blank line after it is not part of it
  BOOST_TEST(intra->indent == 2u);
  BOOST_TEST(intra->child_indent == 4u);
  BOOST_TEST(intra->lines.size() == 4u);
  BOOST_TEST(intra->lines[1] == "    # measured");
  const auto inter = yaml.entry("levels.inter");  // a flow value over two lines
  BOOST_REQUIRE(inter.has_value());
  BOOST_TEST(inter->last_line == 8u);
  BOOST_TEST(inter->child_indent == 4u);
  const auto old = yaml.entry("models.old");
  BOOST_REQUIRE(old.has_value());
  BOOST_TEST(old->indent == 4u);
  BOOST_TEST(old->last_line == 13u);  // its trailing comment stays outside
  BOOST_TEST(!yaml.entry("models.taulop").has_value());
  BOOST_TEST(!yaml.entry("nothing.here").has_value());
  BOOST_TEST(error_message([&] { yaml.entry("tail.a", "key"); }) ==
             "p.yaml:17:8: tail.a: cannot rewrite this key in place: write 'tail' in block style (one key per line)");
}

BOOST_AUTO_TEST_CASE(replacing_keeps_every_other_byte) {
  YamlText yaml(kFile, "p.yaml");
  yaml.set_entry("levels.intra", std::vector<std::string>{"intra:", "  latency: 3us"});
  yaml.set_entry("levels.inter", "    inter:\n      latency: 4us\n\n      bandwidth: 2GB/s\n");  // dedented to its key
  std::string expected = kFile;
  expected.replace(expected.find("  intra:"), expected.find("\n\n  inter") - expected.find("  intra:"),
                   "  intra:\n    latency: 3us");
  expected.replace(expected.find("  inter:"), expected.find("\n  # about") - expected.find("  inter:"),
                   "  inter:\n    latency: 4us\n\n    bandwidth: 2GB/s");
  BOOST_TEST(yaml.text() == expected);
  BOOST_TEST(yaml.root().child("levels").child("inter").child("bandwidth").as_bandwidth() == 2e9);  // parsed again
}

BOOST_AUTO_TEST_CASE(adding_goes_after_the_last_child_with_the_missing_keys) {
  YamlText yaml(kFile, "p.yaml");
  yaml.set_entry("models.taulop", "taulop:\n  Q: 4\n");
  BOOST_TEST(yaml.text().find("      x: 1\n    taulop:\n      Q: 4\n      # the end of old\n\ntail:") !=
             std::string::npos);
  yaml.set_entry("models.loggops.default", "default:\n  L: 1us\n");
  BOOST_TEST(yaml.text().find("      Q: 4\n    loggops:\n      default:\n        L: 1us\n      # the end of old\n") !=
             std::string::npos);
  yaml.set_entry("network.topology.kind", std::vector<std::string>{"kind: star"});
  BOOST_TEST(yaml.text().ends_with("\"x,y\"}\nnetwork:\n  topology:\n    kind: star\n"));
  BOOST_TEST(yaml.root().child("network").child("topology").child("kind").as_string() == "star");

  YamlText empty("name: x\nmodels:\n", "e.yaml");  // a key without a value takes children
  empty.set_entry("models.flowcut", "flowcut: {}\n");
  BOOST_TEST(empty.text() == "name: x\nmodels:\n  flowcut: {}\n");
}

BOOST_AUTO_TEST_CASE(flow_style_maps_are_not_edited_in_place) {
  YamlText yaml("levels: {intra: {latency: 1us}}\nmodels: {maxmin: {}}\n", "f.yaml");
  BOOST_TEST(error_message([&] { yaml.set_entry("levels.intra", "intra:\n  latency: 2us\n", "level"); }) ==
             "f.yaml:1:10: levels.intra: cannot rewrite this level in place: write 'levels' in block style (one level "
             "per line)");
  BOOST_TEST(error_message([&] { yaml.set_entry("models.taulop", "taulop: {}\n"); }) ==
             "f.yaml:2:9: models: cannot add 'taulop' in place: write 'models' in block style (one key per line)");
  YamlText scalar("models: 3\n", "s.yaml");
  BOOST_TEST(error_message([&] { scalar.set_entry("models.taulop", "taulop: {}\n"); }) ==
             "s.yaml:1:9: models: expected a mapping, got '3'");
}

BOOST_AUTO_TEST_CASE(block_sequences_at_their_key_s_indentation_belong_to_it) {
  YamlText yaml("a:\n- 1\n- 2\nb: 3\n", "q.yaml");
  const auto a = yaml.entry("a");
  BOOST_REQUIRE(a.has_value());
  BOOST_TEST(a->last_line == 2u);
  yaml.set_entry("a", "a: [4]\n");
  BOOST_TEST(yaml.text() == "a: [4]\nb: 3\n");
}

BOOST_AUTO_TEST_CASE(scalars_are_set_in_block_and_flow_style) {
  YamlText yaml(kFile, "p.yaml");
  yaml.set_scalar("levels.intra.eager_threshold", "4KiB", "measured");
  BOOST_TEST(yaml.text().find("\n    eager_threshold: 4KiB  # measured\n") != std::string::npos);
  yaml.set_scalar("levels.intra.latency", "2us");  // the old comment goes with the old value
  BOOST_TEST(yaml.text().find("\n    latency: 2us\n") != std::string::npos);
  yaml.set_scalar("levels.inter.eager_threshold", "32KiB", "not written in flow style");
  BOOST_TEST(yaml.text().find("\n  inter: {latency: 2us, eager_threshold: 32KiB,\n") != std::string::npos);
  yaml.set_scalar("levels.inter.bandwidth", "3GB/s");  // on the flow map's second line
  BOOST_TEST(yaml.text().find("\n          bandwidth: 3GB/s}\n") != std::string::npos);
  yaml.set_scalar("tail.b", "\"z\"");  // a quoted value with a comma
  BOOST_TEST(yaml.text().find("\ntail: {a: 1, b: \"z\"}\n") != std::string::npos);
  BOOST_TEST(yaml.root().child("levels").child("inter").child("eager_threshold").as_size() == 32768u);

  BOOST_TEST(error_message([&] { yaml.set_scalar("levels.intra.bandwidth", "1GB/s"); }) ==
             "p.yaml:5:5: levels.intra: has no bandwidth to set");
  BOOST_TEST(error_message([&] { yaml.set_scalar("levels.intra", "1"); }) ==
             "p.yaml:5:5: levels.intra: expected a single value, got a mapping");
  YamlText open("a: {x: 1,\n    y: 2\n   }\n", "o.yaml");
  BOOST_TEST(error_message([&] { open.set_scalar("a.y", "3"); }) ==
             "o.yaml:2:5: a.y: cannot rewrite y in place: write it on one line");
}

BOOST_AUTO_TEST_SUITE_END()
