// int8 linear layers on AVX512-VNNI, for the int8 inference copy (attnmt.fast.int8): the
// decoder step's matmuls (decoder_step.cpp) and every other int8 layer, the output projection
// included.
//
// torch.ao's dynamic int8 Linear calls fbgemm, whose per-call cost (about 40 µs for 32 rows of a
// 256-wide layer on a 2-core Xeon, docs/performance.md) is several times the arithmetic.  Here
// the weights are packed once, as for the float32 panels:
//   - W [N, K] (torch.ao's per-column int8 values and scales) in panels of 16 columns × 4
//     consecutive k, one zmm register per group of 4 k: panels [ceil(N/16), ceil(K/4), 16, 4];
//   - x is quantised row by row at each call, symmetric: q = round(x · 127 / max|x_row|),
//     stored as u8 (q + 128) because vpdpbusd multiplies u8 by s8;
//   - vpdpbusd sums 4 products u8 · s8 into each int32 lane, exactly (at most 255 · 128 · K);
//   - y = (acc − 128 · Σ_k W[n, k]) · (max|x_row| / 127) · scale[n] + b[n], + residual, ReLU.
// Blocks of 8 rows × 2 panels (16 int32 accumulators), the panel pairs split between threads.
#include "int8_panels.h"

#include <ATen/Parallel.h>
#include <torch/library.h>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define ATTNMT_VNNI_BUILD 1
#else
#define ATTNMT_VNNI_BUILD 0
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>

