// One cached decoder step of the whole stack, for inference copies whose linear
// layers hold oneDNN-prepacked weights (attnmt.fast.packed) or int8 ones
// (attnmt.fast.int8), and, around it, the embedding and the output layer (DecoderStep.decode).
// attnmt.fast.extension builds it, with float_panels.cpp, int8_panels.cpp and top_tokens.cpp.
//
// The Python step (DecoderLayer.forward with a LayerCache) does per layer about
// fifty small tensor operations, each paying Python's and PyTorch's per-call cost, a
// large share of a step at a few dozen rows (docs/design/fast-decoder.md).  Here one call runs the
// same arithmetic for every layer: the matmuls (a residual add fused into the matmul
// that precedes it, ReLU into the first feed-forward one) through kernels on weights
// packed once into panels (float32: AVX-512 or AVX2, float_panels.cpp; int8: AMX, AVX512-VNNI or
// AVX2, int8_panels.cpp) where the CPU has them, else through oneDNN (float32, bf16) or fbgemm
// (int8), and, written out below, attention for one query per row and residual +
// LayerNorm.  Results equal the Python step's up to float rounding (tests/fast/test_fused.py).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <torch/library.h>

#include "exp_nonpositive.h"
#include "float_panels.h"
#include "split_tiles.h"
#include "int8_panels.h"
#include "top_tokens.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <type_traits>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <sys/mman.h>
#include <unistd.h>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace {

using at::Tensor;
using attnmt::kPanel;
using Scalars = c10::List<std::optional<c10::Scalar>>;

// What decoder_step receives from attnmt.fast.step, as there: the values of Python's IntEnums.
enum class Linears : int64_t { kFloat = 0, kInt8 = 1, kInt8Panels = 2 };
enum class Norm : int64_t { kPost = 0, kPre = 1 };
enum class Activation : int64_t { kNone = 0, kRelu = 1, kGelu = 2, kSwish = 3 };

// y = x Wᵀ + b, then the activation `act` as oneDNN's post-op.
Tensor linear(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b, Activation act) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("mkldnn::_linear_pointwise", "")
                       .typed<Tensor(const Tensor&, const Tensor&, const std::optional<Tensor>&,
                                     c10::string_view, Scalars, std::optional<c10::string_view>)>();
  static const char* const attrs[] = {"none", "relu", "gelu", "swish"};
  std::optional<c10::string_view> algorithm;
  if (act == Activation::kGelu) algorithm = "none";  // exact (erf) GELU, as F.gelu
  return op.call(x, w, b, attrs[static_cast<int64_t>(act)], Scalars(), algorithm);
}

// y = x Wᵀ + b + other (the residual connection, added inside the matmul).
Tensor linear_add(const Tensor& x, const Tensor& other, const Tensor& w, const std::optional<Tensor>& b) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("mkldnn::_linear_pointwise", "binary")
                       .typed<Tensor(const Tensor&, const Tensor&, const Tensor&, const std::optional<Tensor>&,
                                     c10::string_view)>();
  return op.call(x, other, w, b, "add");
}

// LayerNorm over the last dimension of x [rows, d]; gamma, beta [d].  Mean and
// variance in two passes, as torch.layer_norm (biased variance); rows split between threads.
Tensor layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps) {
  const int64_t rows = x.size(0), d = x.size(1);
  Tensor out = at::empty_like(x);
  const float* in = x.data_ptr<float>();
  const float* g = gamma.data_ptr<float>();
  const float* b = beta.data_ptr<float>();
  float* o = out.data_ptr<float>();
  at::parallel_for(0, rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, d)), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float* row = in + r * d;
      float sum = 0.f;
#pragma omp simd reduction(+ : sum)
      for (int64_t i = 0; i < d; ++i) sum += row[i];
      const float mean = sum / d;
      float squares = 0.f;
#pragma omp simd reduction(+ : squares)
      for (int64_t i = 0; i < d; ++i) squares += (row[i] - mean) * (row[i] - mean);
      const float inv = 1.f / std::sqrt(squares / d + static_cast<float>(eps));
      float* dst = o + r * d;
#pragma omp simd
      for (int64_t i = 0; i < d; ++i) dst[i] = (row[i] - mean) * inv * g[i] + b[i];
    }
  });
  return out;
}

// A cache's keys and values: float32, or 16-bit floats (the int8 copy's cache: half the memory a step
// reads, see `step`).  as_float reads one; with AVX2, load8 reads 8 as floats.
inline float as_float(float x) { return x; }
inline float as_float(at::Half x) { return static_cast<float>(x); }

#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
inline __m256 load8(const float* p) { return _mm256_loadu_ps(p); }
inline __m256 load8(const at::Half* p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))); }
#define ATTNMT_ATTENTION_AVX2 1
#else
#define ATTNMT_ATTENTION_AVX2 0
#endif

#if defined(__AVX2__) && defined(__FMA__)
// Lane p of the result: the sum of a[p]'s 8 lanes.
inline __m256 lane_sums(const __m256 a[8]) {
  const __m256 s0123 = _mm256_hadd_ps(_mm256_hadd_ps(a[0], a[1]), _mm256_hadd_ps(a[2], a[3]));
  const __m256 s4567 = _mm256_hadd_ps(_mm256_hadd_ps(a[4], a[5]), _mm256_hadd_ps(a[6], a[7]));
  return _mm256_add_ps(_mm256_permute2f128_ps(s0123, s4567, 0x20), _mm256_permute2f128_ps(s0123, s4567, 0x31));
}
#endif

// scores[j] = q · keys[at[j]] · scale for positions [0, length) of one head (dk values a position,
// position j's at keys + at[j]).  With AVX2, 8 positions at a time (the last 1-8 too), each with its
// own accumulator (one dot's chain of FMAs and its horizontal sum would otherwise be a position's
// whole latency).
template <class T>
void head_scores(const float* q, const T* keys, const int64_t* at, int64_t length, int64_t dk, float scale,
                 float* scores) {
  int64_t j = 0;
#if ATTNMT_ATTENTION_AVX2
  if (dk % 8 == 0) {
    const __m256 scaled = _mm256_set1_ps(scale);
    for (; j < length; j += 8) {
      // The last block's missing positions read the last position again; their scores are dropped.
      int64_t where[8];
      for (int p = 0; p < 8; ++p) where[p] = at[std::min(j + p, length - 1)];
      __m256 acc[8];
      for (auto& a : acc) a = _mm256_setzero_ps();
      for (int64_t i = 0; i < dk; i += 8) {
        const __m256 qi = _mm256_loadu_ps(q + i);
#pragma GCC unroll 8
        for (int p = 0; p < 8; ++p) acc[p] = _mm256_fmadd_ps(qi, load8(keys + where[p] + i), acc[p]);
      }
      const __m256 block = _mm256_mul_ps(lane_sums(acc), scaled);
      if (j + 8 <= length) {
        _mm256_storeu_ps(scores + j, block);
      } else {
        alignas(32) float last[8];
        _mm256_store_ps(last, block);
        std::copy(last, last + (length - j), scores + j);
      }
    }
  }
#endif
  for (; j < length; ++j) {
    const T* key = keys + at[j];
    float dot = 0.f;
#pragma omp simd reduction(+ : dot)
    for (int64_t i = 0; i < dk; ++i) dot += q[i] * as_float(key[i]);
    scores[j] = dot * scale;
  }
}

