// The CSV reader every raw-data reader uses: header, comments, quotes,
// typed fields and errors that name file:line:col.
#include <boost/test/unit_test.hpp>
#include <sstream>

#include "sim/core/csv.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;
using contend::test::error_message;

namespace {

CsvFile read(const std::string& text, const CsvColumns& columns) {
  std::istringstream in(text);
  return CsvFile::read(in, "t.csv", columns);
}

const CsvColumns kSizeTime{.required = {"size", "time"}};

}  // namespace

BOOST_AUTO_TEST_SUITE(csv)

BOOST_AUTO_TEST_CASE(columns_by_name_in_any_order) {
  const auto csv =
      read("# a comment\n\ntime, size ,note\n2.5e-6,4096,first  # trailing comment\n\n1e-3 , 64KiB,\n", kSizeTime);
  BOOST_REQUIRE(csv.rows().size() == 2u);
  const auto& first = csv.rows()[0];
  BOOST_TEST(first.line() == 4);
  BOOST_TEST(first.seconds("time") == 2.5e-6);
  BOOST_TEST(first.size("size") == 4096u);
  BOOST_TEST(first.text("note") == "first");
  BOOST_TEST(first.has("note"));
  const auto& second = csv.rows()[1];
  BOOST_TEST(second.size("size") == 65536u);
  BOOST_TEST(second.text("time") == "1e-3");  // trimmed
  BOOST_TEST(!second.has("note"));            // empty field
  BOOST_TEST(!second.has("other"));           // no such column
  BOOST_TEST(csv.has_column("note"));
  BOOST_TEST(!csv.has_column("other"));
  BOOST_TEST(csv.header_where().str() == "t.csv:3:1");
  BOOST_TEST(csv.end().str() == "t.csv:6");
}

BOOST_AUTO_TEST_CASE(quoted_fields_hold_commas_and_quotes) {
  const auto csv = read("datatype,bytes\n\"vector:4,1,4:float\",64\n \"say \"\"hi\"\" # not a comment\" , 8\n",
                        CsvColumns{.required = {"datatype", "bytes"}});
  BOOST_REQUIRE(csv.rows().size() == 2u);
  BOOST_TEST(csv.rows()[0].text("datatype") == "vector:4,1,4:float");
  BOOST_TEST(csv.rows()[0].count("bytes") == 64);
  BOOST_TEST(csv.rows()[1].text("datatype") == "say \"hi\" # not a comment");
  BOOST_TEST(csv.rows()[1].where("datatype").str() == "t.csv:3:2");  // the opening quote
  BOOST_TEST(error_message([] { read("a\n\"open\n", CsvColumns{.required = {"a"}}); }) ==
             "t.csv:2:1: a quoted field has no closing '\"'");
  BOOST_TEST(error_message([] { read("a,b\n\"x\"y,1\n", CsvColumns{.required = {"a"}}); }) ==
             "t.csv:2:4: expected ',' after a quoted field");
}

BOOST_AUTO_TEST_CASE(typed_fields_say_what_they_expected) {
  const auto row = [](const std::string& line) {
    return read("n,t,k,s,x\n" + line + "\n", CsvColumns{.required = {"n", "t", "k", "s", "x"}}).rows().at(0);
  };
  BOOST_TEST(row("3,0,7,1K,-2.5").at_least<int>("n", 2) == 3);
  BOOST_TEST(row("3,0,7,1K,-2.5").number("x") == -2.5);
  BOOST_TEST(row("3,0,7,1K,-2.5").count("k") == 7);
  BOOST_TEST(row("3,0,7,1K,-2.5").at_least<std::uint64_t>("k", 1) == 7u);
  BOOST_TEST(row("3,0,7,1K,-2.5").at_least<double>("x", -3.0) == -2.5);
  BOOST_TEST(error_message([&] { row("1,0,7,1K,0").at_least<int>("n", 2); }) ==
             "t.csv:2:1: n: expected a number >= 2, got '1'");
  BOOST_TEST(error_message([&] { row("3,0,7,1K,-1").at_least<double>("x", 0.0); }) ==
             "t.csv:2:10: x: expected a number >= 0.000000, got '-1'");
  BOOST_TEST(error_message([&] { row("3,-1e-9,7,1K,0").seconds("t"); }) ==
             "t.csv:2:3: t: expected a time in seconds (a number >= 0), got '-1e-9'");
  BOOST_TEST(error_message([&] { row("3,0,1.5,1K,0").count("k"); }) ==
             "t.csv:2:5: k: expected a count (an integer >= 0), got '1.5'");
  BOOST_TEST(error_message([&] { row("3,0,7,1.5,0").size("s"); }) ==
             "t.csv:2:7: s: expected a size in bytes such as 4096, 8KiB, 16K or 1MB, got '1.5'");
  BOOST_TEST(error_message([&] { row("3,0,7,1K,inf").number("x"); }) == "t.csv:2:10: x: expected a number, got 'inf'");
  BOOST_TEST(error_message([&] { row("3,0,7,1K,").number("x", "a ratio"); }) ==
             "t.csv:2:10: x: expected a ratio, got ''");
  BOOST_TEST(error_message([&] { row("3,0,7,1K,0").fail("k", "k: too many"); }) == "t.csv:2:5: k: too many");
  BOOST_TEST(error_message([&] { row("3,0,7,1K,0").fail("bad line"); }) == "t.csv:2:1: bad line");
}

