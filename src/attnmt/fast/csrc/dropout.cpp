// Training's dropout in one pass over the tensor, forward and backward alike (attnmt.layers.Dropout),
// and the feed-forward's ReLU with it.
//
// Element i of a call with key `seed` is kept where its 16 random bits, half of a 32-bit hash of
// (seed, a counter that two elements share: drop_blocks), are at least `dropped`: probability
// 1 - dropped/65536, as the Python dropout's.
// The bits are a function of (seed, i) alone, so no mask is stored: the backward pass hashes the
// same counters again and scales the gradient by the same {0, scale}, and the result does not
// depend on the number of threads.  PyTorch's own dropout draws a float per element from its
// generator and keeps a mask; the Python path draws 16 bits per element and keeps a mask.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <torch/library.h>

#include "bfloat16_io.h"

#include <cstdint>
#include <cstring>

namespace {

using at::Tensor;
using attnmt::store;
using attnmt::to_float;

// A 32-bit integer hash with low bias (C. Wellons, "Hash function prospector", lowbias32):
// 32-bit multiplies and shifts, which vectorise on AVX2 and AVX-512.
inline uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// 32 random bits for counter j, which two elements share (drop_blocks): two rounds keyed by the
// seed's two halves.
inline uint32_t pair_bits(uint64_t j, uint32_t k0, uint32_t k1) {
  const uint32_t high = static_cast<uint32_t>(j >> 32) * 0x9e3779b9U;
  return mix32(mix32(static_cast<uint32_t>(j) ^ k0) + (k1 ^ high));
}

// max(v, 0) where Relu (NaN kept, as torch.relu keeps it), else v.
template <bool Relu>
inline float activate(float v) {
  return Relu ? (v < 0.0f ? 0.0f : v) : v;
}

// One block: 2·kLanes elements from kLanes hashes.  Loops this long are vectorised as loops; short
// ones GCC unrolls whole and then leaves scalar.
constexpr int64_t kLanes = 512;
constexpr int64_t kBlock = 2 * kLanes;

// Block b's elements: hash k = b·kLanes + j gives element b·kBlock + j its low 16 bits and
// element b·kBlock + kLanes + j its high 16 bits, so both halves are read and written in order.
template <typename T, bool Relu>
void drop_blocks(const T* x, T* out, int64_t begin, int64_t end, uint32_t k0, uint32_t k1, uint32_t dropped,
                 float scale) {
  for (int64_t b = begin; b < end; ++b) {
    const T* in = x + b * kBlock;
    T* o = out + b * kBlock;
    uint32_t h[kLanes];
    float s[kBlock];
    for (int64_t j = 0; j < kLanes; ++j) h[j] = pair_bits(static_cast<uint64_t>(b * kLanes + j), k0, k1);
    for (int64_t j = 0; j < kLanes; ++j) s[j] = (h[j] & 0xffffU) >= dropped ? scale : 0.0f;
    for (int64_t j = 0; j < kLanes; ++j) s[kLanes + j] = (h[j] >> 16) >= dropped ? scale : 0.0f;
    for (int64_t i = 0; i < kBlock; ++i) store(o + i, activate<Relu>(to_float(in[i])) * s[i]);
  }
}

// The last n % kBlock elements, numbered as a block's would be.
template <typename T, bool Relu>
void drop_tail(const T* x, T* out, int64_t n, uint32_t k0, uint32_t k1, uint32_t dropped, float scale) {
  const int64_t b = n / kBlock;
  for (int64_t i = b * kBlock; i < n; ++i) {
    const int64_t j = (i - b * kBlock) % kLanes;
    const uint32_t h = pair_bits(static_cast<uint64_t>(b * kLanes + j), k0, k1);
    const uint32_t bits = i - b * kBlock < kLanes ? (h & 0xffffU) : (h >> 16);
    store(out + i, activate<Relu>(to_float(x[i])) * (bits >= dropped ? scale : 0.0f));
  }
}

template <typename T, bool Relu>
void drop_all(const Tensor& x, Tensor& out, uint32_t k0, uint32_t k1, uint32_t dropped, float scale) {
  const T* src = x.const_data_ptr<T>();
  T* dst = out.mutable_data_ptr<T>();
  const int64_t n = x.numel();
  constexpr int64_t kGrain = 32;  // blocks per task: a parallel region only past 32,768 elements
  at::parallel_for(0, n / kBlock, kGrain, [&](int64_t begin, int64_t end) {
    drop_blocks<T, Relu>(src, dst, begin, end, k0, k1, dropped, scale);
  });
  drop_tail<T, Relu>(src, dst, n, k0, k1, dropped, scale);
}

// mask(seed) · scale · x, or · max(x, 0) where `relu`, for a float32 or bfloat16 tensor: a new
// contiguous tensor of x's shape.
Tensor dropout_forward(const Tensor& input, int64_t seed, int64_t dropped, double scale, bool relu) {
  TORCH_CHECK(input.device().is_cpu(), "hashed_dropout: a CPU tensor, got one on ", input.device());
  TORCH_CHECK(input.scalar_type() == at::kFloat || input.scalar_type() == at::kBFloat16,
              "hashed_dropout: float32 or bfloat16, got ", input.scalar_type());
  TORCH_CHECK(dropped >= 0 && dropped <= 65536, "hashed_dropout: dropped must be in [0, 65536], got ", dropped);
  const Tensor x = input.contiguous();
  Tensor out = at::empty_like(x, at::MemoryFormat::Contiguous);
  const uint64_t key = static_cast<uint64_t>(seed);
  const uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  const uint32_t threshold = static_cast<uint32_t>(dropped);  // 65536: every element dropped
  const float s = static_cast<float>(scale);
  const bool bf16 = x.scalar_type() == at::kBFloat16;
  if (relu && bf16)
    drop_all<c10::BFloat16, true>(x, out, k0, k1, threshold, s);
  else if (relu)
    drop_all<float, true>(x, out, k0, k1, threshold, s);
  else if (bf16)
    drop_all<c10::BFloat16, false>(x, out, k0, k1, threshold, s);
  else
    drop_all<float, false>(x, out, k0, k1, threshold, s);
  return out;
}

Tensor hashed_dropout(const Tensor& x, int64_t seed, int64_t dropped, double scale) {
  return dropout_forward(x, seed, dropped, scale, false);
}

Tensor hashed_relu_dropout(const Tensor& x, int64_t seed, int64_t dropped, double scale) {
  return dropout_forward(x, seed, dropped, scale, true);
}

// The gradient of hashed_relu_dropout from its output: grad · scale where out > 0, else 0 (an
// element is positive exactly where x was positive and the mask kept it).
template <typename T>
void relu_grad_range(const T* __restrict grad, const T* __restrict out, T* __restrict result, int64_t begin,
                     int64_t end, float scale) {
  for (int64_t i = begin; i < end; ++i) {
    const float passed = to_float(out[i]) > 0.0f ? scale : 0.0f;  // (a select on the factor vectorises)
    store(result + i, to_float(grad[i]) * passed);
  }
}

template <typename T>
void relu_dropout_grad(const T* grad, const T* out, T* result, int64_t n, float scale) {
  at::parallel_for(0, n, 32768, [&](int64_t begin, int64_t end) {
    relu_grad_range(grad, out, result, begin, end, scale);
  });
}

Tensor relu_dropout_backward(const Tensor& grad_in, const Tensor& out_in, double scale) {
  TORCH_CHECK(grad_in.sizes() == out_in.sizes() && grad_in.scalar_type() == out_in.scalar_type(),
              "relu_dropout_backward: a gradient of the output's shape and type");
  const Tensor grad = grad_in.contiguous(), out = out_in.contiguous();
  Tensor result = at::empty_like(grad, at::MemoryFormat::Contiguous);
  const float s = static_cast<float>(scale);
  if (grad.scalar_type() == at::kBFloat16)
    relu_dropout_grad(grad.const_data_ptr<c10::BFloat16>(), out.const_data_ptr<c10::BFloat16>(),
                      result.mutable_data_ptr<c10::BFloat16>(), grad.numel(), s);
  else
    relu_dropout_grad(grad.const_data_ptr<float>(), out.const_data_ptr<float>(), result.mutable_data_ptr<float>(),
                      grad.numel(), s);
  return result;
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(attnmt, m) {
  m.def("hashed_dropout(Tensor x, int seed, int dropped, float scale) -> Tensor", &hashed_dropout);
  m.def("hashed_relu_dropout(Tensor x, int seed, int dropped, float scale) -> Tensor", &hashed_relu_dropout);
  m.def("relu_dropout_backward(Tensor grad, Tensor out, float scale) -> Tensor", &relu_dropout_backward);
}
