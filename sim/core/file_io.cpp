#include "sim/core/file_io.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/text.hpp"

namespace contend {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open '" + path + "' for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error("error while reading '" + path + "'");
  return text.str();
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