// out [dk] = Σ_j weights[j] · values[at[j]] · scale over the positions [0, length) whose weight is
// not 0.  With AVX2, 64 of out's floats at a time held in registers over all positions.
template <class T>
void weighted_values(const float* weights, const T* values, const int64_t* at, int64_t length, int64_t dk,
                     float scale, float* out) {
  int64_t c0 = 0;
#if ATTNMT_ATTENTION_AVX2
  const __m256 scaled = _mm256_set1_ps(scale);
  for (; c0 + 64 <= dk; c0 += 64) {  // 8 registers of 8 floats
    __m256 acc[8];
    for (auto& a : acc) a = _mm256_setzero_ps();
    for (int64_t j = 0; j < length; ++j) {
      if (weights[j] == 0.f) continue;
      const __m256 w = _mm256_set1_ps(weights[j]);
      const T* vj = values + at[j] + c0;
#pragma GCC unroll 8
      for (int c = 0; c < 8; ++c) acc[c] = _mm256_fmadd_ps(w, load8(vj + 8 * c), acc[c]);
    }
#pragma GCC unroll 8
    for (int c = 0; c < 8; ++c) _mm256_storeu_ps(out + c0 + 8 * c, _mm256_mul_ps(acc[c], scaled));
  }
  for (; c0 + 8 <= dk; c0 += 8) {  // what is left of the head, 8 floats at a time
    __m256 acc = _mm256_setzero_ps();
    for (int64_t j = 0; j < length; ++j)
      if (weights[j] != 0.f) acc = _mm256_fmadd_ps(_mm256_set1_ps(weights[j]), load8(values + at[j] + c0), acc);
    _mm256_storeu_ps(out + c0, _mm256_mul_ps(acc, scaled));
  }
#endif
  std::fill(out + c0, out + dk, 0.f);
  for (int64_t j = 0; j < length; ++j) {
    if (weights[j] == 0.f) continue;
    const T* vj = values + at[j];
#pragma omp simd
    for (int64_t i = c0; i < dk; ++i) out[i] += weights[j] * as_float(vj[i]);
  }
  for (int64_t i = c0; i < dk; ++i) out[i] *= scale;
}

#if ATTNMT_ATTENTION_AVX2 && defined(__x86_64__)
// head_scores and weighted_values with 16 floats a register, which they run where the float32 panels
// run AVX-512 (attnmt::avx512_panels: the CPU has it and ATEN_CPU_CAPABILITY allows it) and dk is a
// multiple of 16.  weighted_values sums each output float in the same order as the AVX2 build: the
// same numbers; head_scores folds a dot's 16 lanes into 8 (lane i + lane i + 8), then sums those 8
// as the AVX2 build sums its 8: equal within float rounding.
ATTNMT_AVX512 inline __m512 load16(const float* p) { return _mm512_loadu_ps(p); }
ATTNMT_AVX512 inline __m512 load16(const at::Half* p) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

template <class T>
ATTNMT_AVX512 __attribute__((noinline)) void head_scores_avx512(const float* q, const T* keys, const int64_t* at,
                                                                int64_t length, int64_t dk, float scale,
                                                                float* scores) {
  const __m256 scaled = _mm256_set1_ps(scale);
  for (int64_t j = 0; j < length; j += 8) {
    int64_t where[8];  // as head_scores: the last block's missing positions read the last position again
    for (int p = 0; p < 8; ++p) where[p] = at[std::min(j + p, length - 1)];
    __m512 acc[8];
    for (auto& a : acc) a = _mm512_setzero_ps();
    for (int64_t i = 0; i < dk; i += 16) {
      const __m512 qi = _mm512_loadu_ps(q + i);
#pragma GCC unroll 8
      for (int p = 0; p < 8; ++p) acc[p] = _mm512_fmadd_ps(qi, load16(keys + where[p] + i), acc[p]);
    }
    __m256 halves[8];
    for (int p = 0; p < 8; ++p)
      halves[p] = _mm256_add_ps(_mm512_castps512_ps256(acc[p]), _mm512_extractf32x8_ps(acc[p], 1));
    const __m256 block = _mm256_mul_ps(lane_sums(halves), scaled);
    if (j + 8 <= length) {
      _mm256_storeu_ps(scores + j, block);
    } else {
      alignas(32) float last[8];
      _mm256_store_ps(last, block);
      std::copy(last, last + (length - j), scores + j);
    }
  }
}

template <class T>
ATTNMT_AVX512 __attribute__((noinline)) void weighted_values_avx512(const float* weights, const T* values,
                                                                    const int64_t* at, int64_t length, int64_t dk,
                                                                    float scale, float* out) {
  const __m512 scaled = _mm512_set1_ps(scale);
  int64_t c0 = 0;
  for (; c0 + 64 <= dk; c0 += 64) {  // 4 registers of 16 floats
    __m512 acc[4];
    for (auto& a : acc) a = _mm512_setzero_ps();
    for (int64_t j = 0; j < length; ++j) {
      if (weights[j] == 0.f) continue;
      const __m512 w = _mm512_set1_ps(weights[j]);
      const T* vj = values + at[j] + c0;
#pragma GCC unroll 4
      for (int c = 0; c < 4; ++c) acc[c] = _mm512_fmadd_ps(w, load16(vj + 16 * c), acc[c]);
    }
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) _mm512_storeu_ps(out + c0 + 16 * c, _mm512_mul_ps(acc[c], scaled));
  }
  for (; c0 < dk; c0 += 16) {  // what is left of the head (dk is a multiple of 16)
    __m512 acc = _mm512_setzero_ps();
    for (int64_t j = 0; j < length; ++j)
      if (weights[j] != 0.f) acc = _mm512_fmadd_ps(_mm512_set1_ps(weights[j]), load16(values + at[j] + c0), acc);
    _mm512_storeu_ps(out + c0, _mm512_mul_ps(acc, scaled));
  }
}
#endif

// Whether keys or values [.., L, dk] hold each position's dk values side by side and the positions
// dk apart, as the kernels read them (position j, value i at j·dk + i).  A dimension of size 1 is
// never stepped along and PyTorch leaves its stride arbitrary: a one-word source's [G, H, 1, dk]
// keys, split from [G, 1, H, dk], are contiguous() with a stride of H·dk between positions.
bool positions_contiguous(const Tensor& t) {
  const int64_t length = t.size(2), dk = t.size(3);
  return (dk < 2 || t.stride(3) == 1) && (length < 2 || t.stride(2) == dk);
}

// Whether v is read at k's offsets: the same sizes, and the same stride along each dimension that
// is stepped along (one of size > 1).
bool same_layout(const Tensor& k, const Tensor& v) {
  if (v.sizes() != k.sizes()) return false;
  for (int64_t i = 0; i < k.dim(); ++i)
    if (k.size(i) > 1 && v.stride(i) != k.stride(i)) return false;
  return true;
}

// attend_one_query for keys and values of type T.
template <class T>
void attend(const float* q, int64_t q_stride, const Tensor& k, const Tensor& v, const bool* mask,
            const int64_t* lineage, int64_t rows, int64_t per_group, int64_t heads, int64_t dk, float* out,
            float* probs) {
  const int64_t length = k.size(2), group_stride = k.stride(0), head_stride = k.stride(1);
  const T* keys = k.data_ptr<T>();
  const T* values = v.data_ptr<T>();
  const float scale = 1.f / std::sqrt(static_cast<float>(dk));
  auto* scores_of = head_scores<T>;
  auto* values_of = weighted_values<T>;
#if ATTNMT_ATTENTION_AVX2 && defined(__x86_64__)
  if (dk % 16 == 0 && attnmt::avx512_panels()) {
    scores_of = head_scores_avx512<T>;
    values_of = weighted_values_avx512<T>;
  }
#endif
  const int64_t work = std::max<int64_t>(1, length * dk * 2);
  at::parallel_for(0, rows * heads, std::max<int64_t>(1, 32768 / work), [&](int64_t begin, int64_t end) {
    std::vector<float> p(length);
    std::vector<int64_t> at(length);  // where the row's positions are, from a head's block
    int64_t row_at = -1;              // the row `at` is for
    for (int64_t job = begin; job < end; ++job) {
      const int64_t r = job / heads, h = job % heads, g = r / per_group;
      if (r != row_at) {
        for (int64_t j = 0; j < length; ++j) at[j] = (lineage ? lineage[r * length + j] : g) * group_stride + j * dk;
        row_at = r;
      }
      const bool* m = mask ? mask + g * length : nullptr;
      scores_of(q + r * q_stride + h * dk, keys + h * head_stride, at.data(), length, dk, scale, p.data());
      constexpr float kNone = -std::numeric_limits<float>::infinity();
      float best = kNone;
#pragma omp simd reduction(max : best)
      for (int64_t j = 0; j < length; ++j) best = std::max(best, !m || m[j] ? p[j] : kNone);
      float* oh = out + r * heads * dk + h * dk;
      float* ph = probs ? probs + (r * heads + h) * length : nullptr;
      if (best == kNone) {  // every key masked
        std::fill(oh, oh + dk, 0.f);
        if (ph) std::fill(ph, ph + length, 0.f);
        continue;
      }
      float total = 0.f;
      if (m) {
#pragma omp simd reduction(+ : total)
        for (int64_t j = 0; j < length; ++j) {
          p[j] = m[j] ? attnmt::exp_nonpositive(p[j] - best) : 0.f;
          total += p[j];
        }
      } else {
#pragma omp simd reduction(+ : total)
        for (int64_t j = 0; j < length; ++j) {
          p[j] = attnmt::exp_nonpositive(p[j] - best);
          total += p[j];
        }
      }
      values_of(p.data(), values + h * head_stride, at.data(), length, dk, 1.f / total, oh);
      if (ph)
        for (int64_t j = 0; j < length; ++j) ph[j] = p[j] / total;
    }
  });
}

