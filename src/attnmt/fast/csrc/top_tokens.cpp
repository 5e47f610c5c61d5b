// The next tokens from a decoding step's logits [N, V], without writing [N, V] out again:
// beam search's candidates (top_log_probs: the k best under log_softmax, and the normaliser)
// and greedy search's choice (best_tokens: each row's largest logit).  Both skip the
// tokens a search bans (pad, BOS, EOS before min_len) and search only the chunks of 64
// logits whose maxima can hold the answer, as attnmt.decoding.next_tokens.row_top_k does.
// top_log_probs_of chooses beam search's candidates from an output layer's kernel without the
// logits ever written whole: block by block, as the kernel writes them (top_tokens.h).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/library.h>

#include "exp_nonpositive.h"
#include "float_panels.h"
#include "top_tokens.h"

#include <algorithm>
#if defined(__AVX2__)
#include <immintrin.h>
#endif
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using at::Tensor;

using attnmt::exp_nonpositive;

constexpr int64_t kChunk = 64;

// maxima[c] = max of x[c·64 .. c·64 + 63] for the n_chunks chunks of x [n] (the last may be partial).
// Inlined into the two builds below; inlined into the row loop itself, GCC leaves these loops scalar.
__attribute__((always_inline)) inline void chunk_maxima_body(const float* x, int64_t n, float* maxima) {
  const int64_t full = n / kChunk;
  constexpr int lanes = 16;  // lane-wise maxima vectorise; a max reduction (NaN rules) does not
  for (int64_t c = 0; c < full; ++c) {
    const float* chunk = x + c * kChunk;
    float m[lanes];
    for (int j = 0; j < lanes; ++j) m[j] = chunk[j];
    for (int64_t i = lanes; i < kChunk; i += lanes)
      for (int j = 0; j < lanes; ++j) m[j] = chunk[i + j] > m[j] ? chunk[i + j] : m[j];
    maxima[c] = *std::max_element(m, m + lanes);
  }
  if (full * kChunk < n) maxima[full] = *std::max_element(x + full * kChunk, x + n);
}

// Σ exp(x_i − top) for x [n] with every x_i <= top: blocks summed in float, the blocks' sums in
// double, so that 8,000 terms are summed as accurately as log_softmax does.
__attribute__((always_inline)) inline double sum_exp_body(const float* x, int64_t n, float top) {
  constexpr int64_t block = 512;
  double total = 0.0;
  for (int64_t lo = 0; lo < n; lo += block) {
    const int64_t hi = std::min(n, lo + block);
    float part = 0.f;
#pragma omp simd reduction(+ : part)
    for (int64_t i = lo; i < hi; ++i) part += exp_nonpositive(x[i] - top);
    total += part;
  }
  return total;
}

// The two passes over a row, built for the extension's target (AVX2) and for AVX-512, which they
// run where the float32 panels do (attnmt::avx512_panels: the CPU has it and ATEN_CPU_CAPABILITY
// allows it).  16 lanes where 8 were: 3.8 -> 2.7 ms for 136 rows of 58,101 logits on an AMD EPYC (Zen 5).
__attribute__((noinline)) void chunk_maxima_avx2(const float* x, int64_t n, float* maxima) {
  chunk_maxima_body(x, n, maxima);
}
__attribute__((noinline)) double sum_exp_avx2(const float* x, int64_t n, float top) { return sum_exp_body(x, n, top); }

#if defined(__x86_64__)
#define ATTNMT_TOP_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,prefer-vector-width=512")))
ATTNMT_TOP_AVX512 __attribute__((noinline)) void chunk_maxima_avx512(const float* x, int64_t n, float* maxima) {
  chunk_maxima_body(x, n, maxima);
}
ATTNMT_TOP_AVX512 __attribute__((noinline)) double sum_exp_avx512(const float* x, int64_t n, float top) {
  return sum_exp_body(x, n, top);
}
#endif

void chunk_maxima(const float* x, int64_t n, float* maxima) {
#if defined(__x86_64__)
  if (attnmt::avx512_panels()) return chunk_maxima_avx512(x, n, maxima);
#endif
  chunk_maxima_avx2(x, n, maxima);
}

