// int8 linear layers for the int8 inference copy (attnmt.fast.int8): the decoder step's matmuls
// (decoder_step.cpp) and every other int8 layer, the output projection included.
//
// torch.ao's dynamic int8 Linear calls fbgemm, whose per-call cost at a few dozen rows is several
// times the arithmetic (docs/design/fast-decoder.md).  Here
// the weights are packed once, as for the float32 panels:
//   - W [N, K] (torch.ao's per-column int8 values and scales) in panels of 16 columns × 4
//     consecutive k, one zmm register per group of 4 k: panels [ceil(N/16), ceil(K/4), 16, 4];
//   - x is quantised row by row at each call, symmetric, and the products summed exactly in
//     int32, by the widest kernel the CPU has:
//     - AMX tiles (tdpbusd) or AVX512-VNNI (vpdpbusd): q = round(x · 127 / max|x_row|), stored as
//       u8 (q + 128) because they multiply u8 by s8; 128 · Σ_k W[n, k] is taken off the sums;
//     - AVX2 (vpmaddubsw, u8 · s8 summed in pairs into s16, which saturates): 7 bits, q =
//       round(x · 63 / max|x_row|) stored as q + 64, so that a pair stays within s16 (2 · 127 · 128
//       < 32,768) and the sums are exact; 64 · Σ_k W[n, k] is taken off.  fbgemm, which this
//       replaces, quantises to 7 bits for the same reason (over the whole batch, not per row).
//       (8 bits with vpsignb, |W| · q with W's sign, is exact too but one instruction more per
//       product: 75 % of fbgemm's speed on a Zen 5 capped to AVX2, against 100-105 % so.)
//   - y = Σ_k q · W[n, k] · (max|x_row| / levels) · scale[n] + b[n], + residual, ReLU.
// Blocks of rows × panels in registers, the panel pairs split between threads.
#include "int8_panels.h"
#include "amx_tiles.h"
#include "row_blocks.h"
#include "top_tokens.h"

#include <ATen/Parallel.h>
#include <torch/library.h>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define ATTNMT_INT8_BUILD 1
#else
#define ATTNMT_INT8_BUILD 0
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace attnmt {

namespace {

constexpr int64_t kColumns = 16;  // per panel: one zmm register of int32 sums
constexpr int64_t kGroup = 4;     // k per vpdpbusd lane
constexpr int64_t kTileK = 64;    // k per AMX tile row (64 bytes): K is padded to a multiple
constexpr int64_t kTileRows = 16; // rows per AMX tile: x's u8 rows are padded to a multiple
constexpr int kAmxGrainShift = 24;
constexpr int kAvx2Levels = 63;  // the AVX2 kernel's q: 7 bits, |q| ≤ 63
constexpr int kAvx2Offset = 64;  // ... stored as u8 q + 64

// One call's operands: x [rows, 4·groups] as u8 with its row scales, y [rows, n] (row r, column c
// at y[r · ldy + c − first]: y itself, ldy = n and first = 0, or a block of its columns from `first`).
// w's per-column vectors are read here once: a data_ptr() per block of rows and panels was 2 % of an
// OPUS-shaped int8 job (its checks: has_storage, check_type).
struct Int8Call {
  Int8Call(const uint8_t* x, const float* row_scale, const Int8Panels& w, const float* residual, float* y,
           int64_t rows, bool relu)
      : x(x), row_scale(row_scale), w(w), residual(residual), y(y), rows(rows), groups(w.panels.size(1)),
        relu(relu), ldy(w.n), first(0), offsets(w.offsets.data_ptr<int32_t>()), scales(w.scales.data_ptr<float>()),
        bias(w.bias.data_ptr<float>()), panels(w.panels.data_ptr<int8_t>()) {}
  const uint8_t* x;
  const float* row_scale;
  const Int8Panels& w;
  const float* residual;
  float* y;
  int64_t rows, groups;
  bool relu;
  int64_t ldy, first;
  const int32_t* offsets;
  const float* scales;
  const float* bias;
  const int8_t* panels;
};

#if ATTNMT_INT8_BUILD
#define ATTNMT_VNNI __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni")))

// q [rows, 4·groups] = x [rows, k] as u8 rows (q + 128; K padded with q = 0), scale [rows] = max|x_row| / 127,
// for rows [begin, end).
ATTNMT_VNNI void quantize_rows(const float* x, int64_t begin, int64_t end, int64_t k, int64_t groups, uint8_t* q,
                               float* scale) {
  const int64_t width = groups * kGroup;
  const __m512i offset = _mm512_set1_epi32(128);
  for (int64_t r = begin; r < end; ++r) {
    const float* row = x + r * k;
    uint8_t* out = q + r * width;
    __m512 top = _mm512_setzero_ps();
    for (int64_t i = 0; i < k; i += 16) {
      const __mmask16 m = static_cast<__mmask16>(k - i >= 16 ? 0xffff : (1u << (k - i)) - 1u);
      top = _mm512_max_ps(top, _mm512_abs_ps(_mm512_maskz_loadu_ps(m, row + i)));
    }
    const float largest = _mm512_reduce_max_ps(top);
    scale[r] = largest / 127.f;
    const __m512 inv = _mm512_set1_ps(largest > 0.f ? 127.f / largest : 0.f);
    for (int64_t i = 0; i < k; i += 16) {
      const __mmask16 m = static_cast<__mmask16>(k - i >= 16 ? 0xffff : (1u << (k - i)) - 1u);
      const __m512i rounded = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_maskz_loadu_ps(m, row + i), inv));  // to nearest even
      _mm512_mask_cvtusepi32_storeu_epi8(out + i, m, _mm512_add_epi32(rounded, offset));
    }
    std::fill(out + k, out + width, uint8_t{128});
  }
}