// Attention of one query per row.  q: rows of `q_stride` floats, head h's query at
// q + row·q_stride + h·dk.  Row r reads key/value block group(r) = r / per_group of
// k, v [groups, H, L, dk] (float32 or float16, each position's dk values contiguous, the heads and groups
// at any stride: a cache may be the front of a larger buffer), or, where `lineage` [rows, L]
// is given, its position j from block lineage[r, j] (a beam's cache: see `step`), and only
// those positions where mask [groups, L] (if given) is true.  out [rows, H·dk].  A row with every
// key masked gets zeros, as scaled_dot_product_attention's reference path.  probs, where given:
// the attention weights [rows, H, L] (zeros where masked).
void attend_one_query(const float* q, int64_t q_stride, const Tensor& k, const Tensor& v, const bool* mask,
                      const int64_t* lineage, int64_t rows, int64_t per_group, int64_t heads, int64_t dk, float* out,
                      float* probs = nullptr) {
  TORCH_CHECK(k.dim() == 4 && k.size(3) == dk && positions_contiguous(k) && same_layout(k, v),
              "decoder_step: keys and values must share one layout with contiguous positions");
  TORCH_CHECK(v.scalar_type() == k.scalar_type() && (k.scalar_type() == at::kFloat || k.scalar_type() == at::kHalf),
              "decoder_step: keys and values must be float32 or float16 alike");
  if (k.scalar_type() == at::kHalf)
    attend<at::Half>(q, q_stride, k, v, mask, lineage, rows, per_group, heads, dk, out, probs);
  else
    attend<float>(q, q_stride, k, v, mask, lineage, rows, per_group, heads, dk, out, probs);
}

// The activation `act` applied to y, in place (y is a fresh product: another [rows, ffn] tensor a layer a
// step cost 1.5-5 % of the OPUS-shaped float32 job, benchmarks/results/activation_in_place_epyc_zen4_s47.txt).
Tensor activate(Tensor y, Activation act) {
  switch (act) {
    case Activation::kRelu: return y.relu_();
    case Activation::kGelu: return at::gelu_(y);
    case Activation::kSwish: return at::silu_(y);
    case Activation::kNone: break;
  }
  return y;
}

// y = x Wᵀ + b (+ residual) (activation) with W a oneDNN-prepacked bf16 weight (attnmt.fast.packed,
// bf16=True): x rounded to bf16, the product by oneDNN (AMX tiles where the CPU has them) rounded
// to bf16, then bias, residual and activation added in float32.
Tensor bf16_linear(const Tensor& x, const Tensor& w, const std::optional<Tensor>& b,
                   const std::optional<Tensor>& residual, Activation act) {
  Tensor y = linear(x.to(at::kBFloat16), w, std::nullopt, Activation::kNone).to(at::kFloat);
  if (b.has_value()) y.add_(*b);
  if (residual.has_value()) y.add_(*residual);
  return activate(y, act);
}

// Whether a layer's cached keys (or values) [N, H, t, dk] are the front of a buffer with room for
// more positions that no other tensor shares: then the next position can be written in place
// (the cache passed in, a shorter view, still reads what it read).
bool room_after(const std::optional<Tensor>& cache) {
  if (!cache.has_value()) return false;
  const Tensor& c = *cache;
  const int64_t n = c.size(0), heads = c.size(1), t = c.size(2), dk = c.size(3);
  const int64_t capacity = c.stride(1) / dk;
  return c.stride(3) == 1 && c.stride(2) == dk && c.stride(1) == capacity * dk && capacity > t &&
         c.stride(0) == heads * c.stride(1) && c.storage_offset() == 0 && c.storage().use_count() == 1 &&
         c.storage().nbytes() >= static_cast<size_t>(n * heads * capacity * dk) * c.element_size();
}

// Which block of a beam's cache holds each row's positions: history [N, t] (int64) with history[r, j]
// the block of the cache [M, H, t, dk] that holds row r's position j.  The cache's rows as given are
// `lineage` [M', t] (None: row i's positions all in block i, M' = M), and the new rows are their rows
// parents [N] (beam search's reorder; None: the same rows).  A reorder so costs N·t integers, where
// copying the rows' keys and values would move N·t·d floats per layer twice.
Tensor history_of(const std::optional<Tensor>& lineage, const std::optional<Tensor>& parents, int64_t rows,
                  int64_t t, int64_t blocks) {
  Tensor history = at::empty({rows, t}, at::TensorOptions().dtype(at::kLong));
  const int64_t known = lineage.has_value() ? lineage->size(0) : blocks;
  TORCH_CHECK(!lineage.has_value() || (lineage->dim() == 2 && lineage->size(1) == t),
              "decoder_step: the lineage must be int64 [rows, ", t, "]");
  const int64_t* p = parents.has_value() ? parents->data_ptr<int64_t>() : nullptr;
  const int64_t* from = lineage.has_value() ? lineage->data_ptr<int64_t>() : nullptr;
  int64_t* out = history.data_ptr<int64_t>();
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t source = p ? p[r] : r;
    TORCH_CHECK(0 <= source && source < known, "decoder_step: parent row ", source, " is not among the ", known,
                " cached rows");
    if (from == nullptr) std::fill(out + r * t, out + (r + 1) * t, source);
    else std::copy(from + source * t, from + (source + 1) * t, out + r * t);
  }
  for (int64_t i = 0; i < rows * t; ++i)
    TORCH_CHECK(0 <= out[i] && out[i] < blocks, "decoder_step: the lineage names block ", out[i], " of ", blocks);
  return history;
}

// out [N, H, t, dk] = row r's positions j from the cache's blocks history[r, j], copied run by run of
// positions that one block holds (a whole row at once where it is one block's).  A cache of
// another type than out's is converted first.
void gather_positions(const Tensor& cache_in, const Tensor& history, const Tensor& out) {
  const int64_t n = out.size(0), heads = out.size(1), t = out.size(2), dk = out.size(3);
  const Tensor cache = cache_in.scalar_type() == out.scalar_type() ? cache_in : cache_in.to(out.scalar_type());
  TORCH_CHECK(positions_contiguous(cache) && positions_contiguous(out),
              "decoder_step: keys and values must have contiguous positions");
  const int64_t* where = history.data_ptr<int64_t>();
  const int64_t size = out.element_size();
  const char* src = static_cast<const char*>(cache.data_ptr());
  char* dst = static_cast<char*>(out.data_ptr());
  const int64_t s0 = cache.stride(0), s1 = cache.stride(1), d0 = out.stride(0), d1 = out.stride(1);
  at::parallel_for(0, n * heads, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, t * dk)), [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t r = i / heads, h = i % heads;
      const int64_t* row = where + r * t;
      for (int64_t j = 0; j < t;) {
        int64_t end = j + 1;
        while (end < t && row[end] == row[j]) ++end;
        std::memcpy(dst + (r * d0 + h * d1 + j * dk) * size, src + (row[j] * s0 + h * s1 + j * dk) * size,
                    (end - j) * dk * size);
        j = end;
      }
    }
  });
}

