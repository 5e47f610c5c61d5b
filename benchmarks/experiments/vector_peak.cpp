// This CPU's peak AVX-512 multiply-add rate on one core, for comparing a kernel's measured rate
// against: 16 independent chains of vpdpbusd (int8: 64 multiply-adds each) and of vfmadd231ps
// (float32: 16 each) on zmm registers, no memory traffic.
//
//   g++ -O2 -mavx512f -mavx512bw -mavx512vnni benchmarks/experiments/vector_peak.cpp -o /tmp/vector_peak
//   taskset -c 0 /tmp/vector_peak
//
// benchmarks/results/int8_kernel_epyc_avx512.txt compares attnmt's int8 and float32 output layers with it.
#include <immintrin.h>

#include <chrono>
#include <cstdio>

template <int N>
__attribute__((noinline)) double vnni_per_second(long n) {
  __m512i acc[N];
  for (int i = 0; i < N; ++i) acc[i] = _mm512_set1_epi32(i);
  __m512i a = _mm512_set1_epi32(0x01020304), b = _mm512_set1_epi32(0x05060708);
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j) acc[j] = _mm512_dpbusd_epi32(acc[j], a, b);
    __asm__ volatile("" : "+v"(a));  // keeps the loop from being folded
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  __m512i sum = acc[0];
  for (int i = 1; i < N; ++i) sum = _mm512_add_epi32(sum, acc[i]);
  volatile int sink = _mm512_reduce_add_epi32(sum);
  (void)sink;
  return n * N / seconds;
}

template <int N>
__attribute__((noinline)) double fma_per_second(long n) {
  __m512 acc[N];
  for (int i = 0; i < N; ++i) acc[i] = _mm512_set1_ps(i);
  __m512 a = _mm512_set1_ps(0.5f), b = _mm512_set1_ps(1.0f);  // converges to 2: no overflow, no denormals
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j) acc[j] = _mm512_fmadd_ps(acc[j], a, b);
    __asm__ volatile("" : "+v"(a));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  __m512 sum = acc[0];
  for (int i = 1; i < N; ++i) sum = _mm512_add_ps(sum, acc[i]);
  volatile float sink = _mm512_reduce_add_ps(sum);
  (void)sink;
  return n * N / seconds;
}

int main() {
  for (int round = 0; round < 2; ++round) {
    const double vnni = vnni_per_second<16>(20000000), fma = fma_per_second<16>(20000000);
    std::printf("vpdpbusd zmm %.2f G/s = %.0f G int8 multiply-adds/s; vfmadd231ps zmm %.2f G/s = %.0f G float32 "
                "multiply-adds/s\n", vnni / 1e9, vnni * 64 / 1e9, fma / 1e9, fma * 16 / 1e9);
  }
}
