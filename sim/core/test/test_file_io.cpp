// Whole files in (read_text, the names of input files) and out
// (write_file_atomically: regular files, symlinks, "-", FIFOs, pipes, errors,
// interruptions).
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"

using namespace contend;

BOOST_AUTO_TEST_SUITE(file_io)

BOOST_AUTO_TEST_CASE(read_text_returns_every_byte) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / "contend-file-io-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string bytes = std::string("a: 1\r\n# no final newline\0x", 26);
  const auto path = (dir / "x.yaml").string();
  std::ofstream(path, std::ios::binary) << bytes;
  BOOST_TEST(read_text(path) == bytes);
  std::ofstream(path, std::ios::binary | std::ios::trunc).flush();
  BOOST_TEST(read_text(path).empty());
  BOOST_CHECK_EXCEPTION(read_text((dir / "missing.yaml").string()), Error, [&](const Error& e) {
    return std::string(e.what()) ==
           "cannot open '" + (dir / "missing.yaml").string() + "' for reading: No such file or directory";
  });
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(read_all_concatenates_in_order) {
  const auto letters = [](const std::string& path) { return std::vector<std::string>{path + "1", path + "2"}; };
  BOOST_TEST(read_all({"a", "b"}, letters) == (std::vector<std::string>{"a1", "a2", "b1", "b2"}),
             boost::test_tools::per_element());
  BOOST_TEST(read_all({}, letters).empty());
}

BOOST_AUTO_TEST_CASE(file_names_drop_the_directories) {
  BOOST_TEST(file_names({"/tmp/raw/a.csv", "b.csv", "../c/d.csv"}) == "a.csv, b.csv, d.csv");
  BOOST_TEST(file_names({}) == "");
}

// ------------------------------------------------------------ write_file_atomically

namespace {

namespace fs = std::filesystem;

// A fresh, empty folder for one test.
fs::path scratch(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("contend-output-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string content_of(const fs::path& path) { return read_text(path.string()); }

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}));
}

void write_text(const std::string& path, const std::string& text) {
  write_file_atomically(path, [&](std::ostream& out) { out << text; });
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// What `f` writes on descriptor `fd` while that descriptor is a fresh file
// holding `before`.
std::string captured(int fd, const std::string& before, const std::function<void()>& f) {
  const auto path = scratch("capture") / "captured";
  const int file = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  BOOST_REQUIRE(file >= 0);
  BOOST_REQUIRE(::write(file, before.data(), before.size()) == static_cast<ssize_t>(before.size()));
  std::fflush(nullptr);
  const int saved = ::dup(fd);
  ::dup2(file, fd);
  ::close(file);
  f();
  ::dup2(saved, fd);
  ::close(saved);
  return content_of(path);
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_regular_file_is_replaced_whole_and_keeps_its_permissions) {
  const auto dir = scratch("regular");
  const auto target = dir / "out.csv";
  write_text(target.string(), "first\n");
  BOOST_TEST(content_of(target) == "first\n");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_text(target.string(), "second\n");
  BOOST_TEST(content_of(target) == "second\n");
  BOOST_TEST(
      (fs::status(target).permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read)));
  BOOST_TEST(entries(dir) == 1u);  // no temporary left
}

BOOST_AUTO_TEST_CASE(a_symlink_stays_and_its_target_is_replaced) {
  const auto dir = scratch("symlink");
  fs::create_directories(dir / "real");
  write_text((dir / "real" / "platform.yaml").string(), "old\n");
  fs::create_symlink("real/platform.yaml", dir / "relative.yaml");  // relative to the link's folder
  fs::create_symlink(dir / "relative.yaml", dir / "chain.yaml");    // a link to a link
  fs::create_symlink("real/absent.yaml", dir / "dangling.yaml");    // the target is created
  write_text((dir / "relative.yaml").string(), "new\n");
  BOOST_TEST(fs::is_symlink(dir / "relative.yaml"));
  BOOST_TEST(content_of(dir / "real" / "platform.yaml") == "new\n");
  write_text((dir / "chain.yaml").string(), "newer\n");
  BOOST_TEST(fs::is_symlink(dir / "chain.yaml"));
  BOOST_TEST(fs::is_symlink(dir / "relative.yaml"));
  BOOST_TEST(content_of(dir / "real" / "platform.yaml") == "newer\n");
  write_text((dir / "dangling.yaml").string(), "created\n");
  BOOST_TEST(fs::is_symlink(dir / "dangling.yaml"));
  BOOST_TEST(content_of(dir / "real" / "absent.yaml") == "created\n");
  BOOST_TEST(entries(dir / "real") == 2u);
  BOOST_TEST(entries(dir) == 4u);
}

