// The AVX-512 panel kernels' row loop (float_panels.cpp, int8_panels.cpp): rows [0, rows) in
// blocks of 8, then one block of the 1-7 left, each handed to `block` with its size as a
// compile-time constant, so that each size gets a kernel with its accumulators in registers:
// block(std::integral_constant<int, R>{}, r).  Each block reads the whole of its weights, so the
// rows left over go in one block, for the weights to be read once more, not once per row left
// (greedy search's batches shrink to any count as sentences end).
#pragma once

#include <cstdint>
#include <type_traits>

namespace attnmt {

// How many blocks row_blocks cuts `rows` into (its rule: whole blocks of 8, and one for the rest).
inline int64_t row_block_count(int64_t rows) { return rows / 8 + (rows % 8 != 0); }

template <class Block>
inline void row_blocks(int64_t rows, Block&& block) {
  int64_t r = 0;
  for (; r + 8 <= rows; r += 8) block(std::integral_constant<int, 8>{}, r);
  switch (rows - r) {
    case 1: block(std::integral_constant<int, 1>{}, r); break;
    case 2: block(std::integral_constant<int, 2>{}, r); break;
    case 3: block(std::integral_constant<int, 3>{}, r); break;
    case 4: block(std::integral_constant<int, 4>{}, r); break;
    case 5: block(std::integral_constant<int, 5>{}, r); break;
    case 6: block(std::integral_constant<int, 6>{}, r); break;
    case 7: block(std::integral_constant<int, 7>{}, r); break;
    default: break;
  }
}

}  // namespace attnmt
