// Float32 linear layers on AMX's bf16 tiles: each float32 split into bf16 pieces, v ≈ p0 + p1 (+ p2),
// p0 = bf16(v), p1 = bf16(v − p0), p2 = bf16(v − p0 − p1) (each difference exact), and x · W's
// products of piece i of x with piece j of W summed in float32 by tdpbf16ps, for i + j < pieces:
//   - 2 pieces, 3 products ("bf16x3"): p1 · q1 (≈ 2^-16 of the product) left out, about 16 bits of
//     each product kept;
//   - 3 pieces, 6 products ("bf16x6"): everything down to 2^-24, float32's own precision.
// A product of two bf16 is exact in float32, so the only roundings are the pieces' and the float32 sums'.
// Where float32's own AVX-512 FMAs run at their peak (two 16-lane FMAs a cycle, 32 multiply-adds), a
// tile's tdpbf16ps does 16 × 16 × 32 = 8,192 in 16 cycles (512 a cycle): 5.3× as many in 3 products,
// 2.7× in 6.  Whether they keep float32's translations: benchmarks/experiments/split_bf16_fidelity.py.
//
// The layout follows the int8 AMX kernel (int8_panels.cpp: pairs_amx): 32 rows × 2 panels of 16
// columns at a time, tmm0-3 their float32 sums, tmm4-5 two row tiles of one piece of x (16 rows × 32
// k), tmm6-7 one piece of the two panels (16 rows of 2 k × 16 columns); x's rows padded to whole
// tiles of 16, K to whole tiles of 32 (zeros).
#include "split_tiles.h"
#include "amx_tiles.h"
#include "float_panels.h"
#include "int8_panels.h"

