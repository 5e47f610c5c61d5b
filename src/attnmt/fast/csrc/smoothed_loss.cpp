// Training's output loss for a block of rows of logits, in one parallel pass over the rows
// (attnmt.training.objective.OutputLoss): each row's label-smoothed cross-entropy and, where asked,
// its gradient with respect to the logits but for the constant -ε/V,
//     softmax(l) - (1-ε)·onehot(target),
// written as float32 or rounded once to bfloat16.  A row is read from the matmul's output (float32
// or bfloat16), its exps kept in a float32 row that stays in cache, and the gradient written from
// them: the work that PyTorch's ops do in a copy to float32, an in-place log_softmax, an exp, a
// scatter and a copy back to bfloat16, each a pass over the whole block.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <torch/library.h>

#include "bfloat16_io.h"

#include "exp_nonpositive.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace {

using at::Tensor;
using attnmt::store;
using attnmt::to_float;
using attnmt::exp_nonpositive;

constexpr int kLanes = 16;  // partial maxima and sums, lane by lane: reductions GCC vectorises

// row[j] = logits[j] + bias[j] (bias may be null), as float32; returns (max, sum) of row.
template <typename In>
__attribute__((noinline)) void load_row(const In* logits, const float* bias, int64_t v, float* row, float* max_out,
                                        float* sum_out) {
  if (bias != nullptr)
    for (int64_t j = 0; j < v; ++j) row[j] = to_float(logits[j]) + bias[j];
  else
    for (int64_t j = 0; j < v; ++j) row[j] = to_float(logits[j]);
  float m[kLanes], s[kLanes];
  for (int l = 0; l < kLanes; ++l) m[l] = -std::numeric_limits<float>::infinity(), s[l] = 0.f;
  const int64_t full = v / kLanes * kLanes;
  for (int64_t j = 0; j < full; j += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      m[l] = row[j + l] > m[l] ? row[j + l] : m[l];
      s[l] += row[j + l];
    }
  for (int64_t j = full; j < v; ++j) {
    m[0] = row[j] > m[0] ? row[j] : m[0];
    s[0] += row[j];
  }
  float best = m[0], total = 0.f;
  for (int l = 0; l < kLanes; ++l) best = std::max(best, m[l]), total += s[l];
  *max_out = best;
  *sum_out = total;
}

// row[j] = exp(row[j] - shift); returns their sum.
__attribute__((noinline)) float exp_row(float* row, int64_t v, float shift) {
  float s[kLanes] = {};
  const int64_t full = v / kLanes * kLanes;
  for (int64_t j = 0; j < full; j += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      row[j + l] = exp_nonpositive(row[j + l] - shift);
      s[l] += row[j + l];
    }
  float total = 0.f;
  for (int64_t j = full; j < v; ++j) {
    row[j] = exp_nonpositive(row[j] - shift);
    total += row[j];
  }
  for (int l = 0; l < kLanes; ++l) total += s[l];
  return total;
}

template <typename Out>
__attribute__((noinline)) void write_row(const float* row, int64_t v, float scale, Out* out) {
  for (int64_t j = 0; j < v; ++j) store(out + j, row[j] * scale);
}

template <typename In, typename Out>
void rows_loss(const Tensor& logits, const float* bias, const int64_t* target, double epsilon, Out* gradient,
               float* losses) {
  const int64_t n = logits.size(0), v = logits.size(1);
  const In* data = logits.const_data_ptr<In>();
  const float eps = static_cast<float>(epsilon);
  at::parallel_for(0, n, 8, [&](int64_t begin, int64_t end) {
    std::vector<float> row(v);
    for (int64_t r = begin; r < end; ++r) {
      float top, sum;
      load_row(data + r * v, bias, v, row.data(), &top, &sum);
      const int64_t t = target[r];
      const float picked = row[t];
      const float normaliser = exp_row(row.data(), v, top);
      const float log_total = top + std::log(normaliser);  // log Σ exp(l)
      // (1-ε)·(-log p_t) + ε·(cross-entropy against uniform) = (1-ε)(lse - l_t) + ε(lse - mean l)
      losses[r] = (1.f - eps) * (log_total - picked) + eps * (log_total - sum / static_cast<float>(v));
      if (gradient != nullptr) {
        Out* out = gradient + r * v;
        const float inverse = 1.f / normaliser;
        const float p_t = row[t] * inverse;
        write_row(row.data(), v, inverse, out);
        store(out + t, p_t - (1.f - eps));
      }
    }
  });
}

