// The panel kernels' row loop (float_panels.cpp, int8_panels.cpp): rows [0, rows) in blocks of
// 8, then 4, then 1, each handed to `block` with its size as a compile-time constant, so that each
// size gets a kernel with its accumulators in registers: block(std::integral_constant<int, R>{}, r).
#pragma once

#include <cstdint>
#include <type_traits>

namespace attnmt {

template <class Block>
inline void row_blocks(int64_t rows, Block&& block) {
  for (int64_t r = 0; r < rows;) {
    const int64_t left = rows - r;
    if (left >= 8) {
      block(std::integral_constant<int, 8>{}, r);
      r += 8;
    } else if (left >= 4) {
      block(std::integral_constant<int, 4>{}, r);
      r += 4;
    } else {
      block(std::integral_constant<int, 1>{}, r);
      r += 1;
    }
  }
}

}  // namespace attnmt
