#pragma once
// Transparent huge pages for the simulator's few large per-message tables
// (a run's transfers, its message records): millions of entries touched in
// random order. With 4 KiB pages every first touch of a page is a page
// fault (half a million per 2.7 M-message run: a quarter of its CPU time,
// kernel included) and nearly every access a TLB miss. This machine's
// kernel gives huge pages only to memory that asks for them
// (transparent_hugepage=madvise), and only to these tables: glibc's own
// switch (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) would also back each rank
// actor's 1 MiB stack, mostly untouched, with 2 MiB pages (9.6 GiB instead
// of 1.3 GiB at 8192 ranks).
#include <cstddef>
#include <vector>

namespace contend {

// Asks the kernel to back the 2 MiB-aligned part of [data, data + bytes)
// with huge pages. Advice only: nothing changes where the kernel has none.
void advise_huge_pages(const void* data, std::size_t bytes);

// Reserves room for `count` entries in one block and advises huge pages for
// it when it is large. Reserved pages cost no memory until written, so a
// generous estimate is free; growing past it stays correct (the vector
// reallocates, on small pages).
template <typename T>
void reserve_huge(std::vector<T>& v, std::size_t count) {
  if (count <= v.capacity()) return;
  v.reserve(count);
  advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace contend
