// Training's dropout in one pass over the tensor, forward and backward alike (attnmt.layers.Dropout).
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

#include <cstdint>
#include <cstring>

namespace {

using at::Tensor;

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

// 32 random bits for the pair of elements 2j, 2j + 1: two rounds keyed by the seed's two halves.
inline uint32_t pair_bits(uint64_t j, uint32_t k0, uint32_t k1) {
  const uint32_t high = static_cast<uint32_t>(j >> 32) * 0x9e3779b9U;
  return mix32(mix32(static_cast<uint32_t>(j) ^ k0) + (k1 ^ high));
}

inline float to_float(float v) { return v; }
inline float to_float(c10::BFloat16 v) {
  uint32_t bits = static_cast<uint32_t>(v.x) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline void store(float* out, float v) { *out = v; }
// Round to nearest even, as PyTorch rounds a float to bfloat16 (NaN kept a quiet NaN).
inline void store(c10::BFloat16* out, float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  const uint32_t rounded = (bits + 0x7fffU + ((bits >> 16) & 1U)) >> 16;
  out->x = static_cast<uint16_t>(v != v ? 0x7fc0U : rounded);
}

// One block: 2·kLanes elements from kLanes hashes.  Loops this long are vectorised as loops; short
// ones GCC unrolls whole and then leaves scalar.
constexpr int64_t kLanes = 512;
constexpr int64_t kBlock = 2 * kLanes;

// Block b's elements: hash k = b·kLanes + j gives element b·kBlock + j its low 16 bits and
// element b·kBlock + kLanes + j its high 16 bits, so both halves are read and written in order.
template <typename T>
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
    for (int64_t i = 0; i < kBlock; ++i) store(o + i, to_float(in[i]) * s[i]);
  }
}

// The last n % kBlock elements, numbered as a block's would be.
template <typename T>
void drop_tail(const T* x, T* out, int64_t n, uint32_t k0, uint32_t k1, uint32_t dropped, float scale) {
  const int64_t b = n / kBlock;
  for (int64_t i = b * kBlock; i < n; ++i) {
    const int64_t j = (i - b * kBlock) % kLanes;
    const uint32_t h = pair_bits(static_cast<uint64_t>(b * kLanes + j), k0, k1);
    const uint32_t bits = i - b * kBlock < kLanes ? (h & 0xffffU) : (h >> 16);
    store(out + i, to_float(x[i]) * (bits >= dropped ? scale : 0.0f));
  }
}

template <typename T>
void drop_all(const Tensor& x, Tensor& out, uint32_t k0, uint32_t k1, uint32_t dropped, float scale) {
  const T* src = x.const_data_ptr<T>();
  T* dst = out.mutable_data_ptr<T>();
  const int64_t n = x.numel();
  constexpr int64_t kGrain = 32;  // blocks per task: a parallel region only past 32,768 elements
  at::parallel_for(0, n / kBlock, kGrain, [&](int64_t begin, int64_t end) {
    drop_blocks(src, dst, begin, end, k0, k1, dropped, scale);
  });
  drop_tail(src, dst, n, k0, k1, dropped, scale);
}

// x * mask(seed) * scale for a float32 or bfloat16 tensor; a new contiguous tensor of x's shape.
Tensor hashed_dropout(const Tensor& input, int64_t seed, int64_t dropped, double scale) {
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
  if (x.scalar_type() == at::kFloat)
    drop_all<float>(x, out, k0, k1, threshold, s);
  else
    drop_all<c10::BFloat16>(x, out, k0, k1, threshold, s);
  return out;
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(attnmt, m) {
  m.def("hashed_dropout(Tensor x, int seed, int dropped, float scale) -> Tensor", &hashed_dropout);
}