// Per-row smoothed losses [n] (float32) of logits [n, V] (+ bias [V]) against target [n]; with
// `gradient` ([n, V], float32 or bfloat16, may be `logits` itself), the logits' gradient written there.
Tensor smoothed_loss_rows(const Tensor& logits, const std::optional<Tensor>& bias, const Tensor& target,
                          double epsilon, const std::optional<Tensor>& gradient) {
  TORCH_CHECK(logits.dim() == 2 && logits.is_contiguous() && logits.device().is_cpu(),
              "smoothed_loss_rows: contiguous CPU logits [n, V]");
  TORCH_CHECK(logits.scalar_type() == at::kFloat || logits.scalar_type() == at::kBFloat16,
              "smoothed_loss_rows: float32 or bfloat16 logits, got ", logits.scalar_type());
  const int64_t n = logits.size(0), v = logits.size(1);
  TORCH_CHECK(target.scalar_type() == at::kLong && target.is_contiguous() && target.numel() == n,
              "smoothed_loss_rows: int64 target [n]");
  const int64_t* t = target.const_data_ptr<int64_t>();
  for (int64_t r = 0; r < n; ++r) TORCH_CHECK(t[r] >= 0 && t[r] < v, "smoothed_loss_rows: target out of range");
  const float* b = nullptr;
  if (bias.has_value()) {
    TORCH_CHECK(bias->scalar_type() == at::kFloat && bias->is_contiguous() && bias->numel() == v,
                "smoothed_loss_rows: float32 bias [V]");
    b = bias->const_data_ptr<float>();
  }
  Tensor losses = at::empty({n}, logits.options().dtype(at::kFloat));
  float* l = losses.mutable_data_ptr<float>();
  const bool bf16_in = logits.scalar_type() == at::kBFloat16;
  if (!gradient.has_value()) {
    if (bf16_in)
      rows_loss<c10::BFloat16, float>(logits, b, t, epsilon, nullptr, l);
    else
      rows_loss<float, float>(logits, b, t, epsilon, nullptr, l);
    return losses;
  }
  TORCH_CHECK(gradient->is_contiguous() && gradient->sizes() == logits.sizes(),
              "smoothed_loss_rows: a contiguous gradient of the logits' shape");
  if (gradient->scalar_type() == at::kBFloat16) {
    c10::BFloat16* g = gradient->mutable_data_ptr<c10::BFloat16>();
    if (bf16_in)
      rows_loss<c10::BFloat16, c10::BFloat16>(logits, b, t, epsilon, g, l);
    else
      rows_loss<float, c10::BFloat16>(logits, b, t, epsilon, g, l);
  } else {
    TORCH_CHECK(gradient->scalar_type() == at::kFloat, "smoothed_loss_rows: a float32 or bfloat16 gradient");
    float* g = gradient->mutable_data_ptr<float>();
    if (bf16_in)
      rows_loss<c10::BFloat16, float>(logits, b, t, epsilon, g, l);
    else
      rows_loss<float, float>(logits, b, t, epsilon, g, l);
  }
  return losses;
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(attnmt, m) {
  m.def("smoothed_loss_rows(Tensor logits, Tensor? bias, Tensor target, float epsilon, Tensor(a!)? gradient) "
        "-> Tensor",
        &smoothed_loss_rows);
}
