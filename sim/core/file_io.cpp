#include "sim/core/file_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text.hpp"

namespace contend {
namespace fs = std::filesystem;

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
      throw LimitError(limits::exceeds("'" + path + "'", limits::kMaxTextFileBytesText));
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
      throw LimitError(SourceLocation{file, line_number, 0},
                       limits::exceeds("the line", limits::kMaxLineBytesText) + ": is this a text file?");
    }
    line.push_back(static_cast<char>(c));
  }
}

std::string file_names(const std::vector<std::string>& paths) {
  std::vector<std::string> names;
  for (const auto& path : paths) names.push_back(fs::path(path).filename().string());
  return join(names);
}

namespace {

using Writer = std::function<void(std::ostream&)>;

[[noreturn]] void cannot_write(const std::string& path, const std::string& why) {
  throw Error("cannot write '" + path + "': " + why);
}

// An ostream's buffer over a file descriptor: write(2) until every byte is
// out; the first error is kept for the message.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd) : fd_(fd) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* next = pbase();
    while (next < pptr()) {
      const ssize_t n = ::write(fd_, next, static_cast<std::size_t>(pptr() - next));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error_ = errno;
        return false;
      }
      next += n;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return true;
  }

  int fd_;
  int error_ = 0;
  std::array<char, 1 << 16> buffer_{};
};

void write_to(int fd, const std::string& path, const Writer& write) {
  DescriptorBuffer buffer(fd);
  std::ostream out(&buffer);
  write(out);
  out.flush();
  if (!out) cannot_write(path, std::strerror(buffer.error() != 0 ? buffer.error() : EIO));
}

// "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: a descriptor of
// this process. Opening /dev/stdout again would start a redirected file anew.
std::optional<int> own_descriptor(std::string_view path) {
  if (path == "-" || path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!path.starts_with(prefix) || path.size() == prefix.size()) continue;
    int fd = -1;
    const char* last = path.data() + path.size();
    const auto [end, error] = std::from_chars(path.data() + prefix.size(), last, fd);
    if (error == std::errc() && end == last) return fd;
  }
  return std::nullopt;
}

void write_to_own_descriptor(int fd, const std::string& path, const Writer& write) {
  if (::fcntl(fd, F_GETFD) == -1) cannot_write(path, std::strerror(errno));
  // What the process printed before comes first.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  write_to(fd, path, write);
}

// Where the bytes go: the path at the end of its symbolic links, or one of
// this process's descriptors.
struct Destination {
  std::optional<int> descriptor;
  std::string path;
};

Destination destination_of(const std::string& path) {
  std::string current = path;
  for (int hop = 0; hop < 40; ++hop) {
    if (const auto fd = own_descriptor(current)) return {fd, current};
    struct stat status {};
    if (::lstat(current.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) return {std::nullopt, current};
    std::error_code error;
    fs::path target = fs::read_symlink(current, error);
    if (error) cannot_write(path, error.message());
    if (target.is_relative()) target = fs::path(current).parent_path() / target;
    current = target.string();
  }
  cannot_write(path, std::strerror(ELOOP));
}

// SIGINT, SIGTERM and SIGHUP are held while it lives; one that came meanwhile
// is delivered when it ends.
class HeldSignals {
 public:
  HeldSignals() {
    sigset_t held;
    sigemptyset(&held);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&held, signal);
    pthread_sigmask(SIG_BLOCK, &held, &previous_);
  }
  ~HeldSignals() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t previous_{};
};

// A new file beside `target`: ".NAME.PID-N.tmp".
std::pair<int, std::string> create_temporary(const fs::path& target, const std::string& path) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path temporary =
        target.parent_path() / fmt::format(".{}.{}-{}.tmp", target.filename().string(), ::getpid(), attempt);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return {fd, temporary.string()};
    if (errno != EEXIST) cannot_write(path, std::strerror(errno));
  }
  cannot_write(path, "no free name for a temporary file beside it");
}

void replace_atomically(const std::string& target, const std::string& path, const Writer& write) {
  struct stat existing {};
  const bool replaces = ::stat(target.c_str(), &existing) == 0;
  const HeldSignals held;
  auto [fd, temporary] = create_temporary(fs::path(target), path);
  try {
    if (replaces && ::fchmod(fd, existing.st_mode & 07777) != 0) cannot_write(path, std::strerror(errno));
    write_to(fd, path, write);
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0) cannot_write(path, std::strerror(errno));
    if (::rename(temporary.c_str(), target.c_str()) != 0) cannot_write(path, std::strerror(errno));
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const Destination destination = destination_of(path);
  if (destination.descriptor) return write_to_own_descriptor(*destination.descriptor, path, write);
  struct stat status {};
  if (::stat(destination.path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
    if (S_ISDIR(status.st_mode)) cannot_write(path, "it is a directory");
    // A FIFO, a terminal, a device: streamed (a FIFO waits here for its reader).
    const int fd = ::open(destination.path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) cannot_write(path, std::strerror(errno));
    try {
      write_to(fd, path, write);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) cannot_write(path, std::strerror(errno));
    return;
  }
  replace_atomically(destination.path, path, write);
}

}  // namespace contend