// Where the caller reserves no room, the positions a copied cache's buffer holds are a multiple of
// this, so that appending one position at a time copies once per kCapacityStep positions, not at
// every step.
constexpr int64_t kCapacityStep = 16;

// The keys/values buffers, a batch's [N, H, capacity, dk] per layer, and each step's logits [N, V]
// are the largest memory the search takes, and it takes them afresh (a batch, a step): from malloc,
// buffers that size are new mappings, every page faulted in and zeroed by the kernel as it is first
// written.  Here a buffer that is freed is kept and handed out again for the next one of its kind
// that fits in it: the search drops a step's logits before the next step's, and a batch's keys and
// values before the next batch's.
//
// A request that no kept buffer of its kind fits frees the kept ones smaller than it: the job has
// outgrown them (a file's batches come longest last, so sizes mostly grow).  Without that, a file of
// varied lengths kept every smaller batch's buffers beside the live ones, up to the cap: OPUS-MT's
// shape, 1,000 Multi30k sentences, float32, peaked 200 MiB higher than with no pool at all
// (benchmarks/results/buffer_pool_epyc_s21.txt).  Larger kept buffers stay for a larger request later.
enum class Pooled : int { kKeysValues = 0, kLogits = 1 };

class BufferPool {
 public:
  static BufferPool& instance() {
    static BufferPool* pool = new BufferPool();  // never destroyed: tensors may outlive static destructors
    return *pool;
  }

  // An uninitialised tensor of `shape` and `dtype`, in a kept buffer of `kind` of at most twice its
  // size if any (the smallest such, and of those the last kept).
  Tensor empty(at::IntArrayRef shape, at::ScalarType dtype, Pooled kind) {
    int64_t numel = 1;
    for (int64_t size : shape) numel *= size;
    const size_t wanted = std::max<size_t>(1, static_cast<size_t>(numel) * c10::elementSize(dtype));
    void* data = nullptr;
    size_t bytes = wanted;
    std::vector<void*> outgrown;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::multimap<size_t, void*>& kept = kept_[static_cast<int>(kind)];
      auto fit = kept.lower_bound(wanted);
      if (fit != kept.end() && fit->first <= 2 * wanted) {
        fit = std::prev(kept.upper_bound(fit->first));  // of that size, the one kept last (warmest)
        bytes = fit->first;
        data = fit->second;
        kept_bytes_ -= bytes;
        kept.erase(fit);
      } else {
        for (auto small = kept.begin(); small != fit; small = kept.erase(small)) {
          outgrown.push_back(small->second);
          kept_bytes_ -= small->first;
        }
      }
    }
    for (void* freed : outgrown) std::free(freed);
    if (data == nullptr) {
      data = std::aligned_alloc(64, (wanted + 63) / 64 * 64);
      TORCH_CHECK(data != nullptr, "decoder_step: out of memory for a ", wanted, "-byte ",
                  kind == Pooled::kLogits ? "logits" : "key/value", " buffer");
      bytes = wanted;
    }
    return at::from_blob(data, shape, [this, bytes, kind](void* freed) { keep(freed, bytes, kind); },
                         at::TensorOptions().dtype(dtype));
  }

  // The sizes in bytes of the buffers of `kind` kept now, smallest first.
  std::vector<int64_t> kept_sizes(Pooled kind) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<int64_t> sizes;
    for (const auto& [size, data] : kept_[static_cast<int>(kind)]) sizes.push_back(static_cast<int64_t>(size));
    return sizes;
  }

  // Frees every kept buffer.
  void release() {
    std::vector<void*> freed;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto& kept : kept_) {
        for (const auto& [size, data] : kept) freed.push_back(data);
        kept.clear();
      }
      kept_bytes_ = 0;
    }
    for (void* data : freed) std::free(data);
  }

 private:
  static constexpr size_t kKeptBytes = size_t{512} << 20;  // all kinds together

  void keep(void* data, size_t bytes, Pooled kind) {
    if (kind == Pooled::kKeysValues) give_pages_back(data, bytes);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (kept_bytes_ + bytes <= kKeptBytes) {
        kept_[static_cast<int>(kind)].emplace(bytes, data);
        kept_bytes_ += bytes;
        return;
      }
    }
    std::free(data);
  }

  // A batch's keys/values are kept until the next batch's, and that batch encodes its sources first:
  // with their pages resident, the encoder's weights (attnmt.fast.mapped_pages) and a whole batch's
  // keys/values stood side by side at the float32 job's peak.  Their whole pages go back to the system
  // (the buffer stays reserved, its contents are not needed): the next batch faults in only the
  // positions it writes, once per page a batch, as a fresh buffer would, and keeps the address space.
  static void give_pages_back(void* data, size_t bytes) {
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
    const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) / page * page;
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
  }

  std::mutex mutex_;
  std::array<std::multimap<size_t, void*>, 2> kept_;  // free buffers of each kind, by size
  size_t kept_bytes_ = 0;
};

// The cache [M, H, t, dk] (or none) with this step's fresh [N, H, 1, dk] at position t of blocks
// 0 .. N - 1: in its own buffer where `in_place` (room_after, and N <= M), else copied into a new
// buffer [N, H, t + 1 + room, dk] (room 0: t + 1 rounded up to kCapacityStep; the first position:
// [N, H, 1, dk]) of `dtype` whose block r holds all of row r's positions (`history`'s).  Writing
// position t of block r in place overwrites nothing that any row reads: no row has a position t
// yet.  A float16 cache takes values beyond its range as its largest.
Tensor append_position(const std::optional<Tensor>& cache, const Tensor& fresh, bool in_place, int64_t room,
                       const Tensor& history, at::ScalarType dtype) {
  const int64_t n = fresh.size(0), heads = fresh.size(1), dk = fresh.size(3);
  const int64_t t = cache.has_value() ? cache->size(2) : 0;
  Tensor buffer;
  if (in_place) {
    buffer = cache->as_strided({cache->size(0), heads, cache->stride(1) / dk, dk}, cache->strides());
  } else {
    // The first position gets no room: beam search's next step has beam_size rows per sentence where
    // this one has one, so that step copies every layer anyway, and this buffer with room would wait
    // in the BufferPool, unused, beside the beam's for the rest of the batch (at OPUS-MT's size and
    // 36 sentences, 42 MB of float32 keys/values).  Greedy search copies one position more.  Room the
    // caller reserves is held exactly (a search reserves what its longest row may still add): rounded
    // up to 16, OPUS-MT's 42 positions took 48, 14.6 MiB of float32 keys/values never written.
    const int64_t capacity = t == 0 ? 1
                             : room > 0 ? t + 1 + room
                                        : (t + 1 + kCapacityStep - 1) / kCapacityStep * kCapacityStep;
    buffer = BufferPool::instance().empty({n, heads, capacity, dk}, dtype, Pooled::kKeysValues);
    if (t > 0) gather_positions(*cache, history, buffer.narrow(2, 0, t));
  }
  constexpr double kHalfMax = 65504.0;
  buffer.narrow(0, 0, n).select(2, t).copy_(dtype == at::kHalf ? fresh.select(2, 0).clamp(-kHalfMax, kHalfMax)
                                                               : fresh.select(2, 0));
  return buffer.narrow(2, 0, t + 1);
}

