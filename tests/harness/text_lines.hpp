#pragma once
// Tests that compare texts line by line (e.g. a platform file before and
// after a fit rewrote it).
#include <sstream>
#include <string>
#include <vector>

namespace contend::test {

// The lines of `text`, without their newlines.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace contend::test
