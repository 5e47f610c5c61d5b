// Loop orders and tile uses for the float32 tiles' bf16x3 products (benchmarks/experiments/amx_tile_variants.py),
// to time against the shipped kernel (src/attnmt/fast/csrc/split_tiles.cpp: split_pairs) on an AMX CPU.
// Each variant computes y [rows, n] = Σ over the products (i, j) with i + j < 2 of x's piece i · W's piece j,
// float32 sums, no bias, from x's pieces [2, rows_padded, ldx] (bf16, rows padded to 16, K to 32, ldx ≥ K)
// and W's tiles as pack_split_tiles packs them [count, 2, kp/2, 16, 2].  Model: on amx_tile_model.h.
//   0: the shipped order: for each 32 k, each piece j of W (tmm6-7) meets pieces i < 2 − j of x (tmm4-5);
//   1: the products outermost, each a whole k loop (as the int8 kernel's one product);
//   2: one row tile × 2 panels, two sets of input tiles taken in turn (tmm2, 4, 5 and tmm3, 6, 7), so
//      that no tile is loaded while a product still reads it; 2 accumulators.
// ldx > kp (x's rows 64 bytes longer) spreads a tile's 16 rows over more of L1's sets.
#include "amx_tiles.h"

#include <ATen/Parallel.h>
#include <torch/extension.h>

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

namespace {

constexpr int64_t kPanel = 16, kTileK = 32, kTileRows = 16;
constexpr int kProducts[3][2] = {{0, 0}, {1, 0}, {0, 1}};  // (piece of x, piece of W)

struct Call {
  const uint16_t* x;
  const uint16_t* w;
  float* y;
  int64_t rows, rows_padded, ldx, kp, n, count;
};

#define ATTNMT_VARIANT __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,amx-tile,amx-bf16")))

// y's block of rows [r, r + rows) and the pair's columns from col, from acc [32, 32] float32.
void store(const float (&acc)[2 * kTileRows][2 * kPanel], const Call& c, int64_t r, int64_t rows, int64_t col) {
  const int64_t columns = std::min(2 * kPanel, c.n - col);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j) c.y[(r + i) * c.n + col + j] = acc[i][j];
}

// One or two row tiles of one piece of x, from `a` (ldx bf16 a row), times the pair's piece in tmm6-7,
// into tmm0-3: the shipped kernel's innermost step, variants 0 and 1 alike.
template <bool Model>
ATTNMT_VARIANT inline void rows_times_pair(const uint16_t* a, int64_t ldx, bool lower) {
  using namespace attnmt;
  ATTNMT_TILE(loadd, 4, a, ldx * 2);
  ATTNMT_TILE(dpbf16ps, 0, 4, 6);
  ATTNMT_TILE(dpbf16ps, 1, 4, 7);
  if (lower) {
    ATTNMT_TILE(loadd, 5, a + kTileRows * ldx, ldx * 2);
    ATTNMT_TILE(dpbf16ps, 2, 5, 6);
    ATTNMT_TILE(dpbf16ps, 3, 5, 7);
  }
}

