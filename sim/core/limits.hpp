#pragma once
// contend's limits, in one place (documented in docs/limits.md). Inputs are
// checked against them where they are read, before anything is allocated or
// simulated for them, so that a huge value is one clear error rather than
// an exhausted memory, a hang or a number SimGrid cannot handle (infinite
// times abort it). They allow the largest runs contend targets: whole
// machines of about 172 k ranks (1344 nodes x 128 cores), Dragonfly+ of a
// few thousand nodes, halo exchanges of several million messages; they
// refuse what cannot be simulated in the memory of one machine.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/core/error.hpp"

namespace contend {

// An input refused because it reaches one of the limits below (exit status 3,
// docs/commands.md "Exit status"): the input may be valid, contend cannot
// simulate it. Every catch of Error still catches it.
class LimitError : public Error {
 public:
  using Error::Error;
};

}  // namespace contend

namespace contend::limits {

// --- Sizes of a run ---
inline constexpr int kMaxRanks = 1 << 18;                      // 262,144 MPI ranks
inline constexpr int kMaxNodes = 1 << 14;                      // 16,384 nodes
inline constexpr int kMaxSocketsPerNode = 64;                  // sockets per node
inline constexpr int kMaxCoresPerSocket = 4096;                // cores per socket
inline constexpr long long kMaxCores = 1LL << 22;              // 4,194,304 cores in a platform
inline constexpr std::uint64_t kMaxMessages = 16'000'000;      // messages in one pattern file
inline constexpr std::uint64_t kMaxMessageBytes = 1ULL << 40;  // 1 TiB in one message
inline constexpr std::uint64_t kMaxSegments = 1ULL << 20;      // segments of one collective call
inline constexpr long long kMaxMeshCells = 1LL << 26;          // generate-pattern's mesh, 67 M cells (about 17 GB)
inline constexpr long long kMaxNetworkCables = 1LL << 22;      // cables of a Dragonfly+ or fat tree
inline constexpr std::size_t kMaxSizeListEntries = 4096;       // --sizes lists
inline constexpr std::size_t kMaxCollOptions = 64;             // --coll options on one command line
inline constexpr std::uint64_t kMaxSweepCases = 1'000'000;     // cases of one sweep file
inline constexpr std::size_t kMaxLineBytes = 1 << 26;          // 64 MiB in one line of a text input
inline constexpr std::size_t kMaxTextFileBytes = 1 << 26;      // 64 MiB in a file read whole (platform YAML)
inline constexpr int kMaxStepRanks = 64;                       // ranks of a run printed by --step
inline constexpr std::uint64_t kMaxStepInstants = 10'000;      // instants --step prints

// A pattern's total volume never wraps: every message is at most
// kMaxMessageBytes and a pattern holds at most kMaxMessages.
static_assert(kMaxMessages <= UINT64_MAX / kMaxMessageBytes);

// --- Values ---
inline constexpr double kMinBandwidth = 1;       // B/s
inline constexpr double kMaxBandwidth = 1e15;    // B/s (1 PB/s)
inline constexpr double kMinSpeed = 1;           // flop/s
inline constexpr double kMaxSpeed = 1e18;        // flop/s (1 Eflop/s)
inline constexpr double kMaxDuration = 1e9;      // seconds (about 31 years)
inline constexpr double kMaxFlops = 1e24;        // flop in one computation
inline constexpr double kMaxPlainNumber = 1e15;  // a model parameter without a unit, in magnitude

// The text of each limit, as errors name it.
inline constexpr std::string_view kMaxRanksText = "262144 ranks";
inline constexpr std::string_view kMaxNodesText = "16384 nodes";
inline constexpr std::string_view kMaxSocketsPerNodeText = "64 sockets per node";
inline constexpr std::string_view kMaxCoresPerSocketText = "4096 cores per socket";
inline constexpr std::string_view kMaxCoresText = "4194304 cores";
inline constexpr std::string_view kMaxMessagesText = "16000000 messages";
inline constexpr std::string_view kMaxMessageBytesText = "1 TiB (2^40 bytes)";
inline constexpr std::string_view kMaxSegmentsText = "1048576 segments per collective call";
inline constexpr std::string_view kMaxMeshCellsText = "67108864 mesh cells";
inline constexpr std::string_view kMaxNetworkCablesText = "4194304 network cables";
inline constexpr std::string_view kBandwidthRangeText = "1 B/s to 1e15 B/s";
inline constexpr std::string_view kSpeedRangeText = "1 to 1e18 flop/s";
inline constexpr std::string_view kMaxDurationText = "1e9 s";
inline constexpr std::string_view kMaxFlopsText = "1e24 flop";
inline constexpr std::string_view kMaxLineBytesText = "64 MiB per line";
inline constexpr std::string_view kMaxTextFileBytesText = "64 MiB for a file read whole";
inline constexpr std::string_view kMaxPlainNumberText = "1e15 in magnitude";
inline constexpr std::string_view kMaxSweepCasesText = "1000000 cases in one sweep";
inline constexpr std::string_view kMaxStepRanksText = "64 ranks for --step";
inline constexpr std::string_view kMaxStepInstantsText = "10000 instants for --step";

// "<what> exceeds contend's limit of <limit> (docs/limits.md)": every limit
// error reads the same way.
std::string exceeds(std::string_view what, std::string_view limit);
// "<what> is outside contend's limits, <range> (docs/limits.md)".
std::string outside(std::string_view what, std::string_view range);

// a + b, or nothing when the sum does not fit in 64 bits.
inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

// a * b, or nothing when the product does not fit in 64 bits.
inline std::optional<std::uint64_t> checked_multiply(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

}  // namespace contend::limits
