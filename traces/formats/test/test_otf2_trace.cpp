// OTF2 archives: every rank's events checked before a replay starts
// (check_otf2_events), on the shipped 4-rank archive and on broken copies.
#include <boost/test/unit_test.hpp>
#include <string>

#include "tests/harness/error_message.hpp"
#include "traces/formats/otf2_trace.hpp"

using namespace contend;

namespace {

std::string archive(const std::string& name) { return std::string(CONTEND_SOURCE_DIR) + "/tests/data/" + name; }

std::string check_error(const std::string& anchor) {
  const Otf2Definitions defs = read_otf2_definitions(anchor);
  return test::error_message([&] { check_otf2_events(defs); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(otf2_trace)

BOOST_AUTO_TEST_CASE(a_whole_archive_passes_the_check_and_reads_to_the_end) {
  const Otf2Definitions defs = read_otf2_definitions(archive("otf2/sample4/traces.otf2"));
  BOOST_TEST(defs.ranks() == 4);
  BOOST_TEST(check_error(defs.path) == test::kNoError);
  for (int rank = 0; rank < defs.ranks(); ++rank) {
    Otf2RankReader reader(defs, rank);
    int actions = 0;
    while (reader.next()) ++actions;
    BOOST_TEST(actions > 20);
  }
}

BOOST_AUTO_TEST_CASE(a_truncated_event_file_names_the_archive_and_its_rank) {
  const std::string anchor = archive("hostile/otf2/truncated-events/traces.otf2");
  BOOST_TEST(check_error(anchor) == anchor + " (rank 1): reading events: Invalid or inconsistent record data");
}

BOOST_AUTO_TEST_CASE(a_corrupt_event_file_names_the_archive_and_its_rank) {
  const std::string anchor = archive("hostile/otf2/corrupt-events/traces.otf2");
  BOOST_TEST(check_error(anchor) == anchor + " (rank 2): reading events: Invalid or inconsistent record data");
}

BOOST_AUTO_TEST_CASE(a_missing_event_file_names_the_rank_and_location) {
  const std::string anchor = archive("hostile/otf2/missing-events/traces.otf2");
  BOOST_TEST(check_error(anchor) == anchor + ": no events for rank 2 (location 2)");
}

BOOST_AUTO_TEST_SUITE_END()
