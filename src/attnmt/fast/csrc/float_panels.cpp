// The float32 decoder step's matmuls (decoder_step.cpp), without oneDNN's per-call cost.
//
// At 32 rows a decoder layer's matmul is 2-8 MFLOP, a few tens of microseconds, and oneDNN's wrapper
// (_linear_pointwise: memory descriptors, primitive-cache lookup, output allocation, an
// OpenMP fork) adds a cost of the same order to each of the 18 per step (docs/design/fast-decoder.md).
// Here W [N, K] is packed once into panels of 16 output columns, [ceil(N/16), K, 16]
// (pack_panels; zero beyond N), and y = x Wᵀ + b (+ residual) (ReLU) is computed panel by
// panel, the panels split between the threads, by the widest kernel this CPU runs (chosen
// at run time, so one build serves every x86-64 CPU with AVX2):
//   - AVX2: 6 rows × 16 columns held in 12 ymm registers;
//   - AVX-512 (where PyTorch's own kernels use AVX-512: ATEN_CPU_CAPABILITY caps both):
//     8 rows × 32 columns (two panels) in 16 zmm registers.
// bf16 weights go to oneDNN instead (bf16_linear in decoder_step.cpp), which multiplies them with AMX tiles where
// the CPU has them, several times the AVX-512 kernel's speed at 128 rows.  (A vdpbf16ps panel
// kernel ran slower than the float32 AVX-512 one on a CPU with both: docs/design/fast-decoder.md.)
#include "float_panels.h"
#include "fetch_ahead.h"
#include "row_blocks.h"
#include "top_tokens.h"

#include <ATen/Parallel.h>
#include <torch/library.h>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define ATTNMT_PANELS 1
#else
#define ATTNMT_PANELS 0
#endif

#include <algorithm>
#include <cstdint>
#include <string>

namespace attnmt {

namespace {

using at::Tensor;

// One call's operands: y [rows, n] = x [rows, k] · Wᵀ + bias (+ residual [rows, n]) (ReLU), bias
// padded to whole panels.  y's row r, column c lies at y[r · ldy + c − first]: y [rows, n] itself
// (ldy = n, first = 0), or a block of its columns from `first` (top_log_probs_of's buffer).
struct PanelCall {
  const float* x;
  const float* panels;
  const float* bias;
  const float* residual;
  float* y;
  int64_t rows, k, n, count;
  bool relu;
  int64_t ldy, first;
};

#if ATTNMT_PANELS
// C[rows, 16] = A[rows, K] · panel [K, 16] + bias (+ residual) (ReLU), rows <= 6; `columns`
// (<= 16) of the 16 are stored.  lda, ldc, ldr: row strides in floats.
template <int Rows, bool Fetch>
inline void panel_kernel(const float* a, int64_t lda, const float* panel, int64_t k, const float* bias,
                         const float* residual, int64_t ldr, bool relu, float* c, int64_t ldc, int64_t columns,
                         Ahead ahead) {
  __m256 acc[Rows][2];
  const __m256 b0 = bias ? _mm256_loadu_ps(bias) : _mm256_setzero_ps();
  const __m256 b1 = bias ? _mm256_loadu_ps(bias + 8) : _mm256_setzero_ps();
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    acc[r][0] = b0;
    acc[r][1] = b1;
  }
  const auto step = [&](int64_t i) __attribute__((always_inline)) {
    const __m256 w0 = _mm256_load_ps(panel + i * kPanel);
    const __m256 w1 = _mm256_load_ps(panel + i * kPanel + 8);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m256 x = _mm256_broadcast_ss(a + r * lda + i);
      acc[r][0] = _mm256_fmadd_ps(x, w0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(x, w1, acc[r][1]);
    }
  };
  // The steps that fetch, then the rest without the fetch's test: at 100 rows a share is about 30 lines, fetched in
  // the first 30 of 512 steps, and the test was 3 of the 31 instructions of every step after them.
  const int64_t fetching = Fetch ? std::min(k, ahead.steps()) : 0;
  int64_t i = 0;
  for (; i < fetching; ++i) {
    ahead.fetch(i);
    step(i);
  }
  for (; i < k; ++i) step(i);
  alignas(32) float tail[kPanel];
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    __m256 y0 = acc[r][0], y1 = acc[r][1];
    if (residual) {
      if (columns == kPanel) {
        y0 = _mm256_add_ps(y0, _mm256_loadu_ps(residual + r * ldr));
        y1 = _mm256_add_ps(y1, _mm256_loadu_ps(residual + r * ldr + 8));
      } else {
        std::fill(tail, tail + kPanel, 0.f);
        std::copy(residual + r * ldr, residual + r * ldr + columns, tail);
        y0 = _mm256_add_ps(y0, _mm256_load_ps(tail));
        y1 = _mm256_add_ps(y1, _mm256_load_ps(tail + 8));
      }
    }
    if (relu) {
      y0 = _mm256_max_ps(y0, _mm256_setzero_ps());
      y1 = _mm256_max_ps(y1, _mm256_setzero_ps());
    }
    if (columns == kPanel) {
      _mm256_storeu_ps(c + r * ldc, y0);
      _mm256_storeu_ps(c + r * ldc + 8, y1);
    } else {
      _mm256_store_ps(tail, y0);
      _mm256_store_ps(tail + 8, y1);
      std::copy(tail, tail + columns, c + r * ldc);
    }
  }
}