double sum_exp(const float* x, int64_t n, float top) {
#if defined(__x86_64__)
  if (attnmt::avx512_panels()) return sum_exp_avx512(x, n, top);
#endif
  return sum_exp_avx2(x, n, top);
}

// Keeps the `size` best (value, index) pairs seen, best first (ties: lower index first).
struct Best {
  std::vector<std::pair<float, int64_t>> items;
  size_t size;
  explicit Best(size_t n) : size(n) { items.reserve(n + 1); }
  void clear() { items.clear(); }
  void offer(float value, int64_t index) {
    if (items.size() == size && !(value > items.back().first)) return;  // the usual case: one comparison
    auto at = std::upper_bound(items.begin(), items.end(), value,
                               [](float v, const std::pair<float, int64_t>& item) { return v > item.first; });
    items.insert(at, {value, index});
    if (items.size() > size) items.pop_back();
  }
};

// Offers `best` each token j in [lo, hi) of the logits x that is not banned, in order, as
// `if (!is_banned[base + j]) best.offer(x[j], base + j)` would, token id base + j.  Once `best` is
// full, most logits of a searched chunk are below its last item: 8 logits at a time are compared
// with that item, and only those above it are offered (a NaN is never above, as offer never takes
// one into a full list).  The same tokens, in the same order, as the loop alone.  Logits with a NaN
// (a broken model) get some choice, not a specified one: offer can take a NaN into a list not yet
// full, and a chunk's maximum can be NaN.
inline void offer_range(Best& best, const float* x, int64_t lo, int64_t hi, int64_t base, const char* is_banned) {
  int64_t j = lo;
#if defined(__AVX2__)
  for (; j + 8 <= hi; j += 8) {
    unsigned mask = 0xFF;  // a list not yet full is offered all 8
    if (best.items.size() == best.size)
      mask = _mm256_movemask_ps(
          _mm256_cmp_ps(_mm256_loadu_ps(x + j), _mm256_set1_ps(best.items.back().first), _CMP_GT_OQ));
    for (; mask != 0; mask &= mask - 1) {
      const int64_t i = j + __builtin_ctz(mask);
      if (!is_banned[base + i]) best.offer(x[i], base + i);
    }
  }
#endif
  for (; j < hi; ++j)
    if (!is_banned[base + j]) best.offer(x[j], base + j);
}

// The chunks chosen for the search, in the order of their tokens' ids (`order` holds them): searched in
// that order, a value tied with the k-th best is taken from the lowest id, as a stable sort takes it.
// In the order of their maxima, a chunk with a larger maximum could fill the last place with its tie
// before a chunk of lower ids was searched.
const std::vector<int64_t>& in_id_order(const Best& chunks, std::vector<int64_t>& order) {
  order.clear();
  for (const auto& chunk : chunks.items) order.push_back(chunk.second);
  std::sort(order.begin(), order.end());
  return order;
}

// Which tokens of a V-token vocabulary are never chosen (those in `banned` and `outside`), checked
// once per call.
std::vector<char> banned_mask(at::IntArrayRef banned, int64_t vocab, const char* caller, at::IntArrayRef outside = {}) {
  std::vector<char> is_banned(vocab, 0);
  for (at::IntArrayRef ids : {banned, outside})
    for (int64_t b : ids) {
      TORCH_CHECK(0 <= b && b < vocab, caller, ": banned token ", b, " is outside the vocabulary");
      is_banned[b] = 1;
    }
  return is_banned;
}

// How many tokens `is_banned` holds: the tokens k candidates cannot come from.
int64_t count_banned(const std::vector<char>& is_banned) {
  return std::count(is_banned.begin(), is_banned.end(), 1);
}

