#pragma once
// Text written to a stream through a buffer of about a megabyte, formatted
// with fmt in place: the timeline writers print millions of short lines.
#include <fmt/format.h>

#include <iterator>
#include <ostream>
#include <string_view>
#include <utility>

namespace contend {

class BufferedOutput {
 public:
  explicit BufferedOutput(std::ostream& out) : out_(out) {}
  BufferedOutput(const BufferedOutput&) = delete;
  BufferedOutput& operator=(const BufferedOutput&) = delete;
  ~BufferedOutput() { flush(); }

  void append(std::string_view text) {
    buffer_.append(text);
    flush_if_full();
  }
  template <typename... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    flush_if_full();
  }
  void flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kFlushBytes = 1 << 20;
  void flush_if_full() {
    if (buffer_.size() > kFlushBytes) flush();
  }
  std::ostream& out_;
  fmt::memory_buffer buffer_;
};

}  // namespace contend