#include <ATen/Parallel.h>
#include <torch/library.h>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define ATTNMT_TILES_BUILD 1
#else
#define ATTNMT_TILES_BUILD 0
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace attnmt {

namespace {

using at::Tensor;

constexpr int64_t kTileK = 32;     // k per tile row of x (64 bytes of bf16)
constexpr int64_t kTileRows = 16;  // rows per tile
constexpr int kGrainShift = 22;    // each thread's least work, in multiply-adds (as int8's AMX kernel)

// v's bf16 (its upper 16 bits), rounded to nearest even as PyTorch rounds; a NaN stays a quiet NaN.
uint16_t bf16_bits(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return v != v ? uint16_t{0x7fc0} : static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

float bf16_value(uint16_t h) {
  const uint32_t bits = uint32_t{h} << 16;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

// v's `pieces` bf16 pieces, largest first; after an infinite piece the rest are 0 (v − ∞ is no number).
void split(float v, int64_t pieces, uint16_t* out, int64_t stride) {
  for (int64_t s = 0; s < pieces; ++s) {
    const uint16_t h = bf16_bits(v);
    out[s * stride] = h;
    const float piece = bf16_value(h);
    v = std::isinf(piece) ? 0.f : v - piece;
  }
}

int64_t padded_k(int64_t k) { return (k + kTileK - 1) / kTileK * kTileK; }

// One call's operands: x's pieces [pieces, rows_padded, kp] (bf16 bits), the layer's tiles
// [count, pieces, kp/2, 16, 2], and y's row r, column c at y[r · ldy + c − first] (as PanelCall).
struct SplitCall {
  const uint16_t* x;
  const uint16_t* tiles;
  const float* bias;
  const float* residual;
  float* y;
  int64_t rows, rows_padded, kp, n, count, pieces;
  bool relu;
  int64_t ldy, first;
};

#if ATTNMT_TILES_BUILD
#define ATTNMT_TILES __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,amx-tile,amx-bf16")))

// Rows [begin, end) of x [rows, k] as their pieces, each row of each piece kp bf16 long (zeros beyond k):
// split() 16 floats at a time.
ATTNMT_TILES void split_rows(const float* x, int64_t begin, int64_t end, int64_t k, const SplitCall& call,
                             uint16_t* out) {
  const __m512i round = _mm512_set1_epi32(0x7fff), one = _mm512_set1_epi32(1);
  const __m512i upper = _mm512_set1_epi32(static_cast<int>(0xffff0000u)), quiet = _mm512_set1_epi32(0x7fc00000);
  const __m512 infinity = _mm512_set1_ps(INFINITY);
  const int64_t piece_stride = call.rows_padded * call.kp;
  for (int64_t r = begin; r < end; ++r)
    for (int64_t i = 0; i < call.kp; i += 16) {
      const __mmask16 m = static_cast<__mmask16>(k - i >= 16 ? 0xffff : k > i ? (1u << (k - i)) - 1u : 0u);
      __m512 v = _mm512_maskz_loadu_ps(m, x + r * k + i);
      for (int64_t s = 0; s < call.pieces; ++s) {
        const __m512i bits = _mm512_castps_si512(v);
        __m512i rounded = _mm512_add_epi32(_mm512_add_epi32(bits, round), _mm512_and_si512(_mm512_srli_epi32(bits, 16), one));
        rounded = _mm512_mask_mov_epi32(rounded, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), quiet);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + s * piece_stride + r * call.kp + i),
                            _mm512_cvtepi32_epi16(_mm512_srli_epi32(rounded, 16)));
        const __m512 piece = _mm512_castsi512_ps(_mm512_and_si512(rounded, upper));
        const __mmask16 finite = _mm512_cmp_ps_mask(_mm512_abs_ps(piece), infinity, _CMP_LT_OQ);
        v = _mm512_maskz_sub_ps(finite, v, piece);
      }
    }
}

// y for rows [r0, r0 + rows) and `columns` columns from col, from their float32 sums acc [32, 32].
ATTNMT_TILES void store_rows(const float (&acc)[2 * kTileRows][2 * kPanel], const SplitCall& call, int64_t r0,
                             int64_t rows, int64_t col, int64_t columns) {
  for (int64_t q = 0; q * kPanel < columns; ++q) {
    const int64_t c0 = col + q * kPanel, valid = std::min(kPanel, columns - q * kPanel);
    const __mmask16 mask = static_cast<__mmask16>((1u << valid) - 1u);
    const __m512 b = call.bias ? _mm512_maskz_loadu_ps(mask, call.bias + c0) : _mm512_setzero_ps();
    for (int64_t r = 0; r < rows; ++r) {
      __m512 y = _mm512_add_ps(_mm512_load_ps(&acc[r][q * kPanel]), b);
      if (call.residual) y = _mm512_add_ps(y, _mm512_maskz_loadu_ps(mask, call.residual + (r0 + r) * call.n + c0));
      if (call.relu) y = _mm512_max_ps(y, _mm512_setzero_ps());
      _mm512_mask_storeu_ps(call.y + (r0 + r) * call.ldy + c0 - call.first, mask, y);
    }
  }
}

// Panel pairs [begin, end) of the call: for each 32 k, each piece j of the pair's weights (tmm6-7)
// meets the pieces i < pieces − j of the two row tiles of x (tmm4-5).
template <bool Model>
ATTNMT_TILES void split_pairs(const SplitCall& call, int64_t begin, int64_t end) {
  static const TileConfig config;
  ATTNMT_TILE(loadconfig, &config);
  const int64_t lda = call.kp * 2, piece_x = call.rows_padded * call.kp;
  const int64_t piece_w = call.kp / 2 * 2 * kPanel, panel_w = call.pieces * piece_w;
  alignas(64) float acc[2 * kTileRows][2 * kPanel];
  for (int64_t p = 2 * begin; p < std::min(2 * end, call.count); p += 2) {
    const uint16_t* b0 = call.tiles + p * panel_w;
    const uint16_t* b1 = p + 1 < call.count ? b0 + panel_w : b0;
    for (int64_t r = 0; r < call.rows; r += 2 * kTileRows) {
      const bool lower = r + kTileRows < call.rows;  // a second row tile
      ATTNMT_TILE(zero, 0);
      ATTNMT_TILE(zero, 1);
      ATTNMT_TILE(zero, 2);
      ATTNMT_TILE(zero, 3);
      for (int64_t g = 0; g < call.kp; g += kTileK) {
        for (int64_t j = 0; j < call.pieces; ++j) {
          ATTNMT_TILE(loadd, 6, b0 + j * piece_w + g * kPanel, 4 * kPanel);
          ATTNMT_TILE(loadd, 7, b1 + j * piece_w + g * kPanel, 4 * kPanel);
          for (int64_t i = 0; i + j < call.pieces; ++i) {
            const uint16_t* a = call.x + i * piece_x + r * call.kp + g;
            ATTNMT_TILE(loadd, 4, a, lda);
            ATTNMT_TILE(dpbf16ps, 0, 4, 6);
            ATTNMT_TILE(dpbf16ps, 1, 4, 7);
            if (lower) {
              ATTNMT_TILE(loadd, 5, a + kTileRows * call.kp, lda);
              ATTNMT_TILE(dpbf16ps, 2, 5, 6);
              ATTNMT_TILE(dpbf16ps, 3, 5, 7);
            }
          }
        }
      }
      constexpr int64_t ld = 2 * kPanel * sizeof(float);
      ATTNMT_TILE(stored, 0, &acc[0][0], ld);
      ATTNMT_TILE(stored, 1, &acc[0][kPanel], ld);
      if (lower) {
        ATTNMT_TILE(stored, 2, &acc[kTileRows][0], ld);
        ATTNMT_TILE(stored, 3, &acc[kTileRows][kPanel], ld);
      }
      asm volatile("" ::: "memory");  // the tile stores wrote acc (the intrinsics' asm does not say so)
      store_rows(acc, call, r, std::min(2 * kTileRows, call.rows - r), p * kPanel,
                 std::min(2 * kPanel, call.n - p * kPanel));
    }
  }
  if constexpr (Model) amx_tile_model::release();
  else _tile_release();
}

// Whether the CPU has AMX-TILE and AMX-BF16 and Linux lets this process use the tiles.
bool amx_bf16_usable() {
  static const bool usable = amx_tiles_usable(1u << 22 | 1u << 24);  // AMX-BF16, AMX-TILE
  return usable;
}
#endif

// x [rows, K] split as the kernel reads it, into `call` (its x), held in the tensor returned.
Tensor split_x(const Tensor& x, SplitCall& call) {
  call.rows_padded = (call.rows + kTileRows - 1) / kTileRows * kTileRows;
  Tensor pieces = at::empty({call.pieces, call.rows_padded, call.kp}, x.options().dtype(at::kBFloat16));
  if (call.rows_padded > call.rows) pieces.narrow(1, call.rows, call.rows_padded - call.rows).zero_();
  auto* out = reinterpret_cast<uint16_t*>(pieces.data_ptr<at::BFloat16>());
#if ATTNMT_TILES_BUILD
  at::parallel_for(0, call.rows, std::max<int64_t>(1, 16384 / call.kp), [&](int64_t begin, int64_t end) {
    split_rows(x.data_ptr<float>(), begin, end, x.size(1), call, out);
  });
#endif
  call.x = out;
  return pieces;
}

// The call's operands, checked; x split into `held`.
SplitCall checked_call(const Tensor& x, const Tensor& tiles, const std::optional<Tensor>& bias, int64_t n,
                       bool model, Tensor& held, const char* caller) {
  TORCH_CHECK(split_tiles_run(model), caller, ": ", model ? "the model of the tiles needs the AVX-512 panels"
                                                          : "this process cannot use AMX-BF16 tiles");
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat && x.is_contiguous(), caller,
              ": x must be a contiguous float [rows, K]");
  const int64_t k = x.size(1), kp = padded_k(k), count = (n + kPanel - 1) / kPanel;
  TORCH_CHECK(tiles.dim() == 5 && tiles.scalar_type() == at::kBFloat16 && tiles.is_contiguous() &&
                  tiles.size(0) == count && (tiles.size(1) == 2 || tiles.size(1) == 3) && tiles.size(2) == kp / 2 &&
                  tiles.size(3) == kPanel && tiles.size(4) == 2,
              caller, ": tiles must be pack_split_tiles' output for a W of ", n, " rows and ", k, " columns");
  TORCH_CHECK(!bias.has_value() || (bias->numel() == n && bias->scalar_type() == at::kFloat && bias->is_contiguous()),
              caller, ": the bias must be a contiguous float [", n, "]");
  SplitCall call{nullptr, reinterpret_cast<const uint16_t*>(tiles.data_ptr<at::BFloat16>()),
                 bias.has_value() ? bias->data_ptr<float>() : nullptr, nullptr, nullptr, x.size(0), 0, kp, n, count,
                 tiles.size(1), false, n, 0};
  held = split_x(x, call);
  return call;
}

