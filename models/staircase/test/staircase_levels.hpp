#pragma once
// The levels the staircase tests share: no latency, every message
// rendezvous, and aggregate bandwidth tables BW(N) for N receivers.
#include <string>

#include "tests/harness/platform_text.hpp"

namespace contend::test {

inline const std::string kStaircaseLevels =
    levels_yaml("0us", "1",
                {"{1: 10GB/s, 2: 16GB/s, 4: 18GB/s, 8: 20GB/s}", "{1: 5GB/s, 2: 8GB/s, 4: 11GB/s, 8: 12GB/s}",
                 "{1: 10GB/s, 2: 12GB/s}"});

}  // namespace contend::test
