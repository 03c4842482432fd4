// The `models: loggops:` section: what it holds, and errors with file:line:col.
#include <boost/test/unit_test.hpp>

#include "models/loggops/loggops_parameters.hpp"
#include "sim/core/error.hpp"
#include "tests/harness/error_message.hpp"
#include "tests/harness/platform_text.hpp"

using namespace contend;

namespace {

// Eight lines, so that the `models:` section starts on line 9.
const std::string kHead = test::platform_yaml(1, 1, 2, test::levels_yaml("1us", {"4KiB", "8KiB", "4KiB"}, "1GB/s"),
                                              "{topology: star}", "{bandwidth: 1GB/s}");

const std::string kRange =
    "{L: 1us, g: 2us, G: 1ns, datatypes: {contiguous: {o_s: 3us, O_s: 4ns, o_r: 5us, O_r: 6ns}}}";

LogGopsParameters parse(const std::string& models) {
  const Platform p = test::parse_platform_text(kHead + models, "p.yaml");
  return LogGopsParameters(p, p.model_section("loggops"));
}

std::string error_of(const std::string& models) {
  return test::error_message([&] { parse(models); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(loggops_parameters)

BOOST_AUTO_TEST_CASE(levels_fall_back_on_default_and_ranges_split_at_s) {
  const auto p = parse("models:\n  loggops:\n    default: {eager: " + kRange + ", rendezvous: " + kRange +
                       "}\n    inter_socket:\n      eager: " + kRange +
                       "\n      rendezvous: {L: 9us, g: 0us, G: 0ns, datatypes: {contiguous: {o_s: 0us, O_s: 0ns, "
                       "o_r: 0us, O_r: 0ns}, \"vector:4,1,4:float\": {o_s: 1us, O_s: 1ns, o_r: 1us, O_r: 1ns}}}\n");
  const auto& e = p.protocol_for(Level::IntraSocket, 4095);
  BOOST_TEST(e.L == 1e-6);
  BOOST_TEST(e.g == 2e-6);
  BOOST_TEST(e.G == 1e-9);
  Datatype contiguous;
  BOOST_TEST(e.overheads(contiguous).o_s == 3e-6);
  BOOST_TEST(e.overheads(contiguous).O_r == 6e-9);
  // One direction of eq. (2) at k = 1000: max(3 + 4, 2 + 1) + 1 + 6 + 5 = 19 us.
  BOOST_TEST(e.one_way(contiguous, 1000) == 19e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(&p.protocol_for(Level::IntraSocket, 4096) == &p.protocol(Level::IntraSocket, false));
  // inter_socket has its own section, and S = 8 KiB there.
  BOOST_TEST(p.protocol_for(Level::InterSocket, 4096).L == 1e-6);
  BOOST_TEST(p.protocol_for(Level::InterSocket, 8192).L == 9e-6);
  std::string error;
  BOOST_TEST(p.protocol(Level::InterSocket, false).overheads(*parse_datatype("vector:4,1,4:float", error)).O_s == 1e-9);
}

BOOST_AUTO_TEST_CASE(errors_name_the_place) {
  BOOST_TEST(error_of("models:\n  loggops:\n    intra_socket: {eager: " + kRange + ", rendezvous: " + kRange + "}\n") ==
             "p.yaml:11:5: models.loggops: no parameters for level inter_socket: add 'inter_socket:' or 'default:'");
  BOOST_TEST(error_of("models:\n  loggops:\n    defualt: {}\n") ==
             "p.yaml:11:5: models.loggops.defualt: unknown key (did you mean 'default'?); expected one of: default, "
             "intra_socket, inter_socket, inter_node");
  BOOST_TEST(error_of("models:\n  loggops:\n    default: {eager: " + kRange + "}\n") ==
             "p.yaml:11:14: models.loggops.default: missing required key 'rendezvous' (the rendezvous range (from the "
             "eager_threshold))");
  BOOST_TEST(error_of("models:\n  loggops:\n    default:\n      eager: {L: -1us, g: 0us, G: 0ns, datatypes: {}}\n"
                      "      rendezvous: " +
                      kRange + "\n") ==
             "p.yaml:12:18: models.loggops.default.eager.L: expected a duration such as 1.7us, 5ms or 2e-6 (s), "
             "got '-1us'");
  BOOST_TEST(error_of("models:\n  loggops:\n    default:\n      eager: {L: 1us, g: 0us, G: 0ns, datatypes: "
                      "{\"vector:4,1,4:float\": {o_s: 1us, O_s: 1ns, o_r: 1us, O_r: 1ns}}}\n      rendezvous: " +
                      kRange + "\n") ==
             "p.yaml:12:50: models.loggops.default.eager.datatypes: needs an entry for 'contiguous'");
  BOOST_TEST(error_of("models:\n  loggops:\n    default:\n      eager: {L: 1us, g: 0us, G: 0ns, datatypes: "
                      "{contiguous: {o_s: 1us, O_s: 1ns, o_r: 1us}}}\n      rendezvous: " +
                      kRange + "\n") ==
             "p.yaml:12:63: models.loggops.default.eager.datatypes.contiguous: missing required key 'O_r' (the "
             "receiver's per-byte "
             "CPU overhead (a duration per byte))");
  BOOST_TEST(error_of("models:\n  loggops:\n    default:\n      eager: {L: 1us, g: 0us, G: 0ns, datatypes: "
                      "{\"vector:4,2,1:int\": {o_s: 1us, O_s: 1ns, o_r: 1us, O_r: 1ns}}}\n      rendezvous: " +
                      kRange + "\n") ==
             "p.yaml:12:51: models.loggops.default.eager.datatypes.vector:4,2,1:int: expected a vector whose stride "
             "(1) is at least "
             "its block length (2), got 'vector:4,2,1:int'");
  BOOST_TEST(error_of("") ==
             "p.yaml: the loggops model needs a 'models: loggops:' section (see models/loggops/README.md)");
}

BOOST_AUTO_TEST_SUITE_END()