// Panels [begin, end) of the call, AVX2, 6 rows at a time, fetching the next panel ahead.
template <bool Fetch>
void panels_avx2_fetching(const PanelCall& call, int64_t begin, int64_t end) {
  const float* a = static_cast<const float*>(call.x);
  const float* w = static_cast<const float*>(call.panels);
  const int64_t rows = call.rows, k = call.k, n = call.n;
  const int64_t blocks = row_block_count<6>(rows);
  for (int64_t p = begin; p < end; ++p) {
    const int64_t col = p * kPanel, columns = std::min(kPanel, n - col);
    const float* panel = w + p * k * kPanel;
    const float* pb = call.bias ? call.bias + col : nullptr;
    const float* res = call.residual;
    float* c = call.y + col - call.first;
    const int64_t ldc = call.ldy, next_bytes = p + 1 < call.count ? k * kPanel * 4 : 0;
    int64_t block = 0;
    row_blocks<6>(rows, [&](auto size, int64_t r) {
      const Ahead ahead = Fetch ? Ahead::share(panel + k * kPanel, next_bytes, block++, blocks, k) : Ahead{};
      panel_kernel<decltype(size)::value, Fetch>(a + r * k, k, panel, k, pb, res ? res + r * n + col : nullptr, n,
                                                 call.relu, c + r * ldc, ldc, columns, ahead);
    });
  }
}

void panels_avx2(const PanelCall& call, int64_t begin, int64_t end) {
  (call.rows >= Ahead::kMinRows ? panels_avx2_fetching<true> : panels_avx2_fetching<false>)(call, begin, end);
}

// The store of one AVX-512 block: + residual, ReLU, then the first `columns` of each panel's 16.
template <int Rows, int Count>
ATTNMT_AVX512 inline void store_block(__m512 (&acc)[Rows][Count], const float* residual, int64_t ldr, bool relu,
                                      float* c, int64_t ldc, int64_t columns) {
  __mmask16 mask[Count];
  for (int q = 0; q < Count; ++q) {
    const int64_t valid = std::clamp<int64_t>(columns - q * kPanel, 0, kPanel);
    mask[q] = static_cast<__mmask16>((1u << valid) - 1u);
  }
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r)
    for (int q = 0; q < Count; ++q) {
      __m512 y = acc[r][q];
      if (residual) y = _mm512_add_ps(y, _mm512_maskz_loadu_ps(mask[q], residual + r * ldr + q * kPanel));
      if (relu) y = _mm512_max_ps(y, _mm512_setzero_ps());
      _mm512_mask_storeu_ps(c + r * ldc + q * kPanel, mask[q], y);
    }
}

// C[rows, 16·Count] = A[rows, K] · (Count panels, `stride` floats apart) + bias (+ residual) (ReLU), float32,
// fetching an Ahead's share (Fetch), given as its three fields: with the Ahead itself as the argument
// (passed in memory) and Ahead::share called through the PLT, the output layer's full product ran
// 10 % slower than with no fetching at all (panel_fetch_epyc_s22.txt; the two not measured apart).
template <int Rows, int Count, bool Fetch>
ATTNMT_AVX512 inline void block_avx512(const float* a, int64_t lda, const float* panel, int64_t stride, int64_t k,
                                       const float* bias, const float* residual, int64_t ldr, bool relu, float* c,
                                       int64_t ldc, int64_t columns, const char* ahead_from, const char* ahead_to,
                                       int64_t ahead_step) {
  const Ahead ahead{ahead_from, ahead_to, ahead_step};
  __m512 acc[Rows][Count];
  for (int q = 0; q < Count; ++q) {
    const __m512 b = bias ? _mm512_loadu_ps(bias + q * kPanel) : _mm512_setzero_ps();
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) acc[r][q] = b;
  }
  for (int64_t i = 0; i < k; ++i) {
    if constexpr (Fetch) ahead.fetch(i);
    __m512 w[Count];
    for (int q = 0; q < Count; ++q) w[q] = _mm512_load_ps(panel + q * stride + i * kPanel);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m512 x = _mm512_set1_ps(a[r * lda + i]);
      for (int q = 0; q < Count; ++q) acc[r][q] = _mm512_fmadd_ps(x, w[q], acc[r][q]);
    }
  }
  store_block<Rows, Count>(acc, residual, ldr, relu, c, ldc, columns);
}

