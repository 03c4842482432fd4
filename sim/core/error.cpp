#include "sim/core/error.hpp"

#include <fmt/format.h>

namespace contend {

std::string SourceLocation::str() const {
  const std::string name = file.empty() ? std::string("<input>") : file;
  if (line <= 0) return name;
  if (column <= 0) return fmt::format("{}:{}", name, line);
  return fmt::format("{}:{}:{}", name, line, column);
}

}  // namespace contend
