#define BOOST_TEST_MODULE contend unit tests
#include <boost/test/unit_test.hpp>