// The int32 sums of A[Rows, 4·groups] (u8) · Count panels (`stride` bytes apart), into sums
// [Rows · Count, 16].  A function of its own, every loop unrolled whole and the broadcasts read
// from memory.  Written in one function with the epilogue, the 16 sums were copied between
// registers (and the stack) at every group by GCC 12: the output layer ran at 39 % of the
// vpdpbusd peak on an AMD EPYC (Zen 5), 69 % so (benchmarks/results/int8_kernel_epyc_avx512.txt).
// Keep the 8 × 2 block's loop to 16 vpdpbusd, 2 loads and 8 broadcasts in objdump when changing it.
template <int Rows, int Count>
ATTNMT_VNNI __attribute__((noinline)) void sums_vnni(const uint8_t* a, int64_t lda, const int8_t* panel,
                                                     int64_t stride, int64_t groups, int32_t* sums) {
  __m512i acc[Rows * Count];
#pragma GCC unroll 32
  for (int i = 0; i < Rows * Count; ++i) acc[i] = _mm512_setzero_si512();
  for (int64_t g = 0; g < groups; ++g, panel += kColumns * kGroup, a += kGroup) {
    __m512i wq[Count];
#pragma GCC unroll 4
    for (int q = 0; q < Count; ++q) wq[q] = _mm512_loadu_si512(panel + q * stride);
#pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r) {
      int32_t four;  // row r's 4 u8 of this group, in every lane
      std::memcpy(&four, a + r * lda, sizeof four);
      const __m512i x = _mm512_set1_epi32(four);
#pragma GCC unroll 4
      for (int q = 0; q < Count; ++q) acc[r * Count + q] = _mm512_dpbusd_epi32(acc[r * Count + q], x, wq[q]);
    }
  }
#pragma GCC unroll 32
  for (int i = 0; i < Rows * Count; ++i) _mm512_store_si512(sums + i * kColumns, acc[i]);
}

// y for rows [r0, r0 + rows) and `columns` columns from col, from their int32 sums acc (ld ints a row).
ATTNMT_VNNI void dequantize_rows(const int32_t* acc, int64_t ld, const Int8Call& call, int64_t r0, int64_t rows,
                                 int64_t col, int64_t columns) {
  const int64_t n = call.w.n;
  const int32_t* offsets = call.offsets;
  const float* scales = call.scales;
  const float* bias = call.bias;
  for (int64_t q = 0; q * kColumns < columns; ++q) {
    const int64_t c0 = col + q * kColumns, valid = std::min(kColumns, columns - q * kColumns);
    const __mmask16 mask = static_cast<__mmask16>((1u << valid) - 1u);
    const __m512i offset = _mm512_loadu_si512(offsets + c0);
    const __m512 scale = _mm512_loadu_ps(scales + c0);
    const __m512 b = _mm512_loadu_ps(bias + c0);
    for (int64_t r = r0; r < r0 + rows; ++r) {
      const __m512i sums = _mm512_loadu_si512(acc + (r - r0) * ld + q * kColumns);
      const __m512 f = _mm512_cvtepi32_ps(_mm512_sub_epi32(sums, offset));
      __m512 y = _mm512_fmadd_ps(f, _mm512_mul_ps(_mm512_set1_ps(call.row_scale[r]), scale), b);
      if (call.residual) y = _mm512_add_ps(y, _mm512_maskz_loadu_ps(mask, call.residual + r * n + c0));
      if (call.relu) y = _mm512_max_ps(y, _mm512_setzero_ps());
      _mm512_mask_storeu_ps(call.y + r * call.ldy + c0 - call.first, mask, y);
    }
  }
}

