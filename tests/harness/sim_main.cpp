// Simulation tests. Every test case runs one simulation and ctest runs each
// case in its own process (SimGrid allows one engine per process): run one
// with `sim_tests --run_test=NAME`.
#define BOOST_TEST_MODULE contend simulation tests
#include <boost/test/unit_test.hpp>
