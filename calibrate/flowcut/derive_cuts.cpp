// flowcut-derive: turns flowcut_bench's raw CSV into a flow-cut table
// (Martinasso & Mehaut RR-5910, Sec. 6.1) and writes it into a platform
// file's `models: flowcut:` section; optionally the table as CSV too.
//
//   flowcut-derive RAW.csv --platform IN.yaml [--output OUT.yaml] [--cuts CUTS.csv] [--source TEXT]
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>

#include "calibrate/flowcut/fit/cut_fit.hpp"
#include "sim/core/platform.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/error.hpp"
#include "sim/core/yaml_field.hpp"

using namespace contend;
using namespace contend::calibrate;

namespace {

void write_cuts_csv(const std::string& path, const Calibration& c) {
  write_file_atomically(path, [&](std::ostream& out) {
    const FlowCutTable& t = c.table;
    out << "entry,value\n" << fmt::format("latency_s,{:.9g}\ntau_s,{:.9g}\n", c.latency, c.tau);
    for (std::size_t i = 0; i < t.odd_conflicts.size(); ++i) out << fmt::format("odd_conflicts.{},{:.6g}\n", i, t.odd_conflicts[i]);
    for (std::size_t i = 0; i < t.even_conflicts.size(); ++i) out << fmt::format("even_conflicts.{},{:.6g}\n", i, t.even_conflicts[i]);
    out << fmt::format("incoming,{:.6g}\noutgoing,{:.6g}\ninclude,{:.6g}\nstart_end,{:.6g}\n", t.incoming, t.outgoing,
                       t.include, t.start_end);
  });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Derives the flowcut model's flow cuts from flowcut_bench's raw times (RR-5910 Sec. 6.1)"};
  std::string raw_path, platform_path, output_path, cuts_path, source;
  app.add_option("raw", raw_path, "raw CSV written by flowcut_bench")->required();
  app.add_option("--platform", platform_path, "platform file whose models.flowcut section is replaced")->required();
  app.add_option("--output", output_path, "where to write the platform file (default: --platform, in place)");
  app.add_option("--cuts", cuts_path, "also write the table as CSV (entry,value)");
  app.add_option("--source", source, "text for the section's source key (default: names the raw file)");
  CLI11_PARSE(app, argc, argv);
  try {
    if (output_path.empty()) output_path = platform_path;
    const Calibration c = fit_calibration(read_raw_csv(raw_path));
    if (source.empty()) {
      source = fmt::format("calibrate/flowcut, {:.0f} B x {} repetitions, raw times {}", c.bytes, c.repetitions, raw_path);
    }
    const std::string text = replace_flowcut_section(read_text(platform_path), flowcut_section(c, source));
    // The result must be a valid platform with a valid table before it replaces anything.
    const Platform p = parse_platform(YamlField::load_string(text, output_path));
    parse_flowcut_table(p.model_section("flowcut"));
    write_file_atomically(output_path, [&](std::ostream& out) { out << text; });
    if (!cuts_path.empty()) write_cuts_csv(cuts_path, c);
    std::cout << fmt::format("flowcut-derive: L = {:.3g} us, T(NC) data time {:.4g} ms; wrote {}\n", c.latency * 1e6,
                             c.tau * 1e3, output_path)
              << flowcut_section(c, source);
  } catch (const Error& e) {
    std::cerr << "flowcut-derive: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
