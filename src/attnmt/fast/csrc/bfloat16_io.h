// Reading and writing float32 and bfloat16 elements as float32, in forms GCC vectorises (the
// training kernels: dropout.cpp, smoothed_loss.cpp).  A float is rounded to bfloat16 to nearest
// even, as PyTorch rounds it; a NaN stays a quiet NaN.
#pragma once

#include <c10/util/BFloat16.h>

#include <cstdint>
#include <cstring>

namespace attnmt {

inline float to_float(float v) { return v; }
inline float to_float(c10::BFloat16 v) {
  const uint32_t bits = static_cast<uint32_t>(v.x) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline void store(float* out, float v) { *out = v; }
inline void store(c10::BFloat16* out, float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  out->x = static_cast<uint16_t>(v != v ? 0x7fc0U : (bits + 0x7fffU + ((bits >> 16) & 1U)) >> 16);
}

}  // namespace attnmt