// One linear layer's weights (attnmt.fast.step.StepLinear), y = x Wᵀ + b for W [n, K]; the model's
// Linears say which members it has:
//   kFloat: `panels`, W in the float32 panel kernels' layout (float_panels.cpp), which the step
//           multiplies with where given (or with `tiles`, where set_tiles gave them: split_tiles.cpp),
//           else `w`, W prepacked for oneDNN (float32 or bf16); `b`;
//   kInt8:  `int8`, torch.ao's packed parameters (int8 W and float bias), run by fbgemm;
//   kInt8Panels:  `int8_panels`, the Int8Panels (bias included, int8_panels.cpp).
struct Linear {
  std::optional<Tensor> w, b, panels;
  std::optional<Tensor> tiles;  // kFloat: W also as split_tiles.h's bf16 pieces, multiplied on AMX tiles instead
  bool tiles_model = false;     // ... on the model of the tiles (tests)
  c10::IValue int8;
  c10::intrusive_ptr<attnmt::Int8Panels> int8_panels;
  int64_t n = -1;  // -1: never set
};

// A LayerNorm's γ, β [d].
struct LayerNormWeights {
  Tensor gamma, beta;
};

// One decoder layer's weights (attnmt.fast.step.StepLayer), each sublayer's linear layers and LayerNorm.
struct Layer {
  Linear self_qkv, self_out, cross_q, cross_out, ff1, ff2;
  LayerNormWeights self_norm, cross_norm, ff_norm;
};

// The Layer member each of StepLayer's field names fills (looked up once, as the weights are set).
const std::map<std::string, Linear Layer::*>& linear_fields() {
  static const std::map<std::string, Linear Layer::*> fields{
      {"self_qkv", &Layer::self_qkv}, {"self_out", &Layer::self_out}, {"cross_q", &Layer::cross_q},
      {"cross_out", &Layer::cross_out}, {"ff1", &Layer::ff1}, {"ff2", &Layer::ff2}};
  return fields;
}
const std::map<std::string, LayerNormWeights Layer::*>& norm_fields() {
  static const std::map<std::string, LayerNormWeights Layer::*> fields{
      {"self_norm", &Layer::self_norm}, {"cross_norm", &Layer::cross_norm}, {"ff_norm", &Layer::ff_norm}};
  return fields;
}

// float32 or bf16 linear layers: AMX's bf16 tiles where the layer has them, the panel kernels where it has
// panels, else oneDNN.
struct FloatLinears {
  static Tensor linear(const Linear& l, const Tensor& x, Activation act) {
    if (l.tiles.has_value()) {
      const bool relu = act == Activation::kRelu;
      Tensor y = attnmt::split_tile_linear(x, *l.tiles, l.b, l.n, std::nullopt, relu, l.tiles_model);
      return relu ? y : activate(y, act);
    }
    if (!l.panels.has_value()) {
      if (l.w->scalar_type() == at::kBFloat16) return bf16_linear(x, *l.w, l.b, std::nullopt, act);
      return ::linear(x, *l.w, l.b, act);
    }
    const bool relu = act == Activation::kRelu;
    Tensor y = attnmt::panel_linear(x, *l.panels, l.b, l.n, std::nullopt, relu);
    return relu ? y : activate(y, act);
  }
  static Tensor linear_add(const Linear& l, const Tensor& x, const Tensor& other) {
    if (l.tiles.has_value()) return attnmt::split_tile_linear(x, *l.tiles, l.b, l.n, other, false, l.tiles_model);
    if (!l.panels.has_value()) {
      if (l.w->scalar_type() == at::kBFloat16) return bf16_linear(x, *l.w, l.b, other, Activation::kNone);
      return ::linear_add(x, other, *l.w, l.b);
    }
    return attnmt::panel_linear(x, *l.panels, l.b, l.n, other, false);
  }
  static int64_t outputs(const Linear& l) { return l.panels.has_value() ? l.n : -1; }  // -1: oneDNN's output
  // x Wᵀ + b written into y (where `outputs` is not -1).
  static Tensor linear_into(const Linear& l, const Tensor& x, const Tensor& y) {
    if (l.tiles.has_value())
      return attnmt::split_tile_linear_into(x, *l.tiles, l.b, l.n, std::nullopt, false, l.tiles_model, y);
    return attnmt::panel_linear_into(x, *l.panels, l.b, l.n, std::nullopt, false, y);
  }
  // The output layer and beam search's choice (top_tokens.h): in one pass on the panels.
  static attnmt::TopTokens top(const Linear& l, const Tensor& x, int64_t k, at::IntArrayRef banned,
                       const std::optional<Tensor>& forced, at::IntArrayRef outside) {
    if (l.tiles.has_value())
      return attnmt::split_tile_top_log_probs(x, *l.tiles, l.b, l.n, k, banned, forced, l.tiles_model, outside);
    if (!l.panels.has_value())
      return attnmt::top_log_probs_forced(linear(l, x, Activation::kNone), k, banned, forced, outside);
    return attnmt::panel_top_log_probs(x, *l.panels, l.b, l.n, k, banned, forced, outside);
  }
};

// int8 linear layers: torch.ao's dynamically quantised Linear, its packed parameters run by fbgemm.
struct Int8Linears {
  static Tensor linear(const Linear& l, const Tensor& x, Activation act) { return activate(dynamic_int8(x, l.int8), act); }
  static Tensor linear_add(const Linear& l, const Tensor& x, const Tensor& other) {
    return dynamic_int8(x, l.int8).add_(other);
  }
  static int64_t outputs(const Linear&) { return -1; }  // fbgemm writes its own output
  static Tensor linear_into(const Linear&, const Tensor&, const Tensor&) {
    TORCH_CHECK(false, "fbgemm writes its own output");
  }
  static attnmt::TopTokens top(const Linear& l, const Tensor& x, int64_t k, at::IntArrayRef banned,
                       const std::optional<Tensor>& forced, at::IntArrayRef outside) {
    return attnmt::top_log_probs_forced(dynamic_int8(x, l.int8), k, banned, forced, outside);
  }
  // What torch.ao.nn.quantized.dynamic.Linear runs (reduce_range=True: 7-bit activations).
  static Tensor dynamic_int8(const Tensor& x, const c10::IValue& params) {
    static auto op = c10::Dispatcher::singleton().findSchemaOrThrow("quantized::linear_dynamic", "");
    torch::jit::Stack stack{x, params, true};
    op.callBoxed(&stack);
    return stack[0].toTensor();
  }
};

// int8 linear layers packed for the int8 panel kernels (int8_panels.cpp: AMX, AVX512-VNNI or AVX2).
struct Int8PanelLinears {
  static Tensor linear(const Linear& l, const Tensor& x, Activation act) {
    const bool relu = act == Activation::kRelu;
    Tensor y = attnmt::int8_linear(x, *l.int8_panels, std::nullopt, relu);
    return relu ? y : activate(y, act);
  }
  static Tensor linear_add(const Linear& l, const Tensor& x, const Tensor& other) {
    return attnmt::int8_linear(x, *l.int8_panels, other, false);
  }
  static int64_t outputs(const Linear& l) { return l.int8_panels->n; }
  static Tensor linear_into(const Linear& l, const Tensor& x, const Tensor& y) {
    return attnmt::int8_linear_into(x, *l.int8_panels, std::nullopt, false, y);
  }
  static attnmt::TopTokens top(const Linear& l, const Tensor& x, int64_t k, at::IntArrayRef banned,
                       const std::optional<Tensor>& forced, at::IntArrayRef outside) {
    return attnmt::int8_top_log_probs(x, *l.int8_panels, k, banned, forced, outside);
  }
};

