#pragma once
// MPI datatypes as far as the models care: contiguous data, or a vector of
// `count` blocks of `blocklength` base elements, `stride` elements apart
// (MPI_Type_vector), over a named base type. Models such as LogGOPS charge
// per-datatype overheads (packing non-contiguous data costs CPU).
//
// Written as `contiguous` or `vector:COUNT,BLOCKLENGTH,STRIDE:BASE`, e.g.
// `vector:4,1,4:float` (Bacon et al.'s (4, 1, 4) of floats).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace contend {

struct Datatype {
  enum class Kind : std::uint8_t { Contiguous, Vector };
  Kind kind = Kind::Contiguous;
  int count = 1;        // blocks
  int blocklength = 1;  // base elements per block
  int stride = 1;       // base elements from one block start to the next
  std::string base = "byte";
  int base_size = 1;  // bytes of one base element

  std::string name() const;
  // Payload bytes of one instance (what MPI sends): count x blocklength x base_size.
  std::uint64_t payload_bytes() const;
  bool operator==(const Datatype& o) const {
    return kind == o.kind && count == o.count && blocklength == o.blocklength && stride == o.stride && base == o.base;
  }
};

// Parses `contiguous` or `vector:C,B,S:BASE` (BASE one of byte, char, short,
// int, float, long, double); on failure returns nothing and sets `error` to
// what was expected.
std::optional<Datatype> parse_datatype(std::string_view text, std::string& error);
const std::vector<std::string>& datatype_base_names();

using DatatypeId = std::uint16_t;
inline constexpr DatatypeId kContiguous = 0;

// The datatypes of one run, each stored once; id 0 is contiguous.
class DatatypeTable {
 public:
  DatatypeTable() : types_(1) {}
  DatatypeId intern(const Datatype& type);
  const Datatype& operator[](DatatypeId id) const { return types_[id]; }

 private:
  std::vector<Datatype> types_;
};

}  // namespace contend
