// Weights fetched into L2 ahead of use, for the float32 panel kernels (float_panels.cpp).
#pragma once

#include <algorithm>
#include <cstdint>

namespace attnmt {

// The panels after the ones being multiplied, fetched into L2 a share per row block, a line or two
// per step of the block's k loop.  From memory the hardware prefetcher alone left the output layer
// 10-18 % below the kernels' rate on weights in cache (benchmarks/results/panel_fetch_epyc_s22.txt);
// with fewer than 8 rows the kernels wait on memory either way, and the fetches only cost.
struct Ahead {
  const char* from = nullptr;  // the share: [from, to)
  const char* to = nullptr;
  int64_t step = 0;  // bytes per step of k

  static constexpr int64_t kMinRows = 8;

  // The share of row block `block` of `blocks` in the `bytes` from `next`, over a k loop of `k` steps.
  // Inlined always: a call through the PLT per row block otherwise.
  __attribute__((always_inline)) static inline Ahead share(const void* next, int64_t bytes, int64_t block,
                                                           int64_t blocks, int64_t k) {
    blocks = std::max<int64_t>(blocks, 1);
    k = std::max<int64_t>(k, 1);
    const int64_t lines = (bytes / 64 + blocks - 1) / blocks;
    const char* base = static_cast<const char*>(next);
    return {base + std::min(block * lines * 64, bytes), base + std::min((block + 1) * lines * 64, bytes),
            (lines + k - 1) / k * 64};
  }

  // How many steps of the k loop fetch: those after them fetch nothing.
  int64_t steps() const { return step > 0 ? (to - from + step - 1) / step : 0; }

  // The lines of step i of the k loop (none once the share is done: no pointer past `to` is formed).
  __attribute__((always_inline)) inline void fetch(int64_t i) const {
    const int64_t begin = i * step, size = to - from;
    if (begin >= size) return;
    const char* end = from + std::min(begin + step, size);
    for (const char* line = from + begin; line < end; line += 64) __builtin_prefetch(line, 0, 2);  // prefetcht1
  }
};

}  // namespace attnmt
