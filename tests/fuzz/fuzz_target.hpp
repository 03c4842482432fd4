#pragma once
// One libFuzzer target: `body` parses the input; a contend::Error is the
// expected answer to bad input, anything else (another exception, a crash,
// a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/core/error.hpp"

namespace contend::fuzz {

template <typename Body>
int run(const std::uint8_t* data, std::size_t size, Body body) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    body(text);
  } catch (const Error&) {
    // bad input, reported as such
  }
  return 0;
}

}  // namespace contend::fuzz