// Panel pairs [begin, end) of the call: 8 rows × 2 panels at a time, the rows left in one block.
void pairs_vnni(const Int8Call& call, int64_t begin, int64_t end) {
  const Int8Panels& w = call.w;
  const int64_t count = w.panels.size(0), n = w.n, lda = call.groups * kGroup;
  const int64_t stride = call.groups * kColumns * kGroup;
  const int8_t* panels = call.panels;
  for (int64_t p = 2 * begin; p < std::min(2 * end, count); p += 2) {
    const int64_t col = p * kColumns, columns = std::min(2 * kColumns, n - col);
    const bool two = p + 1 < count;
    row_blocks<8>(call.rows, [&](auto size, int64_t r) {
      constexpr int kRows = decltype(size)::value;
      alignas(64) int32_t sums[kRows * 2 * kColumns];  // [kRows, 16 · panels]
      (two ? sums_vnni<kRows, 2> : sums_vnni<kRows, 1>)(call.x + r * lda, lda, panels + p * stride, stride,
                                                        call.groups, sums);
      dequantize_rows(sums, (two ? 2 : 1) * kColumns, call, r, kRows, col, columns);
    });
  }
}

// The AVX2 kernel (CPUs without AVX512-VNNI, or ATEN_CPU_CAPABILITY below AVX512).

// q [rows, 4·groups] = x [rows, k] quantised to 7 bits, q = round(x · 63 / max|x_row|), as u8 rows (q + 64; K
// padded with q = 0), scale [rows] = max|x_row| / 63, for rows [begin, end).
void quantize_rows_avx2(const float* x, int64_t begin, int64_t end, int64_t k, int64_t groups, uint8_t* q,
                        float* scale) {
  const int64_t width = groups * kGroup, whole = k / 32 * 32;
  const __m256 sign = _mm256_set1_ps(-0.f);
  const __m256i offset = _mm256_set1_epi32(kAvx2Offset);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);  // packs' lanes back in order
  for (int64_t r = begin; r < end; ++r) {
    const float* row = x + r * k;
    uint8_t* out = q + r * width;
    __m256 top = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= k; i += 8) top = _mm256_max_ps(top, _mm256_andnot_ps(sign, _mm256_loadu_ps(row + i)));
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, top);
    float largest = *std::max_element(lanes, lanes + 8);
    for (; i < k; ++i) largest = std::max(largest, std::fabs(row[i]));
    scale[r] = largest / float(kAvx2Levels);
    const float inverse = largest > 0.f ? float(kAvx2Levels) / largest : 0.f;
    const __m256 inv = _mm256_set1_ps(inverse);
    for (i = 0; i < whole; i += 32) {
      __m256i v[4];
      for (int j = 0; j < 4; ++j)
        v[j] = _mm256_add_epi32(_mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(row + i + 8 * j), inv)), offset);
      const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(v[0], v[1]), _mm256_packs_epi32(v[2], v[3]));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_permutevar8x32_epi32(bytes, order));
    }
    for (; i < k; ++i) out[i] = static_cast<uint8_t>(std::nearbyint(row[i] * inverse) + kAvx2Offset);  // as cvtps
    std::fill(out + k, out + width, uint8_t{kAvx2Offset});
  }
}

// The int32 sums of A[Rows, 4·groups] (u8) · one panel, into sums [Rows, 16]: per group and row,
// vpmaddubsw adds the products u8 · s8 in pairs into s16 (exactly: at most 2 · 127 · 128 < 32,768),
// vpmaddwd the pairs into int32.  Rows ≤ 4 keeps the 8 sums and what each group needs within 16 ymm
// registers.
template <int Rows>
__attribute__((noinline)) void sums_avx2(const uint8_t* a, int64_t lda, const int8_t* panel, int64_t groups,
                                         int32_t* sums) {
  __m256i acc[2 * Rows];
#pragma GCC unroll 8
  for (int i = 0; i < 2 * Rows; ++i) acc[i] = _mm256_setzero_si256();
  const __m256i ones = _mm256_set1_epi16(1);
  for (int64_t g = 0; g < groups; ++g, panel += kColumns * kGroup, a += kGroup) {
    const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(panel));  // columns 0-7
    const __m256i w1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(panel + 32));  // columns 8-15
#pragma GCC unroll 4
    for (int r = 0; r < Rows; ++r) {
      int32_t four;  // row r's 4 u8 of this group, in every lane
      std::memcpy(&four, a + r * lda, sizeof four);
      const __m256i x = _mm256_set1_epi32(four);
      acc[2 * r] = _mm256_add_epi32(acc[2 * r], _mm256_madd_epi16(_mm256_maddubs_epi16(x, w0), ones));
      acc[2 * r + 1] = _mm256_add_epi32(acc[2 * r + 1], _mm256_madd_epi16(_mm256_maddubs_epi16(x, w1), ones));
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < 2 * Rows; ++i) _mm256_store_si256(reinterpret_cast<__m256i*>(sums + i * 8), acc[i]);
}

