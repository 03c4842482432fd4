#include "tests/harness/sim_fixture.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "models/registry.hpp"
#include "sim/core/mapping.hpp"
#include "sim/engine/mpi.hpp"
#include "sim/engine/simulation.hpp"
#include "tests/harness/error_message.hpp"

namespace contend::test {

ScriptWorkload staggered_fan_in_of_three(std::uint64_t bytes) {
  return ScriptWorkload(4, [bytes](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.waitall({mpi.irecv(1, bytes), mpi.irecv(2, bytes), mpi.irecv(3, bytes)});
    } else {
      if (mpi.rank() > 1) mpi.sleep((mpi.rank() - 1) * 0.5e-3);
      mpi.send(0, bytes);
    }
  });
}

std::vector<std::pair<double, double>> staggered_fan_in_nic_loads(double L) {
  return {{L, 1}, {L + 0.5e-3, 2}, {L + 1e-3, 3}, {L + 1.75e-3, 2}, {L + 2.75e-3, 1}, {L + 3e-3, 0}};
}

ScriptWorkload isend_compute_wait(std::uint64_t bytes, double compute_seconds, double receive_after) {
  return ScriptWorkload(2, [=](Mpi& mpi) {
    if (mpi.rank() == 0) {
      auto q = mpi.isend(1, bytes);
      mpi.compute_seconds(compute_seconds);
      mpi.wait(q);
    } else {
      if (receive_after > 0) mpi.sleep(receive_after);
      mpi.recv(0, bytes);
    }
  });
}

ScriptWorkload late_receive(std::uint64_t bytes, double receive_after) {
  return ScriptWorkload(2, [=](Mpi& mpi) {
    if (mpi.rank() == 0) {
      mpi.send(1, bytes);
    } else {
      mpi.sleep(receive_after);
      mpi.recv(0, bytes);
    }
  });
}

ScriptWorkload two_messages(std::uint64_t first, std::uint64_t second) {
  return ScriptWorkload(2, [=](Mpi& mpi) {
    if (mpi.rank() == 0) {
      auto a = mpi.isend(1, first);
      auto b = mpi.isend(1, second);
      mpi.waitall({a, b});
    } else {
      auto a = mpi.irecv(0, first);
      auto b = mpi.irecv(0, second);
      mpi.waitall({a, b});
    }
  });
}

ScriptWorkload typed_message(const Datatype& type, std::uint64_t bytes) {
  return ScriptWorkload(2, [=](Mpi& mpi) {
    const DatatypeId id = mpi.datatype(type);
    if (mpi.rank() == 0) {
      mpi.wait(mpi.isend(1, bytes, 0, Mpi::kCommWorld, id));
    } else {
      mpi.wait(mpi.irecv(0, bytes, 0, Mpi::kCommWorld, id));
    }
  });
}

Results run(const std::string& platform_text, Workload& workload, const RunOptions& o) {
  const Platform platform = parse_platform_text(platform_text);
  const Mapping mapping = make_mapping(o.mapping, workload.rank_count(), platform.nodes, o.oversubscribe);
  SimulationOptions options;
  options.model = o.model;
  options.progress = o.progress;
  options.mapping_name = o.mapping;
  options.record_messages = true;
  options.progress_line = o.progress_line;
  options.attribution = o.attribution;
  options.record_timeline = o.timeline;
  return simulate(platform, mapping, workload, o.models ? *o.models : all_models(), options);
}

Results run_pattern(const std::string& platform, const std::vector<PatternMessage>& messages, int ranks,
                    const RunOptions& o) {
  ManyPairPattern p;
  p.name = "test";
  p.ranks = ranks;
  p.messages = messages;
  PatternWorkload w(p);
  return run(platform, w, o);
}

std::string run_error(const std::string& platform, Workload& workload, const RunOptions& o) {
  return error_message([&] { run(platform, workload, o); });
}

ModelRegistry registry_of(const std::string& name, const std::string& description,
                          std::function<std::unique_ptr<CommunicationModel>(const ModelContext&)> create) {
  ModelInfo info;
  info.name = name;
  info.description = description;
  info.citation = "none";
  info.create = std::move(create);
  ModelRegistry registry;
  registry.add(info);
  return registry;
}