// Everything the step reads of one inference copy's decoder (attnmt.fast.step.StepWeights), built
// once per model: the layers' weights set by field name (set_linear, set_norm, after add_layer
// for each layer), the output layer's as "output"; DecoderStep checks that none is missing.  The embedding (table [V, d]
// times `scale`, plus positions [P, d] where the model has them) and the final LayerNorm (pre-norm
// stacks) come with them, so that `decode` runs a whole decoding step in one call.  A table tied to the output
// layer's float32 panels comes as those panels, [ceil(V/16), d, 16] (pack_panels' layout: row v's element i at
// [v / 16][i][v % 16]), so that the inference copy holds the matrix once (attnmt.fast.panels.PanelEmbedding).
struct StepWeights : torch::CustomClassHolder {
  Linears linears;
  Norm norm;
  Activation activation;
  int64_t heads;
  double eps, scale;
  Tensor embedding;
  std::optional<Tensor> positions, final_gamma, final_beta;
  std::vector<Layer> layers;
  Linear output;

  StepWeights(int64_t linears_, int64_t norm_, int64_t activation_, int64_t heads_, double eps_, Tensor embedding_,
              std::optional<Tensor> positions_, double scale_, std::optional<Tensor> final_gamma_,
              std::optional<Tensor> final_beta_)
      : linears(static_cast<Linears>(linears_)), norm(static_cast<Norm>(norm_)),
        activation(static_cast<Activation>(activation_)), heads(heads_), eps(eps_), scale(scale_),
        embedding(embedding_.contiguous()), final_gamma(std::move(final_gamma_)), final_beta(std::move(final_beta_)) {
    TORCH_CHECK(0 <= linears_ && linears_ <= 2, "StepWeights: unknown Linears ", linears_);
    TORCH_CHECK(0 <= norm_ && norm_ <= 1, "StepWeights: unknown Norm ", norm_);
    TORCH_CHECK(1 <= activation_ && activation_ <= 3, "StepWeights: unknown Activation ", activation_);
    TORCH_CHECK(heads > 0 && (embedding.dim() == 2 || (embedding.dim() == 3 && embedding.size(2) == kPanel)) &&
                    embedding.size(1) % heads == 0 && embedding.scalar_type() == at::kFloat,
                "StepWeights: the embedding must be float [V, d] or panels [ceil(V/", kPanel, "), d, ", kPanel,
                "] with d a multiple of ", heads, " heads");
    if (positions_.has_value()) positions = positions_->contiguous();
    TORCH_CHECK(!positions.has_value() || (positions->dim() == 2 && positions->size(1) == embedding.size(1) &&
                                           positions->scalar_type() == at::kFloat),
                "StepWeights: the positions must be float [P, d]");
    TORCH_CHECK(final_gamma.has_value() == final_beta.has_value(), "StepWeights: the final LayerNorm needs γ and β");
  }

  void add_layer() { layers.emplace_back(); }

  // The last layer's linear layer `name` (a StepLayer field), or the output layer ("output").
  void set_linear(const std::string& name, const c10::IValue& weight, std::optional<Tensor> b,
                  std::optional<Tensor> panels, int64_t n) {
    Linear& l = name == "output" ? output : last_layer(name).*field(linear_fields(), name);
    l.n = n;
    if (linears == Linears::kInt8) l.int8 = weight;
    else if (linears == Linears::kInt8Panels) l.int8_panels = weight.toCustomClass<attnmt::Int8Panels>();
    else if (!weight.isNone()) l.w = weight.toTensor();
    l.b = std::move(b);
    l.panels = std::move(panels);
    l.tiles.reset();  // set_tiles gives them again, after this
    l.tiles_model = false;
  }

  // The layer `name` (as set_linear) multiplied on AMX's bf16 tiles from now on (split_tiles.h; `model`: on
  // their model): a float32 layer with panels, whose tiles pack_split_tiles made of them.
  void set_tiles(const std::string& name, Tensor tiles, bool model) {
    Linear& l = name == "output" ? output : last_layer(name).*field(linear_fields(), name);
    TORCH_CHECK(linears == Linears::kFloat && l.panels.has_value() && tiles.size(0) == l.panels->size(0),
                "StepWeights: ", name, "'s tiles need its float32 panels, set first");
    l.tiles = std::move(tiles);
    l.tiles_model = model;
  }

  // The last layer's LayerNorm `name` (a StepLayer field).
  void set_norm(const std::string& name, Tensor gamma, Tensor beta) {
    last_layer(name).*field(norm_fields(), name) = LayerNormWeights{gamma.contiguous(), beta.contiguous()};
  }

  // Refuses weights with a field never set, naming it.
  void check() const {
    for (size_t i = 0; i < layers.size(); ++i) {
      for (const auto& [name, member] : linear_fields()) check_linear(layers[i].*member, i, name);
      for (const auto& [name, member] : norm_fields())
        TORCH_CHECK((layers[i].*member).gamma.defined(), "StepWeights: layer ", i, "'s ", name, " was never set");
    }
    check_linear(output, layers.size(), "output");
    TORCH_CHECK(embedding.dim() == 2 || embedding.size(0) == (output.n + kPanel - 1) / kPanel,
                "StepWeights: embedding panels ", embedding.sizes(), " do not hold the output layer's ", output.n,
                " rows");
  }

  // How many token ids the embedding has rows for: the table's rows, or for panels the output layer's.
  int64_t vocab() const { return embedding.dim() == 2 ? embedding.size(0) : output.n; }

  // The self-attention cache's type: float32 beside float32 (or bf16) layers; float16 beside int8 ones,
  // whose arithmetic is already rounded to 8 bits and whose step then reads half the memory (at a
  // few dozen positions the cache's keys and values are most of what a step reads).
  at::ScalarType cache_type() const { return linears == Linears::kFloat ? at::kFloat : at::kHalf; }

 private:
  template <class Member>
  static Member field(const std::map<std::string, Member>& fields, const std::string& name) {
    const auto found = fields.find(name);
    TORCH_CHECK(found != fields.end(), "StepWeights: a decoder layer has no field ", name);
    return found->second;
  }

  Layer& last_layer(const std::string& name) {
    TORCH_CHECK(!layers.empty(), "StepWeights: add_layer before setting ", name);
    return layers.back();
  }

  void check_linear(const Linear& l, size_t layer, const std::string& name) const {
    const bool has = linears == Linears::kInt8 ? !l.int8.isNone()
                     : linears == Linears::kInt8Panels ? l.int8_panels.defined()
                                                 : l.w.has_value() || l.panels.has_value();
    TORCH_CHECK(l.n >= 0 && has, "StepWeights: ", name == "output" ? "the output layer" : "layer " + std::to_string(layer) + "'s " + name,
                " was never set");
  }
};