// dequantize_rows's arithmetic in ymm registers, the + 64's offset (half the + 128's) taken off.
void dequantize_rows_avx2(const int32_t* acc, int64_t ld, const Int8Call& call, int64_t r0, int64_t rows,
                          int64_t col, int64_t columns) {
  const int64_t n = call.w.n;
  const int32_t* offsets = call.offsets;
  const float* scales = call.scales;
  const float* bias = call.bias;
  for (int64_t h = 0; h * 8 < columns; ++h) {
    const int64_t c0 = col + h * 8, valid = std::min<int64_t>(8, columns - h * 8);
    const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(valid)),
                                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i offset = _mm256_srai_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(offsets + c0)), 1);
    const __m256 scale = _mm256_loadu_ps(scales + c0);
    const __m256 b = _mm256_loadu_ps(bias + c0);
    for (int64_t r = r0; r < r0 + rows; ++r) {
      const __m256i sums = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + (r - r0) * ld + h * 8));
      const __m256 f = _mm256_cvtepi32_ps(_mm256_sub_epi32(sums, offset));
      __m256 y = _mm256_fmadd_ps(f, _mm256_mul_ps(_mm256_set1_ps(call.row_scale[r]), scale), b);
      const float* residual = call.residual ? call.residual + r * n + c0 : nullptr;
      float* out = call.y + r * call.ldy + c0 - call.first;
      // Masked only at the last panel's edge: AMD's Zen 2 and 3 run vmaskmovps as microcode, and its store here
      // made this function a fifth of the kernel's time (perf on a Zen 3, the OPUS-shaped int8 job).
      if (valid == 8) {
        if (residual) y = _mm256_add_ps(y, _mm256_loadu_ps(residual));
        if (call.relu) y = _mm256_max_ps(y, _mm256_setzero_ps());
        _mm256_storeu_ps(out, y);
      } else {
        if (residual) y = _mm256_add_ps(y, _mm256_maskload_ps(residual, mask));
        if (call.relu) y = _mm256_max_ps(y, _mm256_setzero_ps());
        _mm256_maskstore_ps(out, mask, y);
      }
    }
  }
}

// Panel pairs [begin, end) of the call, a panel at a time: 4 rows, then the 1-3 left in one block
// (each block reads all of the panel).
void pairs_avx2(const Int8Call& call, int64_t begin, int64_t end) {
  const Int8Panels& w = call.w;
  const int64_t count = w.panels.size(0), lda = call.groups * kGroup, stride = call.groups * kColumns * kGroup;
  const int8_t* panels = call.panels;
  const uint8_t* x = call.x;
  for (int64_t p = 2 * begin; p < std::min(2 * end, count); ++p) {
    const int64_t col = p * kColumns, columns = std::min(kColumns, w.n - col);
    alignas(32) int32_t sums[4 * kColumns];
    row_blocks<4>(call.rows, [&](auto size, int64_t r) {
      constexpr int kRows = decltype(size)::value;
      sums_avx2<kRows>(x + r * lda, lda, panels + p * stride, call.groups, sums);
      dequantize_rows_avx2(sums, kColumns, call, r, kRows, col, columns);
    });
  }
}

#define ATTNMT_AMX __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni,amx-tile,amx-int8")))

// Panel pairs [begin, end) of the call on AMX: 32 rows × 2 panels at a time (x's rows padded to
// whole tiles of 16; the padding's sums are not stored), each tdpbusd 16 × 16 × 64: tmm0-3 the int32
// sums of 2 row tiles × 2 panels, tmm4-5 the u8 rows, tmm6-7 the panels (16 groups of 4 k each).
// Model: the same on amx_tile_model (kernel "amx_model"), which needs AVX512-VNNI only.
template <bool Model>
ATTNMT_AMX void pairs_amx(const Int8Call& call, int64_t begin, int64_t end) {
  static const TileConfig config;
  ATTNMT_TILE(loadconfig, &config);
  const Int8Panels& w = call.w;
  const int64_t count = w.panels.size(0), lda = call.groups * kGroup, stride = call.groups * kColumns * kGroup;
  const int8_t* panels = call.panels;
  alignas(64) int32_t acc[2 * kTileRows][2 * kColumns];
  for (int64_t p = 2 * begin; p < std::min(2 * end, count); p += 2) {
    const bool two = p + 1 < count;
    const int8_t* b0 = panels + p * stride;
    const int8_t* b1 = two ? b0 + stride : b0;
    for (int64_t r = 0; r < call.rows; r += 2 * kTileRows) {
      const bool lower = r + kTileRows < call.rows;  // a second row tile
      const uint8_t* a0 = call.x + r * lda;
      const uint8_t* a1 = a0 + kTileRows * lda;
      ATTNMT_TILE(zero, 0);
      ATTNMT_TILE(zero, 1);
      ATTNMT_TILE(zero, 2);
      ATTNMT_TILE(zero, 3);
      for (int64_t g = 0; g < call.groups; g += kTileK / kGroup) {
        ATTNMT_TILE(loadd, 4, a0 + g * kGroup, lda);
        ATTNMT_TILE(loadd, 6, b0 + g * kColumns * kGroup, kColumns * kGroup);
        ATTNMT_TILE(loadd, 7, b1 + g * kColumns * kGroup, kColumns * kGroup);
        ATTNMT_TILE(dpbusd, 0, 4, 6);
        ATTNMT_TILE(dpbusd, 1, 4, 7);
        if (lower) {
          ATTNMT_TILE(loadd, 5, a1 + g * kGroup, lda);
          ATTNMT_TILE(dpbusd, 2, 5, 6);
          ATTNMT_TILE(dpbusd, 3, 5, 7);
        }
      }
      constexpr int64_t ld = 2 * kColumns * sizeof(int32_t);
      ATTNMT_TILE(stored, 0, &acc[0][0], ld);
      ATTNMT_TILE(stored, 1, &acc[0][kColumns], ld);
      ATTNMT_TILE(stored, 2, &acc[kTileRows][0], ld);
      ATTNMT_TILE(stored, 3, &acc[kTileRows][kColumns], ld);
      asm volatile("" ::: "memory");  // the tile stores wrote acc (the intrinsics' asm does not say so)
      const int64_t rows = std::min(2 * kTileRows, call.rows - r);
      dequantize_rows(&acc[0][0], 2 * kColumns, call, r, rows, p * kColumns, std::min(2 * kColumns, w.n - p * kColumns));
    }
  }
  if constexpr (Model) amx_tile_model::release();
  else _tile_release();
}
#endif

