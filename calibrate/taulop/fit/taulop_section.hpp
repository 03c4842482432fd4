#pragma once
// Writes a calibration into a platform file's `models: taulop:` section
// (schema: models/taulop/README.md), leaving the rest of the file byte for byte.
//
// Written: source, segment_size, kchain_fanout, Q, channels.*.gamma and
// bcast (o0, o1, L0, L1 per algorithm). Kept from the existing section: the
// channels' o, L and concurrency, which the dynamic model reads and which
// these experiments do not measure. A file without a taulop section gets
// first-order channel parameters from the two-process NBFTs at m_s:
// o = 0, L^0(m) = T_NBFT^0(2, m_s) / 2 * m / m_s and L^1(m) = (T_NBFT^1(2, m_s)
// - T_NBFT^0(2, m_s)) * m / m_s (the tau-Lop forms of Sec. 4 at m_s, scaled
// with m).
// Per-algorithm values: constants (the model evaluates them at m_s) for the
// pipelined trees; for linear and split_binary, whose models also take a
// whole message (eqs. (1), (13)), {intercept: 0, per_byte: x / m_s}, equal
// to the fitted x at m_s and scaled with m as the fit assumed.
#include <string>
#include <string_view>

#include "calibrate/taulop/fit/taulop_fit.hpp"
#include "sim/core/yaml_field.hpp"

namespace contend::calibrate {

// The section (two-space indented, starting with "  taulop:"). `existing`:
// the file's current models.taulop (may be absent).
std::string taulop_section(const TaulopCalibration& c, const YamlField& existing, const std::string& source);

// `yaml` (the file `name`) with models.<model> replaced by `section` (or added
// to `models:`, or a `models:` block appended): YamlText::set_entry. Comments
// inside the old section go with it; everything else stays as it was.
std::string replace_model_section(const std::string& yaml, std::string_view model, const std::string& section,
                                  const std::string& name = "platform");

// The platform file `text` (named `name`) with `c` as its models.taulop,
// keeping what taulop_section keeps from the section it replaces.
std::string update_platform_taulop(const std::string& text, const std::string& name, const TaulopCalibration& c,
                                   const std::string& source);

}  // namespace contend::calibrate