BOOST_AUTO_TEST_CASE(header_errors_name_the_column) {
  BOOST_TEST(error_message([] { read("# x\nsize,tiem\n1,2\n", kSizeTime); }) ==
             "t.csv:2:1: missing column 'time'; the header needs size, time");
  BOOST_TEST(error_message([] { read("size,time,size\n", kSizeTime); }) == "t.csv:1:11: column 'size' given twice");
  const CsvColumns only{.required = {"size", "time"}, .optional = {"note"}, .only_known = true};
  BOOST_TEST(error_message([&] { read("size,time,nite\n", only); }) ==
             "t.csv:1:11: unknown column 'nite' (did you mean 'note'?); expected size, time, note");
  BOOST_TEST(read("size,time,note\n", only).rows().empty());
  const CsvColumns exact{.required = {"size", "time"}, .header_error = [](std::string_view header) {
                           return "expected 'size,time', got '" + std::string(header) + "'";
                         }};
  BOOST_TEST(error_message([&] { read("\n name: x  # yaml\n", exact); }) ==
             "t.csv:2:1: expected 'size,time', got 'name: x'");
  BOOST_TEST(error_message([] { read("# only a comment\n", kSizeTime); }) ==
             "t.csv: no header line: expected one naming the columns size, time");
}

// A column renamed when it gained its unit: files with the former name read
// the same; with both names, the new one counts.
BOOST_AUTO_TEST_CASE(a_former_column_name_reads_as_the_new_one) {
  const CsvColumns renamed{.required = {"size", "time_s"}, .only_known = true, .former_names = {{"time_s", "time"}}};
  const CsvFile old = read("size,time\n8,2.5e-6\n", renamed);
  BOOST_TEST(old.rows().at(0).seconds("time_s") == 2.5e-6);
  BOOST_TEST(old.has_column("time_s"));
  BOOST_TEST(read("size,time_s\n8,1e-3\n", renamed).rows().at(0).seconds("time_s") == 1e-3);
  BOOST_TEST(read("size,time,time_s\n8,1,2\n", renamed).rows().at(0).seconds("time_s") == 2);
  BOOST_TEST(error_message([&] { read("size,time\n8,soon\n", renamed).rows().at(0).seconds("time_s"); }) ==
             "t.csv:2:3: time_s: expected a time in seconds (a number >= 0), got 'soon'");
  BOOST_TEST(error_message([&] { read("size,tim\n", renamed); }) ==
             "t.csv:1:6: unknown column 'tim' (did you mean 'time'?); expected size, time_s, time");
}

BOOST_AUTO_TEST_CASE(rows_have_as_many_fields_as_the_header) {
  BOOST_TEST(error_message([] { read("size,time\n1,2\n1,2,3\n", kSizeTime); }) ==
             "t.csv:3:1: expected 2 fields as in the header, got 3");
  BOOST_TEST(error_message([] { read("size,time\n1\n", kSizeTime); }) ==
             "t.csv:2:1: expected 2 fields as in the header, got 1");
}

BOOST_AUTO_TEST_CASE(files_are_opened_or_named) {
  BOOST_TEST(error_message([] { CsvFile::read("/nonexistent/x.csv", kSizeTime); }) ==
             "cannot open '/nonexistent/x.csv' for reading: No such file or directory");
}

BOOST_AUTO_TEST_SUITE_END()