// Each row's most likely token [N] (its largest logit; ties: the lowest id), never one in `banned`.
// Greedy search's choice: no normaliser needed.
Tensor best_tokens(const Tensor& logits_in, at::IntArrayRef banned) {
  TORCH_CHECK(logits_in.dim() == 2 && logits_in.scalar_type() == at::kFloat, "best_tokens: logits must be float [N, V]");
  const Tensor logits = logits_in.contiguous();
  const int64_t rows = logits.size(0), vocab = logits.size(1);
  TORCH_CHECK(static_cast<int64_t>(banned.size()) < vocab, "best_tokens: every token of the vocabulary is banned");
  const int64_t n_chunks = (vocab + kChunk - 1) / kChunk;
  const int64_t searched = std::min<int64_t>(n_chunks, 1 + static_cast<int64_t>(banned.size()));
  Tensor tokens = at::empty({rows}, logits.options().dtype(at::kLong));
  const float* in = logits.data_ptr<float>();
  int64_t* out = tokens.data_ptr<int64_t>();
  const std::vector<char> is_banned = banned_mask(banned, vocab, "best_tokens");
  at::parallel_for(0, rows, std::max<int64_t>(1, 32768 / vocab), [&](int64_t begin, int64_t end) {
    std::vector<float> maxima(n_chunks);
    std::vector<int64_t> order;
    Best chunks(searched), best(1);
    for (int64_t r = begin; r < end; ++r) {
      const float* x = in + r * vocab;
      chunk_maxima(x, vocab, maxima.data());
      chunks.clear();
      for (int64_t c = 0; c < n_chunks; ++c) chunks.offer(maxima[c], c);
      best.clear();
      for (int64_t c : in_id_order(chunks, order)) {
        const int64_t lo = c * kChunk;
        offer_range(best, x, lo, std::min(vocab, lo + kChunk), 0, is_banned.data());
      }
      TORCH_CHECK(!best.items.empty(), "best_tokens: a row has no token to choose (NaN logits?)");
      out[r] = best.items.front().second;
    }
  });
  return tokens;
}

}  // namespace

namespace attnmt {

// Beam search's candidates, without writing the [N, V] log-probabilities out: for each
// row of logits [N, V], the k tokens with the highest log_softmax, best first, among the
// tokens not in `banned` (which still count in the normaliser) nor `outside` (which do not: a
// copy of the row with them at -inf is read), their log-probabilities, and the row's normaliser
// log Σ_v exp(logit_v).  As attnmt.decoding.next_tokens.row_top_k, the k best lie in the
// k + |banned| chunks of 64 with the highest maxima (a banned token can hold a chunk's maximum),
// so only those chunks are searched.
std::tuple<Tensor, Tensor, Tensor> top_log_probs(const Tensor& logits_in, int64_t k, at::IntArrayRef banned,
                                                 at::IntArrayRef outside) {
  TORCH_CHECK(logits_in.dim() == 2 && logits_in.scalar_type() == at::kFloat, "top_log_probs: logits must be float [N, V]");
  const Tensor logits = logits_in.contiguous();
  const int64_t rows = logits.size(0), vocab = logits.size(1);
  const std::vector<char> is_banned = banned_mask(banned, vocab, "top_log_probs", outside);
  const int64_t n_banned = count_banned(is_banned);
  TORCH_CHECK(k >= 1 && k + n_banned <= vocab, "top_log_probs: k=", k, " with ",
              n_banned, " banned tokens exceeds the vocabulary of ", vocab);
  const int64_t n_chunks = (vocab + kChunk - 1) / kChunk;
  const int64_t searched = std::min<int64_t>(n_chunks, k + n_banned);
  Tensor values = at::empty({rows, k}, logits.options());
  Tensor tokens = at::empty({rows, k}, logits.options().dtype(at::kLong));
  Tensor normaliser = at::empty({rows}, logits.options());
  const float* in = logits.data_ptr<float>();
  float* out_v = values.data_ptr<float>();
  int64_t* out_t = tokens.data_ptr<int64_t>();
  float* out_n = normaliser.data_ptr<float>();
  at::parallel_for(0, rows, std::max<int64_t>(1, 32768 / vocab), [&](int64_t begin, int64_t end) {
    std::vector<float> maxima(n_chunks);
    std::vector<float> row(outside.empty() ? 0 : vocab);  // the row with its tokens outside at -inf
    std::vector<int64_t> order;
    Best chunks(searched), best(k);
    for (int64_t r = begin; r < end; ++r) {
      const float* x = in + r * vocab;
      if (!outside.empty()) {
        std::memcpy(row.data(), x, vocab * sizeof(float));
        for (int64_t t : outside) row[t] = -std::numeric_limits<float>::infinity();
        x = row.data();
      }
      chunk_maxima(x, vocab, maxima.data());
      chunks.clear();
      for (int64_t c = 0; c < n_chunks; ++c) chunks.offer(maxima[c], c);
      const float top = chunks.items.front().first;
      const float log_sum = static_cast<float>(std::log(sum_exp(x, vocab, top)));
      best.clear();
      for (int64_t c : in_id_order(chunks, order)) {
        const int64_t lo = c * kChunk;
        offer_range(best, x, lo, std::min(vocab, lo + kChunk), 0, is_banned.data());
      }
      TORCH_CHECK(static_cast<int64_t>(best.items.size()) == k, "top_log_probs: fewer than k tokens to choose from");
      for (int64_t j = 0; j < k; ++j) {
        out_v[r * k + j] = (best.items[j].first - top) - log_sum;
        out_t[r * k + j] = best.items[j].second;
      }
      out_n[r] = top + log_sum;
    }
  });
  return {values, tokens, normaliser};
}


}  // namespace attnmt

