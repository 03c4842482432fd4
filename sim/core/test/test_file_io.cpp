// Whole files in: read_text, and the names of input files.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

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

BOOST_AUTO_TEST_SUITE_END()
