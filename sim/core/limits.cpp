#include "sim/core/limits.hpp"

namespace contend::limits {

std::string exceeds(std::string_view what, std::string_view limit) {
  return std::string(what) + " exceeds contend's limit of " + std::string(limit) + " (docs/limits.md)";
}

std::string outside(std::string_view what, std::string_view range) {
  return std::string(what) + " is outside contend's limits, " + std::string(range) + " (docs/limits.md)";
}

}  // namespace contend::limits