std::vector<MessageRecord> messages_between(const Results& r, int src, int dst) {
  std::vector<MessageRecord> out;
  for (const auto& m : r.messages)
    if (m.src == src && m.dst == dst) out.push_back(m);
  return out;
}

double duration(const Results& r, int src, int dst) {
  const auto m = messages_between(r, src, dst);
  BOOST_TEST_REQUIRE(m.size() == 1u);
  return m[0].end - m[0].start;
}

const MessageAttribution& attribution_of(const Results& r, int src, int dst, std::uint32_t seq) {
  for (const auto& m : r.attribution) {
    if (m.src == src && m.dst == dst && m.seq == seq) return m;
  }
  throw std::runtime_error("no attribution for message " + std::to_string(src) + "->" + std::to_string(dst) + " #" +
                           std::to_string(seq));
}

std::string describe_intervals(const MessageAttribution& m) {
  std::string out;
  for (const auto& i : m.intervals) {
    out += i.resource + " [" + std::to_string(i.begin) + ", " + std::to_string(i.end) + ") @" + std::to_string(i.rate) +
           "; ";
  }
  return out;
}

std::string random_bandwidth_table(std::mt19937& rng) {
  const int base = 100 + static_cast<int>(rng() % 900);
  if (rng() % 2 == 0) return std::to_string(base) + "MB/s";
  return "{1: " + std::to_string(base) + "MB/s, 2: " + std::to_string(base * 3 / 2) +
         "MB/s, 4: " + std::to_string(base * 2) + "MB/s}";
}

std::vector<PatternMessage> random_messages(std::mt19937& rng, int ranks, int count) {
  std::vector<PatternMessage> out;
  std::set<std::pair<int, int>> pairs;
  for (int i = 0; i < count; ++i) {
    PatternMessage m;
    m.src = static_cast<int>(rng() % static_cast<unsigned>(ranks));
    m.dst = static_cast<int>(rng() % static_cast<unsigned>(ranks));
    if (m.src == m.dst || !pairs.emplace(m.src, m.dst).second) continue;
    m.bytes = rng() % 8 == 0 ? 0 : (rng() % 2 == 0 ? 1 + rng() % 16000 : 16384 + rng() % 2000000);
    if (rng() % 2 == 0) m.start = static_cast<double>(rng() % 2000) * 1e-6;
    out.push_back(m);
  }
  return out;
}

std::vector<std::pair<double, double>> load_samples(const Results& r, const std::string& name) {
  std::vector<std::pair<double, double>> out;
  const auto& resources = r.timeline.resources();
  for (const auto& l : r.timeline.loads()) {
    if (resources[l.resource].name == name) out.emplace_back(l.time, l.load);
  }
  return out;
}

std::string exact_message_ends(const Results& r) {
  std::vector<MessageRecord> messages = r.messages;
  std::sort(messages.begin(), messages.end(), [](const MessageRecord& a, const MessageRecord& b) {
    return std::tie(a.src, a.dst, a.start, a.bytes) < std::tie(b.src, b.dst, b.start, b.bytes);
  });
  std::ostringstream out;
  out.precision(17);
  for (const auto& m : messages) out << m.src << ' ' << m.dst << ' ' << m.bytes << ' ' << m.end << '\n';
  return out.str();
}

std::string describe_pattern(const std::vector<PatternMessage>& messages, int ranks, Progress progress) {
  std::ostringstream out;
  out << "progress " << progress_name(progress) << "\nranks " << ranks << '\n';
  for (const auto& m : messages) out << m.src << ' ' << m.dst << ' ' << m.bytes << " @" << m.start << "s\n";
  return out.str();
}

void check_load_samples(const Results& r, const std::string& name,
                        const std::vector<std::pair<double, double>>& expected, double time_tolerance) {
  const auto got = load_samples(r, name);
  BOOST_TEST_INFO(name);
  BOOST_TEST_REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    BOOST_TEST_INFO(name << " sample " << i);
    BOOST_TEST(got[i].first == expected[i].first, boost::test_tools::tolerance(time_tolerance));
    BOOST_TEST(got[i].second == expected[i].second);
  }
}

std::vector<double> load_values(const Results& r, const std::string& name) {
  std::vector<double> out;
  for (const auto& [time, load] : load_samples(r, name)) out.push_back(load);
  return out;
}

}  // namespace contend::test