BOOST_AUTO_TEST_CASE(dash_and_dev_stdout_write_standard_output_after_what_it_holds) {
  const auto dash = captured(1, "before\n", [] { write_text("-", "rank,total_time_s\n"); });
  BOOST_TEST(dash == "before\nrank,total_time_s\n");
  const auto dev = captured(1, "summary\n", [] { write_text("/dev/stdout", "0,1\n"); });
  BOOST_TEST(dev == "summary\n0,1\n");
  const auto fd = captured(2, "", [] { write_text("/dev/fd/2", "on stderr\n"); });
  BOOST_TEST(fd == "on stderr\n");
  BOOST_TEST(error_of([] { write_text("/dev/fd/987", "x"); }) == "cannot write '/dev/fd/987': Bad file descriptor");
}

BOOST_AUTO_TEST_CASE(a_pipe_from_process_substitution_is_streamed_to) {
  int ends[2];
  BOOST_REQUIRE(::pipe(ends) == 0);
  write_text("/proc/self/fd/" + std::to_string(ends[1]), "through the pipe\n");
  ::close(ends[1]);
  std::string got(64, '\0');
  got.resize(static_cast<std::size_t>(::read(ends[0], got.data(), got.size())));
  ::close(ends[0]);
  BOOST_TEST(got == "through the pipe\n");
}

BOOST_AUTO_TEST_CASE(a_fifo_is_streamed_to_and_stays_a_fifo) {
  const auto dir = scratch("fifo");
  const auto fifo = dir / "ranks.fifo";
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] {
    std::ifstream in(fifo);
    got.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  write_text(fifo.string(), std::string(200000, 'x') + "\n");  // more than a pipe holds
  reader.join();
  BOOST_TEST(got.size() == 200001u);
  BOOST_TEST(fs::is_fifo(fifo));
  BOOST_TEST(entries(dir) == 1u);
}

BOOST_AUTO_TEST_CASE(a_directory_or_an_unwritable_place_is_an_error_that_leaves_nothing) {
  const auto dir = scratch("unwritable");
  fs::create_directories(dir / "folder");
  write_text((dir / "file").string(), "kept\n");
  const auto path = [&](const char* name) { return (dir / name).string(); };
  BOOST_TEST(error_of([&] { write_text(path("folder"), "x"); }) ==
             "cannot write '" + path("folder") + "': it is a directory");
  BOOST_TEST(error_of([&] { write_text(path("missing/out.csv"), "x"); }) ==
             "cannot write '" + path("missing/out.csv") + "': No such file or directory");
  BOOST_TEST(error_of([&] { write_text(path("file/out.csv"), "x"); }) ==
             "cannot write '" + path("file/out.csv") + "': Not a directory");
  fs::create_symlink("loop", dir / "loop");
  BOOST_TEST(error_of([&] { write_text(path("loop"), "x"); }) ==
             "cannot write '" + path("loop") + "': Too many levels of symbolic links");
  if (::geteuid() != 0) {  // root writes into read-only folders
    fs::create_directories(dir / "read-only");
    fs::permissions(dir / "read-only", fs::perms::owner_read | fs::perms::owner_exec);
    BOOST_TEST(error_of([&] { write_text(path("read-only/out.csv"), "x"); }) ==
               "cannot write '" + path("read-only/out.csv") + "': Permission denied");
    fs::permissions(dir / "read-only", fs::perms::owner_all);
  }
  BOOST_TEST(content_of(dir / "file") == "kept\n");
  BOOST_TEST(entries(dir) == (::geteuid() != 0 ? 4u : 3u));
}

BOOST_AUTO_TEST_CASE(a_full_device_is_an_error) {
  BOOST_TEST(error_of([] { write_text("/dev/full", std::string(1 << 17, 'x')); }) ==
             "cannot write '/dev/full': No space left on device");
}

// SIGTERM raised halfway through a write waits for the file to be complete:
// the process dies with the signal, and the file holds every byte.
BOOST_AUTO_TEST_CASE(an_interrupted_write_leaves_the_whole_file_or_the_old_one) {
  const auto dir = scratch("interrupted");
  const auto target = dir / "out.csv";
  write_text(target.string(), "old\n");
  const pid_t child = ::fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    write_file_atomically(target.string(), [](std::ostream& out) {
      out << "first half,";
      ::kill(::getpid(), SIGTERM);
      out << "second half\n";
    });
    ::_exit(0);
  }
  int status = 0;
  BOOST_REQUIRE(::waitpid(child, &status, 0) == child);
  BOOST_TEST(WIFSIGNALED(status));
  BOOST_TEST(WTERMSIG(status) == SIGTERM);
  BOOST_TEST(content_of(target) == "first half,second half\n");
  BOOST_TEST(entries(dir) == 1u);
  // A writer that fails leaves the old file.
  BOOST_TEST(error_of([&] {
               write_file_atomically(target.string(), [](std::ostream& out) {
                 out << "partial";
                 throw Error("the simulation failed");
               });
             }) == "the simulation failed");
  BOOST_TEST(content_of(target) == "first half,second half\n");
  BOOST_TEST(entries(dir) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
