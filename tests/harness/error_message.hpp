#pragma once
// For unit tests that pin error texts: the message of the contend::Error a
// call throws.
#include <string>

#include "sim/core/error.hpp"

namespace contend::test {

// The message, or "(no error)" when `f` returns.
template <typename F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace contend::test
