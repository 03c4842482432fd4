#pragma once
// Errors that reach the user. Every error names where it comes from
// (file:line:col when it comes from a file) and what was expected; the CLI
// prints the message on one line and exits non-zero.
#include <stdexcept>
#include <string>

namespace contend {

// A position in an input file; line and column are 1-based, 0 when unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  // "file:line:col", "file:line", or "file" depending on what is known.
  std::string str() const;
};

// A message made safe to print: bytes that are neither printable text nor
// valid UTF-8 (a binary input echoed in "got '...'") become \xNN, and a line
// longer than kMaxMessageLine bytes is cut, saying how much was left out.
std::string printable_message(const std::string& message);
inline constexpr std::size_t kMaxMessageLine = 2000;

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(printable_message(message)) {}
  Error(const SourceLocation& where, const std::string& message)
      : std::runtime_error(printable_message(where.str() + ": " + message)) {}
};

}  // namespace contend
