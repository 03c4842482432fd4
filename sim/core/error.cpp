#include "sim/core/error.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace contend {

std::string SourceLocation::str() const {
  const std::string name = file.empty() ? std::string("<input>") : file;
  if (line <= 0) return name;
  if (column <= 0) return fmt::format("{}:{}", name, line);
  return fmt::format("{}:{}:{}", name, line, column);
}

namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0.
std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  std::size_t n = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  // Overlong forms and surrogates are not valid UTF-8.
  if (c == 0xE0 && byte(i + 1) < 0xA0) return 0;
  if (c == 0xED && byte(i + 1) > 0x9F) return 0;
  if (c == 0xF0 && byte(i + 1) < 0x90) return 0;
  if (c == 0xF4 && byte(i + 1) > 0x8F) return 0;
  return n;
}

}  // namespace

std::string printable_message(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  std::size_t line_start = 0;  // where the current output line began in `out`
  std::size_t i = 0;
  while (i < message.size()) {
    const auto c = static_cast<unsigned char>(message[i]);
    if (c == '\n') {
      out += '\n';
      line_start = out.size();
      ++i;
      continue;
    }
    if (out.size() - line_start >= kMaxMessageLine) {
      const std::size_t end = std::min(message.find('\n', i), message.size());
      out += fmt::format("... ({} more bytes)", end - i);
      i = end;
      continue;
    }
    if (c == '\t' || (c >= 0x20 && c < 0x7F)) {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(message, i) : 0; n > 0) {
      out.append(message, i, n);
      i += n;
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  return out;
}

}  // namespace contend