// Panel pairs [begin, end) of the call: 8 rows × 2 panels at a time, the rows left in one block,
// fetching the next pair ahead.  Calling block_avx512 from code built for AVX2 costs a call per
// block, nothing measurable.
template <bool Fetch>
void pairs_avx512_fetching(const PanelCall& call, int64_t begin, int64_t end) {
  const float* a = call.x;
  const float* w = call.panels;
  const int64_t n = call.n, k = call.k, lda = k, stride = k * kPanel;
  const int64_t blocks = row_block_count<8>(call.rows);
  for (int64_t p = 2 * begin; p < std::min(2 * end, call.count); p += 2) {
    const int64_t col = p * kPanel, columns = std::min(2 * kPanel, n - col);
    const bool two = p + 1 < call.count;
    const int64_t next_bytes = std::clamp<int64_t>(call.count - p - 2, 0, 2) * stride * 4;
    int64_t block = 0;
    row_blocks<8>(call.rows, [&](auto size, int64_t r) {
      constexpr int kRows = decltype(size)::value;
      const Ahead ahead =
          Fetch ? Ahead::share(w + std::min(p + 2, call.count) * stride, next_bytes, block++, blocks, k) : Ahead{};
      (two ? block_avx512<kRows, 2, Fetch> : block_avx512<kRows, 1, Fetch>)(
          a + r * lda, lda, w + p * stride, stride, k, call.bias ? call.bias + col : nullptr,
          call.residual ? call.residual + r * n + col : nullptr, n, call.relu, call.y + r * call.ldy + col - call.first,
          call.ldy, columns, ahead.from, ahead.to, ahead.step);
    });
  }
}

void pairs_avx512(const PanelCall& call, int64_t begin, int64_t end) {
  (call.rows >= Ahead::kMinRows ? pairs_avx512_fetching<true> : pairs_avx512_fetching<false>)(call, begin, end);
}
#endif

}  // namespace

bool avx512_panels() {
#if ATTNMT_PANELS
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                          at::get_cpu_capability() == "AVX512";
  return yes;
#else
  return false;
#endif
}

Tensor pack_panels(const Tensor& w_in) {
  TORCH_CHECK(w_in.dim() == 2 && w_in.scalar_type() == at::kFloat, "pack_panels: W must be float [N, K]");
  const Tensor w = w_in.contiguous();
  const int64_t n = w.size(0), k = w.size(1), panels = (n + kPanel - 1) / kPanel;
  Tensor out = at::zeros({panels, k, kPanel}, w.options());
  const float* src = w.data_ptr<float>();
  float* dst = out.data_ptr<float>();
  for (int64_t row = 0; row < n; ++row)
    for (int64_t i = 0; i < k; ++i) dst[((row / kPanel) * k + i) * kPanel + row % kPanel] = src[row * k + i];
  return out;
}

std::string panel_isa() { return avx512_panels() ? "avx512" : ATTNMT_PANELS ? "avx2" : "none"; }

// y [rows, N] = x [rows, K] · Wᵀ + b (+ residual [rows, N]) (ReLU if relu), W as pack_panels
// left it; x, residual contiguous.
Tensor panel_linear(const Tensor& x_in, const Tensor& panels, const std::optional<Tensor>& bias_in, int64_t n,
                    const std::optional<Tensor>& residual_in, bool relu) {
  return panel_linear_into(x_in, panels, bias_in, n, residual_in, relu, at::empty({x_in.size(0), n}, x_in.options()));
}

namespace {

void check_panels(const Tensor& x, const Tensor& panels, int64_t n) {
  const int64_t k = x.size(1), count = panels.size(0);
  TORCH_CHECK(panels.dim() == 3 && panels.size(1) == k && panels.size(2) == kPanel && count * kPanel >= n &&
                  panels.scalar_type() == at::kFloat && panels.is_contiguous() &&
                  reinterpret_cast<uintptr_t>(panels.data_ptr()) % 64 == 0,
              "panel_linear: panels must be pack_panels' output for a W of ", n, " rows and ", k, " columns");
}

#if ATTNMT_PANELS
// The bias as the kernels read it, 16 columns at a time: padded with zeros to whole panels (kept in `padded`).
const float* panel_bias(const std::optional<Tensor>& bias_in, int64_t n, int64_t count, Tensor& padded) {
  if (!bias_in.has_value()) return nullptr;
  padded = bias_in->contiguous();
  if (n % kPanel != 0) {
    padded = at::zeros({count * kPanel}, bias_in->options());
    padded.narrow(0, 0, n).copy_(*bias_in);
  }
  return padded.data_ptr<float>();
}

// Panel pairs [begin, end) of the call, by the widest kernel this process runs.
void run_pairs(const PanelCall& call, int64_t begin, int64_t end) {
  if (avx512_panels()) pairs_avx512(call, begin, end);
  else panels_avx2(call, 2 * begin, std::min(2 * end, call.count));
}
#endif

}  // namespace

