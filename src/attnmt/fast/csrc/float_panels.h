// The float32 panel kernel (float_panels.cpp) as the decoder step (decoder_step.cpp) calls it.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "top_tokens.h"

namespace attnmt {

// Output columns per panel (attnmt.fast.extension.PANEL).
constexpr int64_t kPanel = 16;

// W [N, K] float32 packed into panels of 16 output columns, [ceil(N/16), K, 16] (zero beyond N).
at::Tensor pack_panels(const at::Tensor& w);

// y [rows, N] = x [rows, K] · Wᵀ + b (+ residual [rows, N]) (ReLU if relu), W as pack_panels left it.
at::Tensor panel_linear(const at::Tensor& x, const at::Tensor& panels, const std::optional<at::Tensor>& bias, int64_t n,
                        const std::optional<at::Tensor>& residual, bool relu);
// The same, written into y [rows, N] (contiguous float32), which it returns.
at::Tensor panel_linear_into(const at::Tensor& x, const at::Tensor& panels, const std::optional<at::Tensor>& bias,
                             int64_t n, const std::optional<at::Tensor>& residual, bool relu, at::Tensor y);

// top_log_probs_of (top_tokens.h) the logits x · Wᵀ + b [rows, N], without writing them out: the output
// layer and beam search's choice in one pass.
TopTokens panel_top_log_probs(const at::Tensor& x, const at::Tensor& panels, const std::optional<at::Tensor>& bias,
                              int64_t n, int64_t k, at::IntArrayRef banned, const std::optional<at::Tensor>& forced,
                              at::IntArrayRef outside = {});

// The kernel this process runs: "avx512", "avx2" or "none" (a build without AVX2/FMA).
std::string panel_isa();

// Whether this process runs the AVX-512 kernels (panel_isa's "avx512"): where the CPU has the
// features ATTNMT_AVX512 names and PyTorch's kernels use AVX-512 (ATEN_CPU_CAPABILITY=avx2 or
// default caps both).  The top-k's row passes and the step's attention follow it.
bool avx512_panels();

// What "avx512" means in panel_isa: the features its kernels (and the step's attention kernels,
// decoder_step.cpp) are built for with this attribute, which it checks the CPU for.
#define ATTNMT_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

}  // namespace attnmt
