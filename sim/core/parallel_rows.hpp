#pragma once
// Millions of output rows (the messages CSV) formatted on two threads, written
// in row order: the text is the same bytes as formatting them one by one,
// whatever the number of cores. Formatting (fmt's shortest/precision double
// conversions) is most of an output file's cost, and the machine this runs on
// has a second core idle at the end of a run.
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <future>
#include <ostream>
#include <thread>

namespace contend {

// Writes rows [0, count) to `out`: format_rows(buffer, begin, end) appends
// the text of rows [begin, end) to `buffer`. Blocks of rows alternate
// between this thread and one helper; each block is written once it and
// every block before it are formatted, so that memory holds two or three
// blocks, not the file. An exception from format_rows reaches the caller.
template <typename FormatRows>
void write_rows_in_parallel(std::ostream& out, std::size_t count, FormatRows&& format_rows) {
  constexpr std::size_t kRowsPerBlock = 1 << 15;
  auto format_block = [&](std::size_t block) {
    fmt::memory_buffer text;
    const std::size_t begin = block * kRowsPerBlock;
    format_rows(text, begin, std::min(count, begin + kRowsPerBlock));
    return text;
  };
  auto write = [&out](const fmt::memory_buffer& text) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  };
  const std::size_t blocks = (count + kRowsPerBlock - 1) / kRowsPerBlock;
  if (blocks <= 1 || std::thread::hardware_concurrency() < 2) {
    for (std::size_t b = 0; b < blocks; ++b) write(format_block(b));
    return;
  }
  // The helper formats the odd blocks, this thread the even ones.
  std::future<fmt::memory_buffer> odd = std::async(std::launch::async, format_block, 1);
  for (std::size_t b = 0; b < blocks; b += 2) {
    const fmt::memory_buffer even = format_block(b);
    write(even);
    if (b + 1 >= blocks) break;
    const fmt::memory_buffer next = odd.get();
    if (b + 3 < blocks) odd = std::async(std::launch::async, format_block, b + 3);
    write(next);
  }
}

}  // namespace contend