// x [N, d]: the new position of each of N rows.  self_k/self_v: per layer the cached keys/values
// [M, H, t, dk], or None before the first step, whose rows are `lineage` [M', t]'s (see history_of;
// None: the M blocks are the rows); parents [N]: where given, row r continues the cache's row
// parents[r] (beam search's reorder).  cross_k/cross_v: per layer [G, H, S, dk], N/G consecutive
// rows per sentence; cross_mask [G, S] bool.  weights_out, where given: filled with layer
// weights_layer's cross-attention weights [N, H, S] at this position (what a search records to align
// its output with the source without another pass).
// Returns [x, k_0, v_0, k_1, v_1, ..., lineage]: the stack's output [N, d], each layer's keys/values
// with this position appended (append_position; `room`: how many more positions to make room for
// when they must be copied) and the rows' lineage [N, t + 1] in them.  Every layer grows in its own
// buffer, or every layer is copied: they share the lineage.
// `Ops` (FloatLinears, Int8Linears or Int8PanelLinears) multiplies by the weights' linear layers.
template <class Ops>
std::vector<Tensor> step(const Ops& ops, const Tensor& x_in, const StepWeights& weights,
                         const std::vector<std::optional<Tensor>>& self_k,
                         const std::vector<std::optional<Tensor>>& self_v, const std::vector<Tensor>& cross_k,
                         const std::vector<Tensor>& cross_v, const Tensor& cross_mask, int64_t room,
                         const std::optional<Tensor>& parents_in, const std::optional<Tensor>& lineage_in,
                         const std::optional<Tensor>& weights_out, int64_t weights_layer) {
  const int64_t layers = static_cast<int64_t>(cross_k.size());
  TORCH_CHECK(static_cast<int64_t>(weights.layers.size()) == layers, "decoder_step: the model has ",
              weights.layers.size(), " decoder layers, the cache ", layers);
  const at::ScalarType cache_type = weights.cache_type();
  const bool norm_first = weights.norm == Norm::kPre;
  const int64_t heads = weights.heads;
  TORCH_CHECK(x_in.dim() == 2 && x_in.scalar_type() == at::kFloat, "decoder_step: x must be float [N, d]");
  TORCH_CHECK(cross_mask.scalar_type() == at::kBool && cross_mask.is_contiguous(),
              "decoder_step: cross_mask must be a contiguous bool [G, S]");
  TORCH_CHECK(static_cast<int64_t>(self_k.size()) == layers && static_cast<int64_t>(self_v.size()) == layers,
              "decoder_step: one cache per layer");
  const int64_t rows = x_in.size(0), d = x_in.size(1), dk = d / heads;
  const int64_t groups = cross_k.empty() ? 1 : cross_k[0].size(0);
  TORCH_CHECK(groups > 0 && rows % groups == 0, "decoder_step: ", rows, " rows do not split into ", groups,
              " sentence groups");
  Tensor x = x_in.contiguous();
  std::optional<Tensor> parents, lineage;
  if (parents_in.has_value()) {
    TORCH_CHECK(parents_in->dim() == 1 && parents_in->size(0) == rows && parents_in->scalar_type() == at::kLong,
                "decoder_step: parents must be int64 [", rows, "]");
    parents = parents_in->contiguous();
  }
  if (lineage_in.has_value()) {
    TORCH_CHECK(lineage_in->scalar_type() == at::kLong, "decoder_step: the lineage must be int64");
    lineage = lineage_in->contiguous();
  }
  const bool cached = layers > 0 && self_k[0].has_value();
  const int64_t t = cached ? self_k[0]->size(2) : 0, blocks = cached ? self_k[0]->size(0) : 0;
  for (int64_t l = 0; l < layers; ++l)
    TORCH_CHECK(self_k[l].has_value() == cached && self_v[l].has_value() == cached &&
                    (!cached || (self_k[l]->size(0) == blocks && self_k[l]->size(2) == t)),
                "decoder_step: every layer's cache must hold the same rows and positions");
  const Tensor history = history_of(lineage, parents, rows, t, cached ? blocks : rows);
  // Position t goes into each layer's own buffer where every one has room and is unshared
  // (room_after), holds a block for each row and is of cache_type; else every layer is copied.
  bool in_place = cached && rows <= blocks;
  for (int64_t l = 0; l < layers && in_place; ++l)
    in_place = room_after(self_k[l]) && room_after(self_v[l]) && self_k[l]->scalar_type() == cache_type &&
               self_v[l]->scalar_type() == cache_type;
  Tensor next_lineage = at::empty({rows, t + 1}, history.options());
  if (in_place) next_lineage.narrow(1, 0, t).copy_(history);
  else next_lineage.narrow(1, 0, t).copy_(at::arange(rows, history.options()).unsqueeze(1).expand({rows, t}));
  next_lineage.select(1, t).copy_(at::arange(rows, history.options()));
  const int64_t width = rows / groups;
  float* probs = nullptr;
  if (weights_out.has_value()) {
    TORCH_CHECK(0 <= weights_layer && weights_layer < layers, "decoder_step: no decoder layer ", weights_layer);
    const Tensor& o = *weights_out;
    TORCH_CHECK(o.scalar_type() == at::kFloat && o.is_contiguous() && o.dim() == 3 && o.size(0) == rows &&
                    o.size(1) == heads && o.size(2) == cross_k[weights_layer].size(2),
                "decoder_step: weights_out must be a contiguous float [", rows, ", ", heads, ", ",
                cross_k[weights_layer].size(2), "]");
    probs = o.data_ptr<float>();
  }
  std::vector<Tensor> result{Tensor()};
  auto norm = [&](const Tensor& t, const LayerNormWeights& n) { return layer_norm(t, n.gamma, n.beta, weights.eps); };
  for (int64_t l = 0; l < layers; ++l) {
    const Layer& w = weights.layers[l];
    // Self-attention over this row's earlier positions and itself.
    Tensor h = norm_first ? norm(x, w.self_norm) : x;
    Tensor qkv = ops.linear(w.self_qkv, h, Activation::kNone).contiguous();  // [N, 3d]: q | k | v
    Tensor heads_kv = qkv.view({rows, 3, heads, 1, dk});
    const Tensor k = append_position(self_k[l], heads_kv.select(1, 1), in_place, room, history, cache_type);
    const Tensor v = append_position(self_v[l], heads_kv.select(1, 2), in_place, room, history, cache_type);
    result.push_back(k);
    result.push_back(v);
    Tensor attended = at::empty({rows, d}, x.options());
    attend_one_query(qkv.data_ptr<float>(), 3 * d, k, v, nullptr, next_lineage.data_ptr<int64_t>(), rows, 1, heads,
                     dk, attended.data_ptr<float>());
    x = ops.linear_add(w.self_out, attended, x);
    if (!norm_first) x = norm(x, w.self_norm);
    // Cross-attention over the sentence's encoder keys/values.
    h = norm_first ? norm(x, w.cross_norm) : x;
    Tensor q = ops.linear(w.cross_q, h, Activation::kNone).contiguous();
    attend_one_query(q.data_ptr<float>(), d, cross_k[l], cross_v[l], cross_mask.data_ptr<bool>(), nullptr, rows,
                     width, heads, dk, attended.data_ptr<float>(), l == weights_layer ? probs : nullptr);
    x = ops.linear_add(w.cross_out, attended, x);
    if (!norm_first) x = norm(x, w.cross_norm);
    // Feed-forward.
    h = norm_first ? norm(x, w.ff_norm) : x;
    Tensor inner = ops.linear(w.ff1, h, weights.activation);
    x = ops.linear_add(w.ff2, inner, x);
    if (!norm_first) x = norm(x, w.ff_norm);
  }
  result[0] = x;
  result.push_back(next_lineage);
  return result;
}

// The step of one inference copy's decoder, over its StepWeights.  (Passing the weights to an
// operator at each step would convert them at each step, and converting a custom-class object, an
// int8 layer's, costs more than the step's arithmetic at a few rows.)
struct DecoderStep : torch::CustomClassHolder {
  c10::intrusive_ptr<StepWeights> weights;

  explicit DecoderStep(c10::intrusive_ptr<StepWeights> weights_) : weights(std::move(weights_)) { weights->check(); }

  // f(ops) with the Ops of the weights' Linears.
  template <class F>
  std::vector<Tensor> visit(F&& f) const {
    switch (weights->linears) {
      case Linears::kInt8: return f(Int8Linears{});
      case Linears::kInt8Panels: return f(Int8PanelLinears{});
      case Linears::kFloat: break;
    }
    return f(FloatLinears{});
  }

  // x [N, d], the caches, room, parents, lineage and weights_out as `step` takes them ->
  // [x, k_0, v_0, ..., lineage].
  std::vector<Tensor> operator()(const Tensor& x, const std::vector<std::optional<Tensor>>& self_k,
                                 const std::vector<std::optional<Tensor>>& self_v, const std::vector<Tensor>& cross_k,
                                 const std::vector<Tensor>& cross_v, const Tensor& cross_mask, int64_t room,
                                 const std::optional<Tensor>& parents, const std::optional<Tensor>& lineage,
                                 const std::optional<Tensor>& weights_out, int64_t weights_layer) const {
    return visit([&](const auto& ops) {
      return step(ops, x, *weights, self_k, self_v, cross_k, cross_v, cross_mask, room, parents, lineage, weights_out,
                  weights_layer);
    });
  }