// W int8 [N, K] (torch.ao's int_repr, zero points 0), scales [N], bias [N] or None -> the packed layer.
c10::intrusive_ptr<Int8Panels> pack_int8_panels(const at::Tensor& w_in, const at::Tensor& scales,
                                                const std::optional<at::Tensor>& bias) {
  TORCH_CHECK(w_in.dim() == 2 && w_in.scalar_type() == at::kChar, "pack_int8_panels: W must be int8 [N, K]");
  TORCH_CHECK(scales.numel() == w_in.size(0), "pack_int8_panels: one scale per row of W");
  const at::Tensor w = w_in.contiguous();
  const int64_t n = w.size(0), k = w.size(1), count = (n + kColumns - 1) / kColumns;
  const int64_t groups = (k + kTileK - 1) / kTileK * (kTileK / kGroup), padded = count * kColumns;
  auto packed = c10::make_intrusive<Int8Panels>();
  packed->n = n;
  packed->k = k;
  packed->panels = at::zeros({count, groups, kColumns, kGroup}, w.options());
  packed->offsets = at::zeros({padded}, w.options().dtype(at::kInt));
  packed->scales = at::zeros({padded}, w.options().dtype(at::kFloat));
  packed->bias = at::zeros({padded}, w.options().dtype(at::kFloat));
  packed->scales.narrow(0, 0, n).copy_(scales.reshape({n}));
  if (bias.has_value()) packed->bias.narrow(0, 0, n).copy_(bias->reshape({n}));
  const int8_t* src = w.data_ptr<int8_t>();
  int8_t* dst = packed->panels.data_ptr<int8_t>();
  int32_t* offsets = packed->offsets.data_ptr<int32_t>();
  for (int64_t row = 0; row < n; ++row)
    for (int64_t i = 0; i < k; ++i) {
      const int64_t p = row / kColumns, column = row % kColumns, g = i / kGroup;
      dst[((p * groups + g) * kColumns + column) * kGroup + i % kGroup] = src[row * k + i];
      offsets[row] += 128 * src[row * k + i];
    }
  return packed;
}

// The layer again from what ``tensors`` gave (attnmt.fast.prepared reads them from a file): the
// tensors are used as they are, not copied, so memory-mapped ones stay mapped.
c10::intrusive_ptr<Int8Panels> int8_panels_from(const at::Tensor& panels, const at::Tensor& offsets,
                                                const at::Tensor& scales, const at::Tensor& bias, int64_t n,
                                                int64_t k) {
  const int64_t count = (n + kColumns - 1) / kColumns, padded = count * kColumns;
  const int64_t groups = (k + kTileK - 1) / kTileK * (kTileK / kGroup);
  TORCH_CHECK(panels.scalar_type() == at::kChar && panels.is_contiguous() &&
                  panels.sizes() == at::IntArrayRef({count, groups, kColumns, kGroup}),
              "int8_panels_from: panels must be contiguous int8 [", count, ", ", groups, ", 16, 4] for ", n, "x", k);
  TORCH_CHECK(offsets.scalar_type() == at::kInt && offsets.is_contiguous() && offsets.numel() == padded,
              "int8_panels_from: offsets must be contiguous int32 [", padded, "]");
  for (const at::Tensor* t : {&scales, &bias})
    TORCH_CHECK(t->scalar_type() == at::kFloat && t->is_contiguous() && t->numel() == padded,
                "int8_panels_from: scales and bias must be contiguous float32 [", padded, "]");
  auto packed = c10::make_intrusive<Int8Panels>();
  packed->n = n;
  packed->k = k;
  packed->panels = panels;
  packed->offsets = offsets;
  packed->scales = scales;
  packed->bias = bias;
  return packed;
}

