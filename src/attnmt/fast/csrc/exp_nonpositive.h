// exp(x) for x <= 0, written so that the compiler vectorises loops calling it (libm's expf does not
// vectorise without -ffast-math): 2^n · e^r with r = x − n·ln 2 in [−ln2/2, ln2/2] and Cephes'
// polynomial for e^r; within 2 ulp of expf.  Below −87 it returns 2^−126·e^r, not 0: negligible
// beside the largest term of a softmax, which is 1.  Used by the softmax of attention
// (decoder_step.cpp) and of the next tokens' normaliser (top_tokens.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace attnmt {

inline float exp_nonpositive(float x) {
  x = std::max(x, -87.f);
  const float n = std::floor(x * 1.44269504088896341f + 0.5f);
  const float r = x - n * 0.693359375f + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

}  // namespace attnmt
