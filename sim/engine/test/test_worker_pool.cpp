// WorkerPool: jobs in child processes, answers in job order whatever the
// number of workers, failures reported and contained.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <csignal>
#include <set>
#include <string>
#include <thread>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"
#include "sim/engine/worker_pool.hpp"
#include "tests/harness/error_message.hpp"

using namespace contend;

BOOST_AUTO_TEST_SUITE(worker_pool)

BOOST_AUTO_TEST_CASE(answers_in_job_order_whatever_the_workers) {
  // Later jobs finish first: the order of the results must not follow.
  const auto job = [](std::size_t i) {
    usleep(static_cast<useconds_t>((8 - i) * 3000));
    return "job " + std::to_string(i) + " in " + std::to_string(getpid());
  };
  for (int workers : {1, 2, 5}) {
    std::vector<std::size_t> completed;
    const auto results =
        WorkerPool(workers).run(8, job, [&](std::size_t i, const JobResult&) { completed.push_back(i); });
    BOOST_REQUIRE(results.size() == 8u);
    std::set<std::string> pids;
    for (std::size_t i = 0; i < results.size(); ++i) {
      BOOST_TEST(results[i].ok);
      BOOST_TEST(results[i].answer.rfind("job " + std::to_string(i) + " in ", 0) == 0u);
      BOOST_TEST(results[i].answer != "job " + std::to_string(i) + " in " + std::to_string(getpid()));
      BOOST_TEST(results[i].wall_seconds > 0);
      pids.insert(results[i].answer.substr(results[i].answer.rfind(' ') + 1));
    }
    BOOST_TEST(pids.size() == 8u);  // one child per job
    BOOST_TEST(completed.size() == 8u);
    BOOST_TEST(std::set<std::size_t>(completed.begin(), completed.end()).size() == 8u);
  }
}

BOOST_AUTO_TEST_CASE(failures_are_results_and_the_others_go_on) {
  const auto results = WorkerPool(2).run(4, [](std::size_t i) -> std::string {
    if (i == 1) throw Error("case 1: bad input");
    if (i == 2) raise(SIGKILL);
    return "fine";
  });
  BOOST_TEST(results[0].ok);
  BOOST_TEST(!results[1].ok);
  BOOST_TEST(results[1].answer == "case 1: bad input");
  BOOST_TEST(!results[2].ok);
  BOOST_TEST(results[2].answer == "the simulation process ended without a result (killed by signal 9)");
  BOOST_TEST(results[3].ok);
  BOOST_TEST(results[3].answer == "fine");
}

BOOST_AUTO_TEST_CASE(a_deadline_kills_what_runs_and_starts_nothing_more) {
  // One worker: job 0 answers at once, job 1 would sleep for a minute and is
  // killed at the deadline (0.3 s), job 2 is never started.
  const auto begin = std::chrono::steady_clock::now();
  const auto results = WorkerPool(1, begin + std::chrono::milliseconds(300)).run(3, [](std::size_t i) -> std::string {
    if (i == 1) std::this_thread::sleep_for(std::chrono::seconds(60));
    return "done " + std::to_string(i);
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  BOOST_TEST(results[0].ok);
  BOOST_TEST(!results[0].cut);
  BOOST_TEST(results[0].answer == "done 0");
  BOOST_TEST(results[1].cut);
  BOOST_TEST(!results[1].ok);
  BOOST_TEST(results[2].cut);
  BOOST_TEST(results[2].answer == "stopped at the deadline");
  BOOST_TEST(seconds < 30);  // not the minute job 1 asked for
}

BOOST_AUTO_TEST_CASE(a_deadline_already_passed_starts_nothing) {
  const auto results =
      WorkerPool(2, std::chrono::steady_clock::now()).run(2, [](std::size_t) -> std::string { return "ran"; });
  BOOST_TEST(results[0].cut);
  BOOST_TEST(results[1].cut);
}

BOOST_AUTO_TEST_CASE(one_job_in_a_child) {
  BOOST_TEST(run_in_child_process([] { return std::to_string(getpid()); }) != std::to_string(getpid()));
  BOOST_TEST(test::error_message([] { run_in_child_process([]() -> std::string { throw Error("no"); }); }) == "no");
  BOOST_TEST(test::error_message([] { WorkerPool(0); }) == "the number of workers must be at least 1, got 0");
}

// A limit refusal in a child keeps its kind: the command exits 3 as it
// would in-process (docs/commands.md, exit status).
BOOST_AUTO_TEST_CASE(a_limit_reached_in_a_child_stays_a_limit) {
  const auto results = WorkerPool(2).run(2, [](std::size_t i) -> std::string {
    if (i == 0) throw LimitError("too many segments");
    throw Error("bad input");
  });
  BOOST_TEST(results[0].limit);
  BOOST_TEST(results[0].answer == "too many segments");
  BOOST_TEST(!results[1].limit);
  BOOST_TEST(results[1].answer == "bad input");
  BOOST_CHECK_THROW(throw_job_failure(results[0], "case 0"), LimitError);
  BOOST_TEST(test::error_message([&] { throw_job_failure(results[0], "case 0"); }) == "case 0: too many segments");
  BOOST_TEST(test::error_message([&] { throw_job_failure(results[1], "case 1"); }) == "case 1: bad input");
  bool limit = false;
  try {
    throw_job_failure(results[1], "case 1");
  } catch (const LimitError&) {
    limit = true;
  } catch (const Error&) {
  }
  BOOST_TEST(!limit);
  BOOST_CHECK_THROW(run_in_child_process([]() -> std::string { throw LimitError("limit"); }), LimitError);
}

BOOST_AUTO_TEST_SUITE_END()