// The layer of W's rows ``ids`` (in that order): the output layer restricted to a vocabulary
// shortlist (attnmt.fast.shortlist).  Copies each chosen column's 4-byte groups from panel to panel.
c10::intrusive_ptr<Int8Panels> int8_panels_select(const Int8Panels& w, const at::Tensor& ids_in) {
  const at::Tensor ids = ids_in.to(at::kLong).contiguous();
  const int64_t n = ids.numel(), count = (n + kColumns - 1) / kColumns, padded = count * kColumns;
  const int64_t groups = w.panels.size(1);
  const int64_t* index = ids.data_ptr<int64_t>();
  for (int64_t j = 0; j < n; ++j)
    TORCH_CHECK(index[j] >= 0 && index[j] < w.n, "int8_panels_select: row ", index[j], " is not in 0..", w.n - 1);
  auto out = c10::make_intrusive<Int8Panels>();
  out->n = n;
  out->k = w.k;
  out->kernel = w.kernel;
  out->panels = at::zeros({count, groups, kColumns, kGroup}, w.panels.options());
  out->offsets = at::zeros({padded}, w.offsets.options());
  out->scales = at::zeros({padded}, w.scales.options());
  out->bias = at::zeros({padded}, w.bias.options());
  out->offsets.narrow(0, 0, n).copy_(w.offsets.index_select(0, ids));
  out->scales.narrow(0, 0, n).copy_(w.scales.index_select(0, ids));
  out->bias.narrow(0, 0, n).copy_(w.bias.index_select(0, ids));
  const int32_t* src = reinterpret_cast<const int32_t*>(w.panels.data_ptr<int8_t>());
  int32_t* dst = reinterpret_cast<int32_t*>(out->panels.data_ptr<int8_t>());
  at::parallel_for(0, n, 64, [&](int64_t begin, int64_t end) {
    for (int64_t j = begin; j < end; ++j) {
      const int64_t from = index[j], p = from / kColumns, column = from % kColumns;
      const int64_t q = j / kColumns, slot = j % kColumns;
      for (int64_t g = 0; g < groups; ++g)
        dst[(q * groups + g) * kColumns + slot] = src[(p * groups + g) * kColumns + column];
    }
  });
  return out;
}

}  // namespace

namespace {

// Whether the CPU has AMX-INT8 and Linux lets this process use the tiles (a request once per process).
bool amx_usable() {
#if ATTNMT_INT8_BUILD
  return amx_tiles_usable(1u << 24 | 1u << 25);  // AMX-TILE, AMX-INT8
#else
  return false;
#endif
}

// Whether the kernel may use AMX: -1 until Python says (allow_amx), which it decides from
// ONEDNN_MAX_CPU_ISA (attnmt.hardware.amx_allowed), so that oneDNN and this kernel obey one reading.
std::atomic<int> amx_allowed{-1};

}  // namespace

void allow_amx(bool allowed) {
  int told = -1;
  if (amx_allowed.compare_exchange_strong(told, allowed ? 1 : 0)) return;
  TORCH_CHECK(told == (allowed ? 1 : 0), "allow_amx: the int8 kernel was already told AMX is ",
              told ? "allowed" : "not allowed", "; ONEDNN_MAX_CPU_ISA changed while the process ran?");
}

bool amx_allowed_by_python() {
  const int allowed = amx_allowed.load();
  TORCH_CHECK(allowed != -1, "AMX: call allow_amx first (attnmt.fast.int8.int8_kernel does, from ONEDNN_MAX_CPU_ISA)");
  return allowed == 1;
}

std::vector<std::string> int8_kernels() {
  const int allowed = amx_allowed.load();
  TORCH_CHECK(allowed != -1, "int8_kernel: call allow_amx first (attnmt.fast.int8.int8_kernel does, from "
              "ONEDNN_MAX_CPU_ISA)");
  static const std::vector<std::string> kernels = [allowed] {
    std::vector<std::string> usable;
#if ATTNMT_INT8_BUILD
    const bool vnni = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("avx512vnni") && at::get_cpu_capability() == "AVX512";
    if (vnni && allowed == 1 && amx_usable()) usable.push_back("amx");
    if (vnni) usable.push_back("vnni");
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) usable.push_back("avx2");
#endif
    return usable;
  }();
  return kernels;
}

std::string int8_kernel() {
  const std::vector<std::string> kernels = int8_kernels();
  return kernels.empty() ? "none" : kernels.front();
}