namespace attnmt {

namespace {

constexpr int64_t kColumns = 16;  // per panel: one zmm register of int32 sums
constexpr int64_t kGroup = 4;     // k per vpdpbusd lane

// One call's operands: x [rows, 4·groups] as u8 with its row scales, y [rows, n].
struct Int8Call {
  const uint8_t* x;
  const float* row_scale;
  const Int8Panels& w;
  const float* residual;
  float* y;
  int64_t rows, groups;
  bool relu;
};

#if ATTNMT_VNNI_BUILD
#define ATTNMT_VNNI __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni")))

// q [rows, 4·groups] = x [rows, k] as u8 rows (q + 128; K padded with q = 0), scale [rows] = max|x_row| / 127.
ATTNMT_VNNI void quantize_rows(const float* x, int64_t rows, int64_t k, int64_t groups, uint8_t* q, float* scale) {
  const int64_t width = groups * kGroup;
  const __m512i offset = _mm512_set1_epi32(128);
  for (int64_t r = 0; r < rows; ++r) {
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

// C[rows, 16·Count] = A[rows, 4·groups] (u8) · (Count panels, `stride` bytes apart), dequantised
// (+ residual) (ReLU); `columns` of the 16·Count stored; col: the first panel's first column.
template <int Rows, int Count>
ATTNMT_VNNI inline void block_vnni(const uint8_t* a, int64_t lda, const float* row_scale, const int8_t* panel,
                                   int64_t stride, int64_t groups, const Int8Panels& w, int64_t col,
                                   const float* residual, int64_t ldr, bool relu, float* c, int64_t ldc,
                                   int64_t columns) {
  __m512i acc[Rows][Count];
  for (int r = 0; r < Rows; ++r)
    for (int q = 0; q < Count; ++q) acc[r][q] = _mm512_setzero_si512();
  for (int64_t g = 0; g < groups; ++g) {
    __m512i wq[Count];
    for (int q = 0; q < Count; ++q) wq[q] = _mm512_loadu_si512(panel + q * stride + g * kColumns * kGroup);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      int32_t four;  // row r's 4 u8 of this group, in every lane
      std::memcpy(&four, a + r * lda + g * kGroup, sizeof four);
      const __m512i x = _mm512_set1_epi32(four);
      for (int q = 0; q < Count; ++q) acc[r][q] = _mm512_dpbusd_epi32(acc[r][q], x, wq[q]);
    }
  }
  const int32_t* offsets = w.offsets.data_ptr<int32_t>() + col;
  const float* scales = w.scales.data_ptr<float>() + col;
  const float* bias = w.bias.data_ptr<float>() + col;
  for (int q = 0; q < Count; ++q) {
    const int64_t valid = std::clamp<int64_t>(columns - q * kColumns, 0, kColumns);
    const __mmask16 mask = static_cast<__mmask16>((1u << valid) - 1u);
    const __m512i offset = _mm512_loadu_si512(offsets + q * kColumns);
    const __m512 scale = _mm512_loadu_ps(scales + q * kColumns);
    const __m512 b = _mm512_loadu_ps(bias + q * kColumns);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m512 sums = _mm512_cvtepi32_ps(_mm512_sub_epi32(acc[r][q], offset));
      __m512 y = _mm512_fmadd_ps(sums, _mm512_mul_ps(_mm512_set1_ps(row_scale[r]), scale), b);
      if (residual) y = _mm512_add_ps(y, _mm512_maskz_loadu_ps(mask, residual + r * ldr + q * kColumns));
      if (relu) y = _mm512_max_ps(y, _mm512_setzero_ps());
      _mm512_mask_storeu_ps(c + r * ldc + q * kColumns, mask, y);
    }
  }
}

// Panel pairs [begin, end) of the call: 8 rows × 2 panels at a time, the tails by smaller blocks.
void pairs_vnni(const Int8Call& call, int64_t begin, int64_t end) {
  const Int8Panels& w = call.w;
  const int64_t count = w.panels.size(0), n = w.n, lda = call.groups * kGroup;
  const int64_t stride = call.groups * kColumns * kGroup;
  const int8_t* panels = w.panels.data_ptr<int8_t>();
  for (int64_t p = 2 * begin; p < std::min(2 * end, count); p += 2) {
    const int64_t col = p * kColumns, columns = std::min(2 * kColumns, n - col);
    const bool two = p + 1 < count;
    for (int64_t r = 0; r < call.rows;) {
      const int64_t left = call.rows - r;
      const auto args = std::make_tuple(call.x + r * lda, lda, call.row_scale + r, panels + p * stride, stride,
                                        call.groups, std::cref(w), col,
                                        call.residual ? call.residual + r * n + col : nullptr, n, call.relu,
                                        call.y + r * n + col, n, columns);
      const int rows = left >= 8 ? 8 : left >= 4 ? 4 : 1;
      if (rows == 8) std::apply(two ? block_vnni<8, 2> : block_vnni<8, 1>, args);
      else if (rows == 4) std::apply(two ? block_vnni<4, 2> : block_vnni<4, 1>, args);
      else std::apply(two ? block_vnni<1, 2> : block_vnni<1, 1>, args);
      r += rows;
    }
  }
}
#endif

// W int8 [N, K] (torch.ao's int_repr, zero points 0), scales [N], bias [N] or None -> the packed layer.
c10::intrusive_ptr<Int8Panels> pack_int8_panels(const at::Tensor& w_in, const at::Tensor& scales,
                                                const std::optional<at::Tensor>& bias) {
  TORCH_CHECK(w_in.dim() == 2 && w_in.scalar_type() == at::kChar, "pack_int8_panels: W must be int8 [N, K]");
  TORCH_CHECK(scales.numel() == w_in.size(0), "pack_int8_panels: one scale per row of W");
  const at::Tensor w = w_in.contiguous();
  const int64_t n = w.size(0), k = w.size(1), count = (n + kColumns - 1) / kColumns;
  const int64_t groups = (k + kGroup - 1) / kGroup, padded = count * kColumns;
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

}  // namespace

bool vnni_available() {
#if ATTNMT_VNNI_BUILD
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                          __builtin_cpu_supports("avx512vnni") && at::get_cpu_capability() == "AVX512";
  return yes;
#else
  return false;
#endif
}

at::Tensor int8_linear(const at::Tensor& x_in, const Int8Panels& w, const std::optional<at::Tensor>& residual_in,
                       bool relu) {
  TORCH_CHECK(vnni_available(), "int8_linear: this CPU (or ATEN_CPU_CAPABILITY) does not allow AVX512-VNNI");
  TORCH_CHECK(x_in.dim() == 2 && x_in.scalar_type() == at::kFloat && x_in.size(1) == w.k,
              "int8_linear: x must be float [rows, ", w.k, "]");
  const at::Tensor x = x_in.contiguous();
  const int64_t rows = x.size(0), groups = w.panels.size(1);
  TORCH_CHECK(!residual_in.has_value() || (residual_in->size(0) == rows && residual_in->size(1) == w.n),
              "int8_linear: the residual must be [rows, N]");
  at::Tensor y = at::empty({rows, w.n}, x.options());
#if ATTNMT_VNNI_BUILD
  at::Tensor q = at::empty({rows, groups * kGroup}, x.options().dtype(at::kByte));
  at::Tensor row_scale = at::empty({rows}, x.options());
  quantize_rows(x.data_ptr<float>(), rows, w.k, groups, q.data_ptr<uint8_t>(), row_scale.data_ptr<float>());
  const at::Tensor residual = residual_in.has_value() ? residual_in->contiguous() : at::Tensor();
  const Int8Call call{q.data_ptr<uint8_t>(), row_scale.data_ptr<float>(), w,
                      residual.defined() ? residual.data_ptr<float>() : nullptr, y.data_ptr<float>(), rows, groups,
                      relu};
  const int64_t pairs = (w.panels.size(0) + 1) / 2;
  // A pair of panels is about rows · K · 32 multiply-adds, 64 per instruction: give a thread at
  // least ~16k instructions, so that small products do not pay OpenMP's fork for nothing.
  const int64_t grain = std::max<int64_t>(1, (1 << 20) / std::max<int64_t>(1, rows * w.k * 32));
  at::parallel_for(0, pairs, grain, [&](int64_t begin, int64_t end) { pairs_vnni(call, begin, end); });
#endif
  return y;
}

namespace {

at::Tensor int8_linear_op(const at::Tensor& x, const c10::intrusive_ptr<Int8Panels>& w,
                          const std::optional<at::Tensor>& residual, bool relu) {
  return int8_linear(x, *w, residual, relu);
}

}  // namespace

}  // namespace attnmt

TORCH_LIBRARY_FRAGMENT(attnmt, m) {
  m.class_<attnmt::Int8Panels>("Int8Panels");
  m.def("pack_int8_panels", &attnmt::pack_int8_panels);
  m.def("int8_linear", &attnmt::int8_linear_op);
  m.def("vnni_available() -> bool", &attnmt::vnni_available);
}