void run_pairs(const SplitCall& call, bool model, int64_t begin, int64_t end) {
#if ATTNMT_TILES_BUILD
  (model ? split_pairs<true> : split_pairs<false>)(call, begin, end);
#endif
}

}  // namespace

bool split_tiles_run(bool model) {
#if ATTNMT_TILES_BUILD
  return avx512_panels() && (model || (amx_allowed_by_python() && amx_bf16_usable()));
#else
  return false;
#endif
}

Tensor pack_split_tiles(const Tensor& panels_in, int64_t pieces) {
  TORCH_CHECK(panels_in.dim() == 3 && panels_in.size(2) == kPanel && panels_in.scalar_type() == at::kFloat,
              "pack_split_tiles: panels must be pack_panels' float [ceil(N/16), K, 16]");
  TORCH_CHECK(pieces == 2 || pieces == 3, "pack_split_tiles: 2 or 3 pieces, not ", pieces);
  const Tensor panels = panels_in.contiguous();
  const int64_t count = panels.size(0), k = panels.size(1), kp = padded_k(k);
  Tensor tiles = at::zeros({count, pieces, kp / 2, kPanel, 2}, panels.options().dtype(at::kBFloat16));
  const float* src = panels.data_ptr<float>();
  auto* dst = reinterpret_cast<uint16_t*>(tiles.data_ptr<at::BFloat16>());
  const int64_t piece_w = kp * kPanel;  // bf16 per piece of a panel
  at::parallel_for(0, count, 16, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p)
      for (int64_t i = 0; i < k; ++i)
        for (int64_t c = 0; c < kPanel; ++c)
          split(src[(p * k + i) * kPanel + c], pieces,
                dst + p * pieces * piece_w + (i / 2 * kPanel + c) * 2 + i % 2, piece_w);
  });
  return tiles;
}

