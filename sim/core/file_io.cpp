#include "sim/core/file_io.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text.hpp"

namespace contend {

std::ifstream open_input(const std::string& path, const std::string& cannot_open) {
  const std::string message = cannot_open.empty() ? "cannot open '" + path + "' for reading" : cannot_open;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error("'" + path + "' is a directory, expected a file");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(message + ": " + std::strerror(errno != 0 ? errno : ENOENT));
  return in;
}

std::string read_text(const std::string& path) {
  std::ifstream in = open_input(path);
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > limits::kMaxTextFileBytes) {
      throw Error(limits::exceeds("'" + path + "'", limits::kMaxTextFileBytesText));
    }
  }
  if (in.bad()) throw Error("error while reading '" + path + "'");
  return text;
}

bool read_line(std::istream& in, std::string& line, const std::string& file, int line_number) {
  line.clear();
  std::istream::sentry ok(in, true);
  if (!ok) return false;
  std::streambuf* buffer = in.rdbuf();
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(line.empty() ? std::ios::eofbit | std::ios::failbit : std::ios::eofbit);
      return !line.empty();
    }
    if (c == '\n') return true;
    if (line.size() >= limits::kMaxLineBytes) {
      throw Error(SourceLocation{file, line_number, 0},
                  limits::exceeds("the line", limits::kMaxLineBytesText) + ": is this a text file?");
    }
    line.push_back(static_cast<char>(c));
  }
}

std::string file_names(const std::vector<std::string>& paths) {
  std::vector<std::string> names;
  for (const auto& path : paths) names.push_back(std::filesystem::path(path).filename().string());
  return join(names);
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path temporary =
      target.parent_path() / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()));
  try {
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      if (!out) throw Error("cannot write '" + path + "': " + std::strerror(errno));
      write(out);
      out.flush();
      if (!out) throw Error("cannot write '" + path + "': write failed (disk full?)");
    }
    std::error_code ec;
    fs::rename(temporary, target, ec);
    if (ec) throw Error("cannot write '" + path + "': " + ec.message());
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

}  // namespace contend