namespace {

// Int8Panels::kernel holds these.  kAmxModel: the AMX kernel on amx_tile_model, for tests (not in
// int8_kernels(): it is never measured nor chosen; use_kernel takes it where "vnni" runs).
enum class Kernel : int { kAvx2 = 0, kVnni = 1, kAmx = 2, kAmxModel = 3 };
constexpr const char* kKernelNames[] = {"avx2", "vnni", "amx", "amx_model"};

[[maybe_unused]] bool on_tiles(Kernel kernel) { return kernel == Kernel::kAmx || kernel == Kernel::kAmxModel; }

// The Kernel named `name` ("avx2", "vnni", "amx", "amx_model"), or -1.
int kernel_index(const std::string& name) {
  for (int i = 0; i < 4; ++i)
    if (name == kKernelNames[i]) return i;
  return -1;
}

// The kernel w is multiplied with (its own, or this process's widest), where x is float [rows, K] for w
// and the CPU has an int8 kernel at all (`caller` names the operation in the error).
Kernel checked_kernel(const at::Tensor& x, const Int8Panels& w, const char* caller) {
  static const int widest = kernel_index(int8_kernel());
  TORCH_CHECK(widest != -1, caller, ": this CPU has no AVX2, or the extension was built without it");
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat && x.size(1) == w.k, caller, ": x must be float [rows, ",
              w.k, "]");
  return static_cast<Kernel>(w.kernel >= 0 ? w.kernel : widest);
}

}  // namespace

void use_int8_kernel(Int8Panels& w, const std::string& kernel) {
  const std::vector<std::string> usable = int8_kernels();
  std::string names;
  for (const std::string& name : usable) names += (names.empty() ? "" : ", ") + name;
  const bool runs = std::find(usable.begin(), usable.end(), kernel == "amx_model" ? "vnni" : kernel) != usable.end();
  TORCH_CHECK(runs, "use_kernel: the int8 kernel '", kernel, "' does not run in this process (",
              names.empty() ? "none does" : names, kernel == "amx_model" ? "; amx_model needs vnni" : "", ")");
  w.kernel = kernel_index(kernel);
}

std::string int8_kernel_of(const Int8Panels& w) { return w.kernel >= 0 ? kKernelNames[w.kernel] : int8_kernel(); }

namespace {

#if ATTNMT_INT8_BUILD
// Panel pairs [begin, end) of the call, on AMX tiles (or their model), AVX512-VNNI or AVX2.
void run_pairs(const Int8Call& call, Kernel kernel, int64_t begin, int64_t end) {
  if (kernel == Kernel::kAmx) pairs_amx<false>(call, begin, end);
  else if (kernel == Kernel::kAmxModel) pairs_amx<true>(call, begin, end);
  else if (kernel == Kernel::kVnni) pairs_vnni(call, begin, end);
  else pairs_avx2(call, begin, end);
}

// x [rows, K] quantised row by row as the kernel reads it: q [rows (AMX: padded to whole tiles), 4·groups]
// (u8: q + 128; AVX2: q + 64) and the rows' scales [rows].
std::pair<at::Tensor, at::Tensor> quantized_rows(const at::Tensor& x, const Int8Panels& w, Kernel kernel) {
  const int64_t rows = x.size(0), groups = w.panels.size(1);
  const int64_t padded = on_tiles(kernel) ? (rows + kTileRows - 1) / kTileRows * kTileRows : rows;
  at::Tensor q = at::empty({padded, groups * kGroup}, x.options().dtype(at::kByte));
  at::Tensor row_scale = at::empty({rows}, x.options());
  at::parallel_for(0, rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, w.k)), [&](int64_t begin, int64_t end) {
    if (kernel == Kernel::kAvx2)
      quantize_rows_avx2(x.data_ptr<float>(), begin, end, w.k, groups, q.data_ptr<uint8_t>(), row_scale.data_ptr<float>());
    else
      quantize_rows(x.data_ptr<float>(), begin, end, w.k, groups, q.data_ptr<uint8_t>(), row_scale.data_ptr<float>());
  });
  if (padded > rows) q.narrow(0, rows, padded - rows).fill_(128);
  return {q, row_scale};
}
#endif

}  // namespace

at::Tensor int8_linear(const at::Tensor& x_in, const Int8Panels& w, const std::optional<at::Tensor>& residual_in,
                       bool relu) {
  return int8_linear_into(x_in, w, residual_in, relu, at::empty({x_in.size(0), w.n}, x_in.options()));
}