Tensor split_tile_linear(const Tensor& x, const Tensor& tiles, const std::optional<Tensor>& bias, int64_t n,
                         const std::optional<Tensor>& residual, bool relu, bool model) {
  return split_tile_linear_into(x, tiles, bias, n, residual, relu, model, at::empty({x.size(0), n}, x.options()));
}

Tensor split_tile_linear_into(const Tensor& x_in, const Tensor& tiles, const std::optional<Tensor>& bias, int64_t n,
                              const std::optional<Tensor>& residual_in, bool relu, bool model, Tensor y) {
  const Tensor x = x_in.contiguous();
  Tensor held;
  SplitCall call = checked_call(x, tiles, bias, n, model, held, "split_tile_linear");
  const int64_t rows = x.size(0);
  TORCH_CHECK(!residual_in.has_value() || (residual_in->size(0) == rows && residual_in->size(1) == n),
              "split_tile_linear: the residual must be [rows, N]");
  TORCH_CHECK(y.is_contiguous() && y.dim() == 2 && y.size(0) == rows && y.size(1) == n && y.scalar_type() == at::kFloat,
              "split_tile_linear: the output must be a contiguous float [", rows, ", ", n, "]");
  const Tensor residual = residual_in.has_value() ? residual_in->contiguous() : Tensor();
  call.residual = residual.defined() ? residual.data_ptr<float>() : nullptr;
  call.y = y.data_ptr<float>();
  call.relu = relu;
  const int64_t products = call.pieces == 2 ? 3 : 6;
  const int64_t work = std::max<int64_t>(1, call.rows_padded * call.kp * 2 * kPanel * products);
  at::parallel_for(0, (call.count + 1) / 2, std::max<int64_t>(1, (int64_t{1} << kGrainShift) / work),
                   [&](int64_t begin, int64_t end) { run_pairs(call, model, begin, end); });
  return y;
}

TopTokens split_tile_top_log_probs(const Tensor& x_in, const Tensor& tiles, const std::optional<Tensor>& bias,
                                   int64_t n, int64_t k, at::IntArrayRef banned, const std::optional<Tensor>& forced,
                                   bool model, at::IntArrayRef outside) {
  const Tensor x = x_in.contiguous();
  Tensor held;
  const SplitCall call = checked_call(x, tiles, bias, n, model, held, "split_tile_top_log_probs");
  return top_log_probs_of(x.size(0), n, (call.count + 1) / 2, [&](int64_t first, int64_t end, float* out, int64_t ld) {
    SplitCall block = call;
    block.y = out;
    block.ldy = ld;
    block.first = first * 2 * kPanel;
    run_pairs(block, model, first, end);
  }, k, banned, forced, outside);
}

}  // namespace attnmt

TORCH_LIBRARY_FRAGMENT(attnmt, m) {
  m.def("pack_split_tiles(Tensor panels, int pieces) -> Tensor", &attnmt::pack_split_tiles);
  m.def("split_tiles_run(bool model) -> bool", &attnmt::split_tiles_run);
  m.def("split_tile_linear(Tensor x, Tensor tiles, Tensor? bias, int n, Tensor? residual, bool relu, bool model) -> "
        "Tensor", &attnmt::split_tile_linear);
  m.def("split_tile_top_log_probs(Tensor x, Tensor tiles, Tensor? bias, int n, int k, int[] banned, Tensor? forced, "
        "bool model, int[] outside=[]) -> (Tensor, Tensor, Tensor, Tensor)", &attnmt::split_tile_top_log_probs);
}
