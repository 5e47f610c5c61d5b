// The panel kernels' row loop (float_panels.cpp, int8_panels.cpp): rows [0, rows) in whole blocks
// of Whole rows (8 for the AVX-512 kernels, 6 and 4 for the AVX2 ones), then one block of the 1 to
// Whole - 1 left, each handed to `block` with its size as a compile-time constant, so that each size
// gets a kernel with its accumulators in registers: block(std::integral_constant<int, R>{}, r).
// Each block reads the whole of its weights, so the rows left over go in one block, for the weights
// to be read once more, not once per row left (greedy search's batches shrink to any count as
// sentences end).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace attnmt {

// How many blocks row_blocks<Whole> cuts `rows` into.
template <int Whole>
inline int64_t row_block_count(int64_t rows) {
  return rows / Whole + (rows % Whole != 0);
}

namespace detail {

// block(R, r) for the R in Sizes + 1 that equals `left` (none where left is 0).
template <class Block, int... Sizes>
inline void left_block(int64_t left, int64_t r, Block& block, std::integer_sequence<int, Sizes...>) {
  ((left == Sizes + 1 ? block(std::integral_constant<int, Sizes + 1>{}, r) : void()), ...);
}

}  // namespace detail

template <int Whole, class Block>
inline void row_blocks(int64_t rows, Block&& block) {
  int64_t r = 0;
  for (; r + Whole <= rows; r += Whole) block(std::integral_constant<int, Whole>{}, r);
  detail::left_block(rows - r, r, block, std::make_integer_sequence<int, Whole - 1>{});
}

}  // namespace attnmt
