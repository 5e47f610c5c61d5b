// Weights fetched into L2 ahead of use, for the float32 panel kernels (float_panels.cpp).
#pragma once

#include <algorithm>
#include <cstdint>

namespace attnmt {

// Weights fetched into L2 ahead of use: the panels after the ones being multiplied, a share per row
// block, a line or two per step of the block's k loop.  From DRAM the hardware prefetcher alone
// left the output layer 10-17 % below the kernels' speed on weights in cache (docs/design/fast-decoder.md);
// with fewer than 8 rows the kernels wait on memory either way, and the fetches only cost.
struct Ahead {
  const char* from = nullptr;
  const char* to = nullptr;
  int64_t step = 0;  // bytes per k

  static constexpr int64_t kMinRows = 8;

  // The share of row block `block` of `blocks` in the `bytes` from `next`, over a k loop of `k` steps.
  // Inlined always: a call through the PLT per row block otherwise.  A kernel built for another target
  // takes the three fields as arguments, not an Ahead: passed by value, in memory, the OPUS-shaped
  // output layer ran 10 % slower than with no fetching at all.
  __attribute__((always_inline)) static inline Ahead share(const void* next, int64_t bytes, int64_t block,
                                                           int64_t blocks, int64_t k) {
    blocks = std::max<int64_t>(blocks, 1);
    k = std::max<int64_t>(k, 1);
    const int64_t lines = (bytes / 64 + blocks - 1) / blocks, size = lines * 64;
    const char* base = static_cast<const char*>(next);
    return {base + std::min(block * size, bytes), base + std::min((block + 1) * size, bytes),
            (lines + k - 1) / k * 64};
  }

  __attribute__((always_inline)) inline void fetch(int64_t i) const {
    const char* end = std::min(from + (i + 1) * step, to);
    for (const char* line = from + i * step; line < end; line += 64) __builtin_prefetch(line, 0, 2);  // prefetcht1
  }
};

}  // namespace attnmt