template <bool Model, int Variant>
ATTNMT_VARIANT void pairs(const Call& c, int64_t begin, int64_t end) {
  using namespace attnmt;
  static const TileConfig config;
  ATTNMT_TILE(loadconfig, &config);
  const int64_t lda = c.ldx * 2, piece_x = c.rows_padded * c.ldx, piece_w = c.kp * kPanel, panel_w = 2 * piece_w;
  alignas(64) float acc[2 * kTileRows][2 * kPanel];
  for (int64_t p = 2 * begin; p < std::min(2 * end, c.count); p += 2) {
    const uint16_t* b0 = c.w + p * panel_w;
    const uint16_t* b1 = p + 1 < c.count ? b0 + panel_w : b0;
    const int64_t step = Variant == 2 ? kTileRows : 2 * kTileRows;
    for (int64_t r = 0; r < c.rows; r += step) {
      const bool lower = Variant != 2 && r + kTileRows < c.rows;
      ATTNMT_TILE(zero, 0);  // the intrinsics take the tile's number as written, not a variable
      ATTNMT_TILE(zero, 1);
      ATTNMT_TILE(zero, 2);
      ATTNMT_TILE(zero, 3);
      if constexpr (Variant == 0) {
        for (int64_t g = 0; g < c.kp; g += kTileK)
          for (int64_t j = 0; j < 2; ++j) {
            ATTNMT_TILE(loadd, 6, b0 + j * piece_w + g * kPanel, 4 * kPanel);
            ATTNMT_TILE(loadd, 7, b1 + j * piece_w + g * kPanel, 4 * kPanel);
            for (int64_t i = 0; i + j < 2; ++i) rows_times_pair<Model>(c.x + i * piece_x + r * c.ldx + g, c.ldx, lower);
          }
      } else if constexpr (Variant == 1) {
        for (const auto& [i, j] : kProducts)
          for (int64_t g = 0; g < c.kp; g += kTileK) {
            ATTNMT_TILE(loadd, 6, b0 + j * piece_w + g * kPanel, 4 * kPanel);
            ATTNMT_TILE(loadd, 7, b1 + j * piece_w + g * kPanel, 4 * kPanel);
            rows_times_pair<Model>(c.x + i * piece_x + r * c.ldx + g, c.ldx, lower);
          }
      } else {
        int set = 0;
        for (int64_t g = 0; g < c.kp; g += kTileK)
          for (const auto& [i, j] : kProducts) {
            const uint16_t* a = c.x + i * piece_x + r * c.ldx + g;
            if (set == 0) {
              ATTNMT_TILE(loadd, 2, a, lda);
              ATTNMT_TILE(loadd, 4, b0 + j * piece_w + g * kPanel, 4 * kPanel);
              ATTNMT_TILE(loadd, 5, b1 + j * piece_w + g * kPanel, 4 * kPanel);
              ATTNMT_TILE(dpbf16ps, 0, 2, 4);
              ATTNMT_TILE(dpbf16ps, 1, 2, 5);
            } else {
              ATTNMT_TILE(loadd, 3, a, lda);
              ATTNMT_TILE(loadd, 6, b0 + j * piece_w + g * kPanel, 4 * kPanel);
              ATTNMT_TILE(loadd, 7, b1 + j * piece_w + g * kPanel, 4 * kPanel);
              ATTNMT_TILE(dpbf16ps, 0, 3, 6);
              ATTNMT_TILE(dpbf16ps, 1, 3, 7);
            }
            set ^= 1;
          }
      }
      constexpr int64_t ld = 2 * kPanel * sizeof(float);
      ATTNMT_TILE(stored, 0, &acc[0][0], ld);
      ATTNMT_TILE(stored, 1, &acc[0][kPanel], ld);
      if (lower) {
        ATTNMT_TILE(stored, 2, &acc[kTileRows][0], ld);
        ATTNMT_TILE(stored, 3, &acc[kTileRows][kPanel], ld);
      }
      asm volatile("" ::: "memory");
      store(acc, c, r, std::min(step, c.rows - r), p * kPanel);
    }
  }
  if constexpr (Model) amx_tile_model::release();
  else _tile_release();
}

template <bool Model>
void run(const Call& c, int64_t variant, int64_t begin, int64_t end) {
  if (variant == 0) pairs<Model, 0>(c, begin, end);
  else if (variant == 1) pairs<Model, 1>(c, begin, end);
  else pairs<Model, 2>(c, begin, end);
}

// y [rows, n] from x's pieces [2, rows_padded, ldx] (bf16) and W's tiles [count, 2, kp/2, 16, 2].
at::Tensor variant_linear(const at::Tensor& x, int64_t rows, const at::Tensor& w, int64_t n, int64_t variant,
                          bool model) {
  TORCH_CHECK(x.dim() == 3 && x.size(0) == 2 && x.scalar_type() == at::kBFloat16 && x.is_contiguous() &&
                  w.dim() == 5 && w.size(1) == 2 && w.scalar_type() == at::kBFloat16 && w.is_contiguous() &&
                  0 <= variant && variant <= 2,
              "variant_linear: x [2, rows_padded, ldx] and W [count, 2, kp/2, 16, 2] bf16, variant 0-2");
  at::Tensor y = at::empty({rows, n}, x.options().dtype(at::kFloat));
  const Call c{reinterpret_cast<const uint16_t*>(x.data_ptr<at::BFloat16>()),
               reinterpret_cast<const uint16_t*>(w.data_ptr<at::BFloat16>()), y.data_ptr<float>(), rows, x.size(1),
               x.size(2), 2 * w.size(2), n, w.size(0)};
  at::parallel_for(0, (c.count + 1) / 2, 1, [&](int64_t begin, int64_t end) {
    (model ? run<true> : run<false>)(c, variant, begin, end);
  });
  return y;
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("variant_linear", &variant_linear, "bf16x3 products on the tiles, in one of the variants' orders");
}