namespace attnmt {

// forced [rows] as int64 ids (-1: none), checked; empty where there is none.
std::vector<int64_t> forced_ids(const std::optional<Tensor>& forced, int64_t rows, int64_t n) {
  if (!forced.has_value()) return {};
  TORCH_CHECK(forced->dim() == 1 && forced->size(0) == rows, "top_log_probs: forced must be [", rows, "]");
  const Tensor ids = forced->to(at::kLong).contiguous();
  std::vector<int64_t> out(ids.data_ptr<int64_t>(), ids.data_ptr<int64_t>() + rows);
  for (int64_t id : out) TORCH_CHECK(-1 <= id && id < n, "top_log_probs: forced token ", id, " is outside the vocabulary");
  return out;
}

TopTokens top_log_probs_forced(const Tensor& logits, int64_t k, at::IntArrayRef banned,
                               const std::optional<Tensor>& forced, at::IntArrayRef outside) {
  auto [values, tokens, normaliser] = top_log_probs(logits, k, banned, outside);
  const int64_t rows = logits.size(0);
  Tensor picked = at::full({rows}, std::numeric_limits<float>::quiet_NaN(), values.options());
  const std::vector<int64_t> ids = forced_ids(forced, rows, logits.size(1));
  for (int64_t r = 0; r < static_cast<int64_t>(ids.size()); ++r)
    if (ids[r] >= 0) picked[r] = logits[r][ids[r]] - normaliser[r];
  return {values, tokens, normaliser, picked};
}

TopTokens top_log_probs_of(int64_t rows, int64_t n, int64_t count, const ColumnPairs& pairs, int64_t k,
                           at::IntArrayRef banned, const std::optional<Tensor>& forced, at::IntArrayRef outside) {
  const std::vector<char> is_banned = banned_mask(banned, n, "top_log_probs", outside);
  const int64_t n_banned = count_banned(is_banned);
  TORCH_CHECK(k >= 1 && k + n_banned <= n, "top_log_probs: k=", k, " with ",
              n_banned, " banned tokens exceeds the vocabulary of ", n);
  const std::vector<int64_t> ids = forced_ids(forced, rows, n);
  std::vector<float> picked(rows, std::numeric_limits<float>::quiet_NaN());  // forced tokens' logits
  constexpr int64_t kPairColumns = 32;
  constexpr float kNone = -std::numeric_limits<float>::infinity();
  // One slice of the pairs per thread (a few dozen pairs at least), each with its rows' largest
  // logit, Σ exp(logit − largest) and k best: [slice · rows + row].
  const int64_t slices = std::max<int64_t>(1, std::min<int64_t>(at::get_num_threads(), count / 32));
  // Pairs a block: the block's logits, [rows, 32 · block] floats, about 256 KiB, stay in the core's cache.
  const int64_t block = std::clamp<int64_t>((int64_t{1} << 16) / (std::max<int64_t>(rows, 1) * kPairColumns), 1, 64);
  std::vector<float> tops(slices * rows, kNone);
  std::vector<double> sums(slices * rows, 0.0);
  std::vector<Best> bests(slices * rows, Best(k));
  at::parallel_for(0, slices, 1, [&](int64_t begin, int64_t end) {
    const int64_t ld = block * kPairColumns;
    std::vector<float> logits(rows * ld);
    std::vector<float> maxima((ld + kChunk - 1) / kChunk);
    for (int64_t s = begin; s < end; ++s) {
      const int64_t first = count * s / slices, last = count * (s + 1) / slices;
      for (int64_t p = first; p < last; p += block) {
        const int64_t col = p * kPairColumns, columns = std::min(n, std::min(last, p + block) * kPairColumns) - col;
        if (columns <= 0) break;
        pairs(p, std::min(last, p + block), logits.data(), ld);
        const int64_t n_chunks = (columns + kChunk - 1) / kChunk;
        for (int64_t r = 0; r < rows; ++r) {
          float* x = logits.data() + r * ld;
          const int64_t at = s * rows + r;
          if (!ids.empty() && col <= ids[r] && ids[r] < col + columns) picked[r] = x[ids[r] - col];  // one block has it
          for (int64_t t : outside)  // no probability: out of the largest logit and the sum
            if (col <= t && t < col + columns) x[t - col] = kNone;
          chunk_maxima(x, columns, maxima.data());
          const float largest = *std::max_element(maxima.data(), maxima.data() + n_chunks);
          if (largest > tops[at]) {  // the sum so far, relative to the new largest logit
            if (sums[at] > 0.0) sums[at] *= std::exp(static_cast<double>(tops[at]) - static_cast<double>(largest));
            tops[at] = largest;
          }
          sums[at] += sum_exp(x, columns, tops[at]);
          Best& best = bests[at];
          for (int64_t c = 0; c < n_chunks; ++c) {
            if (best.items.size() == best.size && !(maxima[c] > best.items.back().first)) continue;
            offer_range(best, x, c * kChunk, std::min(columns, (c + 1) * kChunk), col, is_banned.data());
          }
        }
      }
    }
  });
  Tensor values = at::empty({rows, k}, at::kFloat);
  Tensor tokens = at::empty({rows, k}, at::kLong);
  Tensor normaliser = at::empty({rows}, at::kFloat);
  Tensor forced_log_probs = at::empty({rows}, at::kFloat);
  float* out_v = values.data_ptr<float>();
  int64_t* out_t = tokens.data_ptr<int64_t>();
  float* out_n = normaliser.data_ptr<float>();
  float* out_f = forced_log_probs.data_ptr<float>();
  Best merged(k);
  for (int64_t r = 0; r < rows; ++r) {
    float top = kNone;
    for (int64_t s = 0; s < slices; ++s) top = std::max(top, tops[s * rows + r]);
    double total = 0.0;
    merged.clear();
    for (int64_t s = 0; s < slices; ++s) {  // the slices in column order: ties keep the lower id first
      const int64_t at = s * rows + r;
      if (sums[at] > 0.0) total += sums[at] * std::exp(static_cast<double>(tops[at]) - static_cast<double>(top));
      for (const auto& item : bests[at].items) merged.offer(item.first, item.second);
    }
    TORCH_CHECK(static_cast<int64_t>(merged.items.size()) == k, "top_log_probs: fewer than k tokens to choose from");
    const float log_sum = static_cast<float>(std::log(total));
    for (int64_t j = 0; j < k; ++j) {
      out_v[r * k + j] = (merged.items[j].first - top) - log_sum;
      out_t[r * k + j] = merged.items[j].second;
    }
    out_n[r] = top + log_sum;
    out_f[r] = (picked[r] - top) - log_sum;  // NaN where no token is forced
  }
  return {values, tokens, normaliser, forced_log_probs};
}

}  // namespace attnmt

TORCH_LIBRARY_FRAGMENT(attnmt, m) {
  m.def("top_log_probs(Tensor logits, int k, int[] banned, int[] outside=[]) -> (Tensor, Tensor, Tensor)",
        &attnmt::top_log_probs);
  m.def("best_tokens(Tensor logits, int[] banned) -> Tensor", &best_tokens);
}
