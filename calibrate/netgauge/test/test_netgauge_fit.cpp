// The Netgauge-style LogGOPS fit (calibrate/netgauge/fit): robust lines,
// changepoints and the protocol switch, the fit of a synthetic machine with
// known parameters, the raw CSV reader, and the platform update.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "calibrate/netgauge/fit/line_fit.hpp"
#include "calibrate/netgauge/fit/loggops_platform_update.hpp"
#include "calibrate/netgauge/fit/netgauge_fit.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/yaml_field.hpp"
#include "tests/harness/error_message.hpp"
#include "tests/harness/text_lines.hpp"

using namespace contend;
using namespace contend::calibrate;
using contend::test::error_message;

namespace {

std::vector<double> powers_of_two(int first_exponent, int last_exponent) {
  std::vector<double> x;
  for (int e = first_exponent; e <= last_exponent; ++e) x.push_back(std::ldexp(1.0, e));
  return x;
}

// A deterministic "noise" factor in [1 - a, 1 + a].
double wobble(std::size_t i, double a) { return 1 + a * std::sin(1.7 * static_cast<double>(i) + 0.3); }

// The true parameters of one protocol range of the synthetic machine.
struct Truth {
  double L, g, G, o_s, O_s, o_r, O_r;
};

// Medians a machine following LogGOPS exactly would give (the PRTT identities
// of reference/calibration-methods.md, with g + G s above o_s + O_s s).
SizeEstimate machine(double s, const Truth& t, int n, double noise, std::size_t i) {
  SizeEstimate e;
  e.bytes = static_cast<std::uint64_t>(s);
  e.n = n;
  const double send = t.o_s + t.O_s * s, gap = t.g + t.G * s, receive = t.o_r + t.O_r * s;
  e.prtt1 = 2 * (std::max(send, gap) + t.L + receive) * wobble(i, noise);
  e.delay = e.prtt1;
  e.prttn = e.prtt1 + (n - 1) * gap * wobble(i + 7, noise);
  e.prttnd = e.prtt1 + (n - 1) * (send * wobble(i + 3, noise) + e.delay);
  e.orecv = (n - 1) * receive * wobble(i + 5, noise);
  e.pingpong = e.prtt1;
  return e;
}

constexpr Truth kEager{0.4e-6, 0.3e-6, 0.08e-9, 0.2e-6, 0.05e-9, 0.25e-6, 0.1e-9};
constexpr Truth kRendezvous{2.0e-6, 0.5e-6, 0.09e-9, 0.3e-6, 0.02e-9, 0.6e-6, 0.12e-9};

// Contiguous: the ranges above, switch at 8 KiB; a vector type whose
// overheads are three times the contiguous ones (packing).
std::map<std::string, std::vector<SizeEstimate>> synthetic_machine(double noise) {
  std::map<std::string, std::vector<SizeEstimate>> out;
  std::size_t i = 0;
  for (double s : powers_of_two(0, 20)) {
    const Truth& t = s < 8192 ? kEager : kRendezvous;
    out["contiguous"].push_back(machine(s, t, 10, noise, i++));
    if (s >= 16) {
      Truth packed = t;
      packed.o_s *= 3, packed.O_s *= 3, packed.o_r *= 3, packed.O_r *= 3;
      packed.g = packed.o_s * 2, packed.G = packed.O_s * 2;  // the sender stays NIC-bound
      out["vector:4,1,4:float"].push_back(machine(s, packed, 10, noise, i++));
    }
  }
  return out;
}

void check_close(double got, double want, double tolerance, const std::string& what) {
  BOOST_TEST_INFO(what << ": got " << got << ", want " << want);
  BOOST_TEST(std::abs(got - want) <= tolerance * std::abs(want));
}

void check_range(const ProtocolFit& r, const Truth& t, double tolerance) {
  const auto& c = r.datatypes.at("contiguous");
  check_close(r.gap.intercept, t.g, tolerance, "g");
  check_close(r.gap.slope, t.G, tolerance, "G");
  check_close(c.send.intercept, t.o_s, tolerance, "o_s");
  check_close(c.send.slope, t.O_s, tolerance, "O_s");
  check_close(c.receive.intercept, t.o_r, tolerance, "o_r");
  check_close(c.receive.slope, t.O_r, tolerance, "O_r");
  check_close(r.L, t.L, 2 * tolerance, "L");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(netgauge_line_fit)

BOOST_AUTO_TEST_CASE(exact_line_is_recovered_over_decades) {
  const auto x = powers_of_two(0, 20);
  std::vector<double> y;
  for (double v : x) y.push_back(2e-6 + 3e-10 * v);
  const LineFit f = fit_line(x, y, true);
  BOOST_TEST(f.intercept == 2e-6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(f.slope == 3e-10, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(f.rejected == 0u);
}

BOOST_AUTO_TEST_CASE(one_outlier_is_rejected) {
  const auto x = powers_of_two(0, 16);
  std::vector<double> y;
  for (std::size_t i = 0; i < x.size(); ++i) y.push_back((1e-6 + 1e-10 * x[i]) * wobble(i, 0.01));
  y[5] *= 10;  // a preempted sample
  const LineFit f = fit_line(x, y, true);
  BOOST_TEST(f.rejected == 1u);
  BOOST_TEST(f.used == x.size() - 1);
  BOOST_TEST(f.intercept == 1e-6, boost::test_tools::tolerance(0.02));
  BOOST_TEST(f.slope == 1e-10, boost::test_tools::tolerance(0.02));
}

BOOST_AUTO_TEST_CASE(negative_values_are_refitted_at_zero) {
  const std::vector<double> x{1, 2, 4, 8};
  const LineFit through_origin = fit_line(x, {-0.5, 1.5, 5.5, 13.5}, true);  // -2.5 + 2 x: negative intercept
  BOOST_TEST(through_origin.intercept_clamped);
  BOOST_TEST(through_origin.intercept == 0.0);
  BOOST_TEST(through_origin.slope > 0);
  const LineFit constant = fit_line(x, {4, 3, 2, 1}, true);  // falling: a constant
  BOOST_TEST(constant.slope_clamped);
  BOOST_TEST(constant.slope == 0.0);
  BOOST_TEST(constant.intercept > 0);
  const LineFit free = fit_line(x, {4, 3, 1, -3}, false);  // 4 - x, no clamping asked
  BOOST_TEST(free.slope == -1.0, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(zeros_give_a_zero_line) {
  // Overheads below the clock's resolution: the line is 0, not NaN.
  const LineFit f = fit_line({1, 2, 4, 8}, {0, 0, 0, 0}, true);
  BOOST_TEST(f.intercept == 0.0);
  BOOST_TEST(f.slope == 0.0);
  const LineFit g = fit_line({1, 2, 4, 8}, {0, 0, 0, 1e-6}, true);
  BOOST_TEST(std::isfinite(g.intercept));
  BOOST_TEST(std::isfinite(g.slope));
}

BOOST_AUTO_TEST_CASE(one_point_is_a_constant_and_none_an_error) {
  const LineFit f = fit_line({64}, {3e-6}, true);
  BOOST_TEST(f.intercept == 3e-6);
  BOOST_TEST(f.slope == 0.0);
  BOOST_TEST(error_message([] { fit_line({}, {}, true); }) != "(no error)");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(netgauge_switch)

BOOST_AUTO_TEST_CASE(step_up_is_the_protocol_switch) {
  const auto x = powers_of_two(0, 20);
  std::vector<double> y;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double handshake = x[i] >= 4096 ? 2e-6 : 0;
    y.push_back((1e-6 + handshake + 1e-10 * x[i]) * wobble(i, 0.02));
  }
  const auto changes = find_changepoints(x, y);
  BOOST_REQUIRE(!changes.empty());
  const auto sw = protocol_switch(changes);
  BOOST_REQUIRE(sw.has_value());
  BOOST_TEST(x[*sw] == 4096.0);
}

BOOST_AUTO_TEST_CASE(a_noisy_line_has_no_switch) {
  const auto x = powers_of_two(0, 20);
  std::vector<double> y;
  for (std::size_t i = 0; i < x.size(); ++i) y.push_back((1e-6 + 1e-10 * x[i]) * wobble(i, 0.02));
  BOOST_TEST(find_changepoints(x, y).empty());
  BOOST_TEST(!protocol_switch(find_changepoints(x, y)).has_value());
}

BOOST_AUTO_TEST_CASE(a_slope_change_without_a_step_is_no_protocol_switch) {
  // A cache boundary: the per-byte cost triples from 256 KiB on, continuously.
  const auto x = powers_of_two(0, 22);
  std::vector<double> y;
  const double knee = 262144;
  for (double v : x) y.push_back(1e-6 + 1e-10 * std::min(v, knee) + 3e-10 * std::max(v - knee, 0.0));
  const auto changes = find_changepoints(x, y);
  BOOST_TEST(changes.empty());
  BOOST_TEST(!protocol_switch(changes).has_value());
}

BOOST_AUTO_TEST_CASE(a_single_spike_is_no_switch) {
  // One preempted size in a flat series: the local lines do not jump.
  const auto x = powers_of_two(0, 12);
  std::vector<double> y(x.size(), 1e-6);
  y[6] = 3e-6;
  BOOST_TEST(!protocol_switch(find_changepoints(x, y)).has_value());
}

BOOST_AUTO_TEST_CASE(short_series_are_not_split) {
  const std::vector<double> x{1, 2, 4, 8, 16}, y{1, 1, 5, 5, 5};
  BOOST_TEST(find_changepoints(x, y).empty());  // 3 points per side are needed
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(netgauge_loggops_fit)

BOOST_AUTO_TEST_CASE(exact_machine_is_recovered) {
  const auto fit = fit_loggops(synthetic_machine(0), SwitchChoice{});
  BOOST_REQUIRE(fit.switch_bytes.has_value());
  BOOST_TEST(*fit.switch_bytes == 8192u);
  check_range(fit.eager, kEager, 1e-6);
  check_range(fit.rendezvous, kRendezvous, 1e-6);
  const auto& vector = fit.eager.datatypes.at("vector:4,1,4:float");
  check_close(vector.send.slope, 3 * kEager.O_s, 1e-6, "vector O_s");
  check_close(vector.receive.intercept, 3 * kEager.o_r, 1e-6, "vector o_r");
  BOOST_TEST(fit.netgauge_L == 2 * (kEager.g + kEager.G + kEager.L + kEager.o_r + kEager.O_r) / 2,
             boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(noisy_machine_is_recovered_within_the_noise) {
  const auto fit = fit_loggops(synthetic_machine(0.02), SwitchChoice{});
  BOOST_REQUIRE(fit.switch_bytes.has_value());
  BOOST_TEST(*fit.switch_bytes == 8192u);
  check_range(fit.eager, kEager, 0.15);
  check_range(fit.rendezvous, kRendezvous, 0.15);
}

BOOST_AUTO_TEST_CASE(real_loaded_machine_finds_vaders_switch) {
  // A real run on a loaded machine (tests/data/netgauge/vader-loaded.csv):
  // with medians and with minima, the switch is vader's 4 KiB eager limit and
  // every fitted value is finite and non-negative.
  const auto samples = read_netgauge_csv(std::string(CONTEND_SOURCE_DIR) + "/tests/data/netgauge/vader-loaded.csv");
  for (const auto statistic : {Statistic::Median, Statistic::Minimum}) {
    const auto fit = fit_loggops(estimate_sizes(samples, statistic), SwitchChoice{});
    BOOST_REQUIRE(fit.switch_bytes.has_value());
    BOOST_TEST(*fit.switch_bytes == 4096u);
    for (const auto* range : {&fit.eager, &fit.rendezvous}) {
      const auto& c = range->datatypes.at("contiguous");
      for (double v : {range->L, range->gap.intercept, range->gap.slope, c.send.intercept, c.send.slope,
                       c.receive.intercept, c.receive.slope}) {
        BOOST_TEST((std::isfinite(v) && v >= 0));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(given_and_no_switch) {
  SwitchChoice given;
  given.mode = SwitchChoice::Mode::Given;
  given.bytes = 8192;
  check_range(fit_loggops(synthetic_machine(0), given).rendezvous, kRendezvous, 1e-6);
  given.bytes = 1 << 30;
  BOOST_TEST(error_message([&] { fit_loggops(synthetic_machine(0), given); }).find("all on one side") !=
             std::string::npos);
  SwitchChoice none;
  none.mode = SwitchChoice::Mode::None;
  const auto one = fit_loggops(synthetic_machine(0), none);
  BOOST_TEST(!one.switch_bytes.has_value());
  BOOST_TEST(one.eager.sizes == 21u);
  BOOST_TEST(one.rendezvous.gap.slope == one.eager.gap.slope);
}

BOOST_AUTO_TEST_CASE(model_round_trip_is_bacons_formula) {
  ProtocolFit r;
  r.L = 1e-6;
  r.gap = LineFit{0.5e-6, 1e-9};
  OverheadFit o;
  o.send = LineFit{0.2e-6, 2e-9};
  o.receive = LineFit{0.3e-6, 0.5e-9};
  r.datatypes["contiguous"] = o;
  // k = 1000: max(0.2 + 2, 0.5 + 1) us = 2.2 us; + 1 us + 0.5 us + 0.3 us = 4 us; times 2.
  BOOST_TEST(model_round_trip(r, "contiguous", 1000) == 8e-6, boost::test_tools::tolerance(1e-12));
  // k = 100: max(0.4, 0.6) + 1 + 0.05 + 0.3 = 1.95 us.
  BOOST_TEST(model_round_trip(r, "contiguous", 100) == 3.9e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(error_message([&] { model_round_trip(r, "vector:1,1,2:int", 8); }).find("no fitted overheads") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(raw_csv_is_read_and_checked) {
  const auto dir = std::filesystem::temp_directory_path() / "contend-netgauge-test";
  std::filesystem::create_directories(dir);
  const auto good = (dir / "good.csv").string();
  {
    std::ofstream out(good);
    out << "# comment\ndatatype,bytes,count,quantity,n,delay,repetition,time\n";
    for (int rep = 0; rep < 3; ++rep) {
      const double f = 1 + 0.1 * rep;
      out << "\"vector:4,1,4:float\",64,4,prtt,1,0," << rep << "," << 2e-6 * f << "\n";
      out << "\"vector:4,1,4:float\",64,4,prtt,10,0," << rep << "," << 11e-6 * f << "\n";
      out << "\"vector:4,1,4:float\",64,4,prtt,10,2e-06," << rep << "," << 31e-6 * f << "\n";
      out << "\"vector:4,1,4:float\",64,4,orecv,10,2e-06," << rep << "," << 4.5e-6 * f << "\n";
      out << "\"vector:4,1,4:float\",64,4,pingpong,1,0," << rep << "," << 1.9e-6 * f << "\n";
    }
  }
  const auto estimates = estimate_sizes(read_netgauge_csv(good));
  const auto& e = estimates.at("vector:4,1,4:float").at(0);
  BOOST_TEST(e.bytes == 64u);
  BOOST_TEST(e.prtt1 == 2.2e-6, boost::test_tools::tolerance(1e-9));  // medians
  BOOST_TEST(e.gap() == (12.1e-6 - 2.2e-6) / 9, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(e.send_overhead() == (34.1e-6 - 2.2e-6) / 9 - 2e-6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(e.receive_overhead() == 0.55e-6, boost::test_tools::tolerance(1e-9));
  const auto least = estimate_sizes(read_netgauge_csv(good), Statistic::Minimum).at("vector:4,1,4:float").at(0);
  BOOST_TEST(least.prtt1 == 2e-6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(least.receive_overhead() == 0.5e-6, boost::test_tools::tolerance(1e-9));
  const auto bad = (dir / "bad.csv").string();
  { std::ofstream(bad) << "datatype,bytes,count,quantity,n,delay,repetition,time\ncontiguous,8,8,prtt,1,0,0,soon\n"; }
  BOOST_TEST(error_message([&] {
               read_netgauge_csv(bad);
             }).find("bad.csv:2:27: time_s: expected a time in seconds (a number >= 0), got 'soon'") !=
             std::string::npos);
  { std::ofstream(bad) << "size,time\n"; }
  BOOST_TEST(error_message([&] { read_netgauge_csv(bad); }).find("expected the header") != std::string::npos);
  { std::ofstream(bad) << "datatype,bytes,count,quantity,n,delay,repetition,time\ncontiguous,8,8,prtt,1,0,0,1e-6\n"; }
  BOOST_TEST(error_message([&] { estimate_sizes(read_netgauge_csv(bad)); }).find("contiguous 8 B: needs") !=
             std::string::npos);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(netgauge_platform_update)

namespace {
std::string shipped(const char* name) { return read_text(std::string(CONTEND_SOURCE_DIR) + "/platforms/" + name); }
}  // namespace

BOOST_AUTO_TEST_CASE(section_is_added_and_threshold_set) {
  const auto text = shipped("epyc-rome-2node.yaml");
  const auto fit = fit_loggops(synthetic_machine(0), SwitchChoice{});
  const std::string out =
      update_platform_loggops(text, "p.yaml", fit, LoggopsUpdate{Level::IntraSocket, "raw.csv", true, ""});
  const auto root = YamlField::load_string(out, "p.yaml");
  const Platform p = parse_platform(root);
  BOOST_TEST(p.level(Level::IntraSocket).eager_threshold == 8192u);
  BOOST_TEST(p.level(Level::InterSocket).eager_threshold == 8192u);
  const auto eager = root.child("models").child("loggops").child("intra_socket").child("eager");
  BOOST_TEST(eager.child("L").as_duration() == kEager.L, boost::test_tools::tolerance(1e-3));
  BOOST_TEST(eager.child("G").as_duration() == kEager.G, boost::test_tools::tolerance(1e-3));
  const auto vector = eager.child("datatypes").child("vector:4,1,4:float");
  BOOST_TEST(vector.child("O_r").as_duration() == 3 * kEager.O_r, boost::test_tools::tolerance(1e-3));
  BOOST_TEST(root.child("models").child("maxmin").present());
  // Every line of the original is still there, in order (only additions).
  const auto before = test::lines_of(text), after = test::lines_of(out);
  std::size_t j = 0;
  for (const auto& line : after) {
    if (j < before.size() && line == before[j]) ++j;
  }
  BOOST_TEST(j == before.size());
}

BOOST_AUTO_TEST_CASE(rewriting_replaces_the_level_and_is_idempotent) {
  const auto text = shipped("epyc-rome-2node.yaml");
  const auto fit = fit_loggops(synthetic_machine(0), SwitchChoice{});
  const LoggopsUpdate update{Level::IntraSocket, "raw.csv", true, ""};
  const std::string once = update_platform_loggops(text, "p.yaml", fit, update);
  BOOST_TEST(update_platform_loggops(once, "p.yaml", fit, update) == once);
  // Another level joins the same loggops section.
  const std::string two =
      update_platform_loggops(once, "p.yaml", fit, LoggopsUpdate{Level::InterNode, "raw.csv", false, ""});
  const auto loggops = YamlField::load_string(two, "p.yaml").child("models").child("loggops");
  BOOST_TEST(loggops.child("intra_socket").present());
  BOOST_TEST(loggops.child("inter_node").present());
  BOOST_TEST(parse_platform(YamlField::load_string(two, "p.yaml")).level(Level::InterNode).eager_threshold == 8192u);
}

BOOST_AUTO_TEST_CASE(file_without_models_gets_one) {
  std::string text = shipped("epyc-rome-2node.yaml");
  text = text.substr(0, text.find("models:"));
  const auto fit = fit_loggops(synthetic_machine(0), SwitchChoice{});
  const std::string out =
      update_platform_loggops(text, "p.yaml", fit, LoggopsUpdate{Level::IntraSocket, "raw.csv", true, ""});
  BOOST_TEST(YamlField::load_string(out, "p.yaml").child("models").child("loggops").child("intra_socket").present());
}

BOOST_AUTO_TEST_CASE(flow_style_levels_and_an_existing_loggops_section) {
  // loggops-shm.yaml: one-line levels, and a loggops section with 'default' only.
  const auto text = shipped("loggops-shm.yaml");
  auto fit = fit_loggops(synthetic_machine(0), SwitchChoice{});
  const std::string out =
      update_platform_loggops(text, "p.yaml", fit, LoggopsUpdate{Level::IntraSocket, "raw.csv", true, ""});
  const auto root = YamlField::load_string(out, "p.yaml");
  BOOST_TEST(parse_platform(root).level(Level::IntraSocket).eager_threshold == 8192u);
  BOOST_TEST(parse_platform(root).level(Level::InterNode).eager_threshold == 4096u);
  BOOST_TEST(root.child("models").child("loggops").child("default").present());
  BOOST_TEST(root.child("models").child("loggops").child("intra_socket").child("rendezvous").child("L").as_duration() ==
                 kRendezvous.L,
             boost::test_tools::tolerance(1e-3));
}

BOOST_AUTO_TEST_CASE(default_section) {
  const auto fit = fit_loggops(synthetic_machine(0), SwitchChoice{});
  const std::string out = update_platform_loggops(shipped("epyc-rome-2node.yaml"), "p.yaml", fit,
                                                  LoggopsUpdate{Level::IntraSocket, "raw.csv", true, "default"});
  const auto loggops = YamlField::load_string(out, "p.yaml").child("models").child("loggops");
  BOOST_TEST(loggops.child("default").child("eager").present());
  BOOST_TEST(!loggops.child("intra_socket").present());
}

BOOST_AUTO_TEST_SUITE_END()
