#include "sim/core/pattern_collectives.hpp"

#include <charconv>
#include <string>

#include "sim/core/units.hpp"

namespace contend {
namespace {

using coll::CollectiveOp;

constexpr std::uint32_t kReductionElementBytes = 8;  // MPI_DOUBLE

bool is_reduction(CollectiveOp op) {
  return op == CollectiveOp::reduce || op == CollectiveOp::allreduce || op == CollectiveOp::reduce_scatter;
}

void expect_fields(const PatternLine& line, std::size_t n, const std::string& usage) {
  if (line.size() != n) {
    line.fail(line.size() < n ? 0 : n, "expected '" + usage + "', got " + std::to_string(line.size()) + " fields");
  }
}

std::uint64_t element_checked(const PatternLine& line, std::size_t field, CollectiveOp op, std::uint64_t bytes) {
  if (is_reduction(op) && bytes % kReductionElementBytes != 0) {
    line.fail(field, std::string(coll::to_string(op)) +
                         " reduces 8-byte elements (MPI_DOUBLE): " + std::to_string(bytes) + " is not a multiple of 8");
  }
  return bytes;
}

// "1K*8,4K,4K": one size per rank.
std::vector<std::uint64_t> size_list(const PatternLine& line, std::size_t field, CollectiveOp op) {
  if (line.declared_ranks() < 0) {
    line.fail(field, "a per-rank list needs a 'ranks N' line before it");
  }
  std::vector<std::uint64_t> sizes;
  std::string_view rest = line[field];
  while (true) {
    const auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    std::uint64_t repeat = 1;
    if (const auto star = item.find('*'); star != std::string_view::npos) {
      const std::string_view n = item.substr(star + 1);
      const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), repeat);
      if (ec != std::errc{} || end != n.data() + n.size() || repeat == 0) {
        line.fail(field, "expected SIZE*COUNT with a count >= 1, got '" + std::string(item) + "'");
      }
      item = item.substr(0, star);
    }
    const auto bytes = units::parse_size(item);
    if (!bytes) {
      if (auto breach = units::limit_breach(units::QuantityKind::size, item); !breach.empty())
        line.refuse(field, breach);
      line.fail(field,
                "expected a list of sizes (" + std::string(units::kSizeHelp) + "), got '" + std::string(item) + "'");
    }
    // Compared without adding: a huge COUNT must not wrap the sum.
    if (repeat > static_cast<std::uint64_t>(line.declared_ranks()) - sizes.size()) {
      line.fail(field, "the list has more entries than the " + std::to_string(line.declared_ranks()) + " ranks");
    }
    sizes.insert(sizes.end(), repeat, element_checked(line, field, op, *bytes));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (static_cast<int>(sizes.size()) != line.declared_ranks()) {
    line.fail(field, "the list has " + std::to_string(sizes.size()) + " entries for " +
                         std::to_string(line.declared_ranks()) + " ranks");
  }
  return sizes;
}

coll::CollectiveCall base_call(CollectiveOp op) {
  coll::CollectiveCall call;
  call.op = op;
  call.element_bytes = is_reduction(op) ? kReductionElementBytes : 1;
  return call;
}

KeywordStep step(coll::CollectiveCall call) { return call; }

PatternKeyword rooted(CollectiveOp op) {
  const std::string name(coll::to_string(op));
  const std::string usage = name + " ROOT BYTES";
  return {name, usage, [op, usage](PatternLine& line) {
            expect_fields(line, 3, usage);
            coll::CollectiveCall call = base_call(op);
            call.root = line.rank(1, "root");
            call.bytes = element_checked(line, 2, op, line.size_field(2, "bytes"));
            return step(call);
          }};
}

PatternKeyword sized(CollectiveOp op) {
  const std::string name(coll::to_string(op));
  const std::string usage = name + " BYTES";
  return {name, usage, [op, usage](PatternLine& line) {
            expect_fields(line, 2, usage);
            coll::CollectiveCall call = base_call(op);
            call.bytes = element_checked(line, 1, op, line.size_field(1, "bytes"));
            return step(call);
          }};
}

PatternKeyword listed(CollectiveOp op, bool with_root) {
  const std::string name(coll::to_string(op));
  const std::string usage = name + (with_root ? " ROOT LIST" : " LIST");
  return {name, usage, [op, usage, with_root](PatternLine& line) {
            const std::size_t list_field = with_root ? 2 : 1;
            expect_fields(line, list_field + 1, usage);
            coll::CollectiveCall call = base_call(op);
            if (with_root) call.root = line.rank(1, "root");
            call.counts = size_list(line, list_field, op);
            return step(call);
          }};
}

// reduce_scatter BYTES (every rank's block) or LIST.
PatternKeyword reduce_scatter() {
  const std::string usage = "reduce_scatter BYTES|LIST";
  return {"reduce_scatter", usage, [usage](PatternLine& line) {
            expect_fields(line, 2, usage);
            coll::CollectiveCall call = base_call(CollectiveOp::reduce_scatter);
            if (line[1].find(',') != std::string_view::npos || line[1].find('*') != std::string_view::npos) {
              call.counts = size_list(line, 1, CollectiveOp::reduce_scatter);
            } else {
              call.bytes = element_checked(line, 1, CollectiveOp::reduce_scatter, line.size_field(1, "bytes"));
            }
            return step(call);
          }};
}

}  // namespace

std::vector<PatternKeyword> collective_pattern_keywords() {
  return {
      {"barrier", "barrier",
       [](PatternLine& line) {
         expect_fields(line, 1, "barrier");
         return step(base_call(CollectiveOp::barrier));
       }},
      rooted(CollectiveOp::bcast),
      rooted(CollectiveOp::reduce),
      sized(CollectiveOp::allreduce),
      rooted(CollectiveOp::gather),
      listed(CollectiveOp::gatherv, true),
      rooted(CollectiveOp::scatter),
      listed(CollectiveOp::scatterv, true),
      sized(CollectiveOp::allgather),
      listed(CollectiveOp::allgatherv, false),
      sized(CollectiveOp::alltoall),
      listed(CollectiveOp::alltoallv, false),
      reduce_scatter(),
  };
}

}  // namespace contend
