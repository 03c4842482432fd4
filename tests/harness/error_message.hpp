#pragma once
// The message of the contend::Error a call throws: tests pin error texts,
// file:line:col included, exactly.
#include <string>
#include <utility>

#include "sim/core/error.hpp"

namespace contend::test {

// What error_message returns when the call throws nothing.
inline const std::string kNoError = "(no error)";

template <class Call>
std::string error_message(Call&& call) {
  try {
    std::forward<Call>(call)();
  } catch (const Error& e) {
    return e.what();
  }
  return kNoError;
}

}  // namespace contend::test
