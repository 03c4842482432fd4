#include "sim/core/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace contend {

void advise_huge_pages(const void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t last = (begin + bytes) & ~(kHuge - 1);
  if (last <= first) return;  // too small to hold an aligned huge page
  // Failure only means small pages (a kernel without THP, or THP "never").
  (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace contend