Tensor panel_linear_into(const Tensor& x_in, const Tensor& panels, const std::optional<Tensor>& bias_in, int64_t n,
                         const std::optional<Tensor>& residual_in, bool relu, Tensor y) {
  TORCH_CHECK(x_in.dim() == 2 && x_in.scalar_type() == at::kFloat, "panel_linear: x must be float [rows, K]");
  const Tensor x = x_in.contiguous();
  const int64_t rows = x.size(0), k = x.size(1), count = panels.size(0);
  check_panels(x, panels, n);
  TORCH_CHECK(!residual_in.has_value() || (residual_in->size(0) == rows && residual_in->size(1) == n),
              "panel_linear: the residual must be [rows, N]");
  TORCH_CHECK(y.is_contiguous() && y.dim() == 2 && y.size(0) == rows && y.size(1) == n &&
                  y.scalar_type() == at::kFloat, "panel_linear: the output must be a contiguous float [", rows, ", ", n, "]");
#if ATTNMT_PANELS
  Tensor bias_padded;
  const float* bias = panel_bias(bias_in, n, count, bias_padded);
  Tensor residual = residual_in.has_value() ? residual_in->contiguous() : Tensor();
  const PanelCall call{x.data_ptr<float>(), panels.data_ptr<float>(), bias, residual.defined() ? residual.data_ptr<float>() : nullptr,
                       y.data_ptr<float>(), rows, k, n, count, relu, n, 0};
  const int64_t pairs = (count + 1) / 2;
  const int64_t grain = std::max<int64_t>(1, 8192 / std::max<int64_t>(1, rows * k));
  at::parallel_for(0, pairs, grain, [&](int64_t begin, int64_t end) { run_pairs(call, begin, end); });
#else
  TORCH_CHECK(false, "panel_linear: built without AVX2/FMA");
#endif
  return y;
}

TopTokens panel_top_log_probs(const Tensor& x_in, const Tensor& panels, const std::optional<Tensor>& bias_in, int64_t n,
                              int64_t k, at::IntArrayRef banned, const std::optional<Tensor>& forced,
                              at::IntArrayRef outside) {
  TORCH_CHECK(x_in.dim() == 2 && x_in.scalar_type() == at::kFloat, "panel_top_log_probs: x must be float [rows, K]");
  const Tensor x = x_in.contiguous();
  const int64_t rows = x.size(0), count = panels.size(0);
  check_panels(x, panels, n);
#if ATTNMT_PANELS
  Tensor bias_padded;
  const PanelCall call{x.data_ptr<float>(), panels.data_ptr<float>(), panel_bias(bias_in, n, count, bias_padded),
                       nullptr, nullptr, rows, x.size(1), n, count, false, n, 0};
  return top_log_probs_of(rows, n, (count + 1) / 2, [&](int64_t first, int64_t end, float* out, int64_t ld) {
    PanelCall block = call;
    block.y = out;
    block.ldy = ld;
    block.first = first * 2 * kPanel;
    run_pairs(block, first, end);
  }, k, banned, forced, outside);
#else
  TORCH_CHECK(false, "panel_top_log_probs: built without AVX2/FMA");
#endif
}

}  // namespace attnmt

TORCH_LIBRARY_FRAGMENT(attnmt, m) {
  m.def("pack_panels(Tensor w) -> Tensor", &attnmt::pack_panels);
  m.def("panels_available() -> bool", []() { return static_cast<bool>(ATTNMT_PANELS); });
  m.def("panel_isa() -> str", &attnmt::panel_isa);
  m.def("panel_linear(Tensor x, Tensor panels, Tensor? bias, int n, Tensor? residual, bool relu) -> Tensor",
        &attnmt::panel_linear);
  m.def("panel_top_log_probs(Tensor x, Tensor panels, Tensor? bias, int n, int k, int[] banned, Tensor? forced, "
        "int[] outside=[]) -> "
        "(Tensor, Tensor, Tensor, Tensor)",
        &attnmt::panel_top_log_probs);
}