at::Tensor int8_linear_into(const at::Tensor& x_in, const Int8Panels& w, const std::optional<at::Tensor>& residual_in,
                            bool relu, at::Tensor y) {
  const Kernel kernel = checked_kernel(x_in, w, "int8_linear");
  const at::Tensor x = x_in.contiguous();
  const int64_t rows = x.size(0);
  TORCH_CHECK(!residual_in.has_value() || (residual_in->size(0) == rows && residual_in->size(1) == w.n),
              "int8_linear: the residual must be [rows, N]");
  TORCH_CHECK(y.is_contiguous() && y.dim() == 2 && y.size(0) == rows && y.size(1) == w.n &&
                  y.scalar_type() == at::kFloat, "int8_linear: the output must be a contiguous float [", rows, ", ", w.n, "]");
#if ATTNMT_INT8_BUILD
  const std::pair<at::Tensor, at::Tensor> quantized = quantized_rows(x, w, kernel);
  const at::Tensor& q = quantized.first;
  const at::Tensor& row_scale = quantized.second;
  const at::Tensor residual = residual_in.has_value() ? residual_in->contiguous() : at::Tensor();
  const Int8Call call(q.data_ptr<uint8_t>(), row_scale.data_ptr<float>(), w,
                      residual.defined() ? residual.data_ptr<float>() : nullptr, y.data_ptr<float>(), rows, relu);
  const int64_t pairs = (w.panels.size(0) + 1) / 2;
  // A pair of panels is about rows · K · 32 multiply-adds, 64 per vpdpbusd and 16,384 per tdpbusd:
  // each thread gets at least ~16k vpdpbusd's worth (AMX: 64× as much), so that small products do not
  // pay OpenMP's fork for nothing.
  const int64_t work = std::max<int64_t>(1, rows * w.k * 32);
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << (on_tiles(kernel) ? kAmxGrainShift : 20)) / work);
  at::parallel_for(0, pairs, grain, [&](int64_t begin, int64_t end) {
    run_pairs(call, kernel, begin, end);
  });
#endif
  return y;
}

TopTokens int8_top_log_probs(const at::Tensor& x_in, const Int8Panels& w, int64_t k, at::IntArrayRef banned,
                             const std::optional<at::Tensor>& forced, at::IntArrayRef outside) {
  const Kernel kernel = checked_kernel(x_in, w, "int8_top_log_probs");
#if ATTNMT_INT8_BUILD
  const at::Tensor x = x_in.contiguous();
  const std::pair<at::Tensor, at::Tensor> quantized = quantized_rows(x, w, kernel);
  const at::Tensor& q = quantized.first;
  const at::Tensor& row_scale = quantized.second;
  const Int8Call call(q.data_ptr<uint8_t>(), row_scale.data_ptr<float>(), w, nullptr, nullptr, x.size(0), false);
  return top_log_probs_of(x.size(0), w.n, (w.panels.size(0) + 1) / 2,
                          [&](int64_t first, int64_t end, float* out, int64_t ld) {
                            Int8Call block = call;
                            block.y = out;
                            block.ldy = ld;
                            block.first = first * 2 * kColumns;
                            run_pairs(block, kernel, first, end);
                          }, k, banned, forced, outside);
#else
  TORCH_CHECK(false, "int8_top_log_probs: built without AVX2");
#endif
}

}  // namespace attnmt

// Python multiplies with a layer's panels by calling their method, `panels.linear(x, residual,
// relu)`: an operator taking the object as an argument costs more per call than the kernel at a few
// rows (PyTorch's conversion of a custom-class argument tries other types first, and throws).
TORCH_LIBRARY_FRAGMENT(attnmt, m) {
  m.class_<attnmt::Int8Panels>("Int8Panels")
      .def("linear", [](const c10::intrusive_ptr<attnmt::Int8Panels>& self, const at::Tensor& x,
                        const std::optional<at::Tensor>& residual, bool relu) {
        return attnmt::int8_linear(x, *self, residual, relu);
      })
      .def("top_log_probs", [](const c10::intrusive_ptr<attnmt::Int8Panels>& self, const at::Tensor& x, int64_t k,
                               std::vector<int64_t> banned, const std::optional<at::Tensor>& forced) {
        return attnmt::int8_top_log_probs(x, *self, k, banned, forced);
      })
      // What int8_panels_from takes back: [panels, offsets, scales, bias], and [n, k].
      .def("tensors", [](const c10::intrusive_ptr<attnmt::Int8Panels>& self) {
        return std::vector<at::Tensor>{self->panels, self->offsets, self->scales, self->bias};
      })
      .def("shape", [](const c10::intrusive_ptr<attnmt::Int8Panels>& self) {
        return std::vector<int64_t>{self->n, self->k};
      })
      .def("select", [](const c10::intrusive_ptr<attnmt::Int8Panels>& self, const at::Tensor& ids) {
        return attnmt::int8_panels_select(*self, ids);
      })
      // The kernel these panels are multiplied with: one of int8_kernels() (attnmt.fast.kernels measures them).
      .def("use_kernel", [](const c10::intrusive_ptr<attnmt::Int8Panels>& self, const std::string& kernel) {
        attnmt::use_int8_kernel(*self, kernel);
      })
      .def("kernel", [](const c10::intrusive_ptr<attnmt::Int8Panels>& self) { return attnmt::int8_kernel_of(*self); });
  m.def("pack_int8_panels", &attnmt::pack_int8_panels);
  m.def("int8_panels_from", &attnmt::int8_panels_from);
  m.def("int8_kernel() -> str", &attnmt::int8_kernel);
  m.def("int8_kernels() -> str[]", &attnmt::int8_kernels);
  m.def("allow_amx(bool allowed) -> ()", &attnmt::allow_amx);
}
