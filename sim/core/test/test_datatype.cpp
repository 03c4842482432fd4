#include <boost/test/unit_test.hpp>

#include "sim/core/datatype.hpp"
#include "sim/core/error.hpp"
#include "sim/core/platform.hpp"

using namespace contend;

BOOST_AUTO_TEST_SUITE(datatype)

BOOST_AUTO_TEST_CASE(parse_contiguous_and_vectors) {
  std::string error;
  const auto c = parse_datatype("contiguous", error);
  BOOST_REQUIRE(c);
  BOOST_TEST(c->name() == "contiguous");
  const auto v = parse_datatype("vector:4,1,4:float", error);
  BOOST_REQUIRE(v);
  BOOST_TEST(v->count == 4);
  BOOST_TEST(v->blocklength == 1);
  BOOST_TEST(v->stride == 4);
  BOOST_TEST(v->base_size == 4);
  BOOST_TEST(v->payload_bytes() == 16u);
  BOOST_TEST(v->name() == "vector:4,1,4:float");
}

BOOST_AUTO_TEST_CASE(bad_datatypes_say_what_was_expected) {
  std::string error;
  BOOST_TEST(!parse_datatype("vector:4,1:float", error));
  BOOST_TEST(error.find("vector:COUNT,BLOCKLENGTH,STRIDE:BASE") != std::string::npos);
  BOOST_TEST(!parse_datatype("vector:4,2,1:float", error));
  BOOST_TEST(error == "a vector whose stride (1) is at least its block length (2)");
  BOOST_TEST(!parse_datatype("vector:4,1,4:flaot", error));
  BOOST_TEST(error ==
             "a base type, one of byte, char, short, int, float, long, double (did you mean 'float'?), got 'flaot'");
  BOOST_TEST(!parse_datatype("strided", error));
}

BOOST_AUTO_TEST_CASE(table_interns_once) {
  DatatypeTable t;
  std::string error;
  const auto v = *parse_datatype("vector:2,2,4:double", error);
  const auto a = t.intern(v);
  BOOST_TEST(a != kContiguous);
  BOOST_TEST(t.intern(v) == a);
  BOOST_TEST(t.intern(Datatype{}) == kContiguous);
  BOOST_TEST(t[a].name() == "vector:2,2,4:double");
}

BOOST_AUTO_TEST_CASE(progress_names) {
  BOOST_TEST((progress_by_name("dedicated-core") == Progress::DedicatedCore));
  BOOST_TEST(std::string(progress_name(Progress::None)) == "none");
  BOOST_CHECK_EXCEPTION(progress_by_name("threads"), Error, [](const Error& e) {
    return std::string(e.what()) ==
           "unknown progression 'threads' (did you mean 'thread'?); expected one of: none, thread, dedicated-core";
  });
}

BOOST_AUTO_TEST_SUITE_END()