  // tokens [N] (each row's newest token, at position `offset`), the rest as operator() ->
  // [logits [N, V], k_0, v_0, ...]: Transformer.decode for one position with a cache.  With k > 0,
  // beam search's choice in place of the logits, the output layer and the choice in one pass where the
  // layer has its own kernel (top_tokens.h: top_log_probs_of): [log-probs [N, k], tokens [N, k],
  // normalisers [N], the log-probs of forced's tokens [N] (NaN where it is -1 or absent), k_0, v_0, ...].
  std::vector<Tensor> decode(const Tensor& tokens, int64_t offset, const std::vector<std::optional<Tensor>>& self_k,
                             const std::vector<std::optional<Tensor>>& self_v, const std::vector<Tensor>& cross_k,
                             const std::vector<Tensor>& cross_v, const Tensor& cross_mask, int64_t room,
                             const std::optional<Tensor>& parents, const std::optional<Tensor>& lineage,
                             const std::optional<Tensor>& weights_out, int64_t weights_layer, int64_t k = 0,
                             at::IntArrayRef banned = {}, const std::optional<Tensor>& forced = std::nullopt,
                             at::IntArrayRef outside = {}) const {
    const Tensor x = embed(tokens, offset);
    return visit([&](const auto& ops) {
      std::vector<Tensor> out =
          step(ops, x, *weights, self_k, self_v, cross_k, cross_v, cross_mask, room, parents, lineage, weights_out,
               weights_layer);
      const StepWeights& w = *weights;
      if (w.final_gamma.has_value()) out[0] = layer_norm(out[0], *w.final_gamma, *w.final_beta, w.eps);
      if (k > 0) {
        auto [values, ids, normaliser, picked] = ops.top(w.output, out[0], k, banned, forced, outside);
        out[0] = values;
        out.insert(out.begin() + 1, {ids, normaliser, picked});
        return out;
      }
      const int64_t columns = ops.outputs(w.output);
      if (columns < 0) {
        out[0] = ops.linear(w.output, out[0], Activation::kNone);
      } else {
        Tensor logits = BufferPool::instance().empty({out[0].size(0), columns}, at::kFloat, Pooled::kLogits);
        out[0] = ops.linear_into(w.output, out[0], logits);
      }
      return out;
    });
  }

  // x [N, d] = embedding[tokens] · scale + positions[offset], as Transformer.embed in eval mode.
  Tensor embed(const Tensor& tokens_in, int64_t offset) const {
    const Tensor& embedding = weights->embedding;
    const std::optional<Tensor>& positions = weights->positions;
    TORCH_CHECK(tokens_in.dim() == 1 && tokens_in.scalar_type() == at::kLong, "DecoderStep: tokens must be int64 [N]");
    TORCH_CHECK(!positions.has_value() || (0 <= offset && offset < positions->size(0)), "DecoderStep: position ",
                offset, " is beyond the ", positions.has_value() ? positions->size(0) : 0, " the model has");
    const Tensor tokens = tokens_in.contiguous();
    const int64_t rows = tokens.size(0), vocab = weights->vocab(), d = embedding.size(1);
    const bool panels = embedding.dim() == 3;
    Tensor x = at::empty({rows, d}, embedding.options());
    const int64_t* ids = tokens.data_ptr<int64_t>();
    const float* table = embedding.data_ptr<float>();
    const float* pe = positions.has_value() ? positions->data_ptr<float>() + offset * d : nullptr;
    const float s = static_cast<float>(weights->scale);  // as PyTorch multiplies a float32 tensor by a Python float
    float* out = x.data_ptr<float>();
    for (int64_t r = 0; r < rows; ++r) {
      TORCH_CHECK(0 <= ids[r] && ids[r] < vocab, "DecoderStep: token ", ids[r], " is outside the vocabulary of ", vocab);
      float* o = out + r * d;
      if (panels) {  // row v's element i at [v / 16][i][v % 16]: 16 floats apart
        const float* e = table + ids[r] / kPanel * d * kPanel + ids[r] % kPanel;
        if (pe != nullptr)
          for (int64_t i = 0; i < d; ++i) o[i] = e[i * kPanel] * s + pe[i];
        else
          for (int64_t i = 0; i < d; ++i) o[i] = e[i * kPanel] * s;
      } else {
        const float* e = table + ids[r] * d;
        if (pe != nullptr)
          for (int64_t i = 0; i < d; ++i) o[i] = e[i] * s + pe[i];
        else
          for (int64_t i = 0; i < d; ++i) o[i] = e[i] * s;
      }
    }
    return x;
  }
};

}  // namespace

TORCH_LIBRARY(attnmt, m) {
  // What the BufferPool keeps: the byte sizes of each kind's free buffers; release() frees them all.
  m.def("kept_key_value_bytes() -> int[]", []() { return BufferPool::instance().kept_sizes(Pooled::kKeysValues); });
  m.def("kept_logits_bytes() -> int[]", []() { return BufferPool::instance().kept_sizes(Pooled::kLogits); });
  m.def("release_kept_buffers() -> ()", []() { BufferPool::instance().release(); });
  m.class_<StepWeights>("StepWeights")
      .def(torch::init<int64_t, int64_t, int64_t, int64_t, double, Tensor, std::optional<Tensor>, double,
                       std::optional<Tensor>, std::optional<Tensor>>())
      .def("add_layer", &StepWeights::add_layer)
      .def("set_linear", &StepWeights::set_linear)
      .def("set_norm", &StepWeights::set_norm)
      .def("set_tiles", &StepWeights::set_tiles);
  m.class_<DecoderStep>("DecoderStep")
      .def(torch::init<c10::intrusive_ptr<StepWeights>>())
      .def("step", [](const c10::intrusive_ptr<DecoderStep>& self, const Tensor& x,
                      const std::vector<std::optional<Tensor>>& self_k, const std::vector<std::optional<Tensor>>& self_v,
                      const std::vector<Tensor>& cross_k, const std::vector<Tensor>& cross_v,
                      const Tensor& cross_mask, int64_t room, const std::optional<Tensor>& parents,
                      const std::optional<Tensor>& lineage, const std::optional<Tensor>& weights_out,
                      int64_t weights_layer) {
        return (*self)(x, self_k, self_v, cross_k, cross_v, cross_mask, room, parents, lineage, weights_out, weights_layer);
      })
      .def("decode", [](const c10::intrusive_ptr<DecoderStep>& self, const Tensor& tokens, int64_t offset,
                        const std::vector<std::optional<Tensor>>& self_k,
                        const std::vector<std::optional<Tensor>>& self_v, const std::vector<Tensor>& cross_k,
                        const std::vector<Tensor>& cross_v, const Tensor& cross_mask, int64_t room,
                        const std::optional<Tensor>& parents, const std::optional<Tensor>& lineage,
                        const std::optional<Tensor>& weights_out, int64_t weights_layer) {
        return self->decode(tokens, offset, self_k, self_v, cross_k, cross_v, cross_mask, room, parents, lineage, weights_out, weights_layer);
      })
      .def("decode_top", [](const c10::intrusive_ptr<DecoderStep>& self, const Tensor& tokens, int64_t offset,
                            const std::vector<std::optional<Tensor>>& self_k,
                            const std::vector<std::optional<Tensor>>& self_v, const std::vector<Tensor>& cross_k,
                            const std::vector<Tensor>& cross_v, const Tensor& cross_mask, int64_t room,
                            const std::optional<Tensor>& parents, const std::optional<Tensor>& lineage,
                            const std::optional<Tensor>& weights_out, int64_t weights_layer, int64_t k,
                            std::vector<int64_t> banned, const std::optional<Tensor>& forced,
                            std::vector<int64_t> outside) {
        TORCH_CHECK(k > 0, "decode_top: k must be positive");
        return self->decode(tokens, offset, self_k, self_v, cross_k, cross_v, cross_mask, room, parents, lineage,
                            weights_out, weights_layer, k, banned, forced, outside);
      });
}
