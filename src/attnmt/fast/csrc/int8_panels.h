// The int8 panel kernel (int8_panels.cpp) as the decoder step (decoder_step.cpp) calls it.
#pragma once

#include <ATen/ATen.h>
#include <torch/custom_class.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "top_tokens.h"

namespace attnmt {

// A linear layer's int8 weights W [N, K] (one scale per output column) packed for the
// int8 kernels (AMX, AVX512-VNNI, AVX2), with what their products need besides: y = x Wᵀ + b.
struct Int8Panels : torch::CustomClassHolder {
  at::Tensor panels;   // int8 [ceil(N/16), ceil(K/4), 16, 4]: 16 columns × 4 consecutive k per 64 bytes
  at::Tensor offsets;  // int32 [ceil(N/16)·16]: 128 · Σ_k W[n, k], what the +128 of the u8 rows adds (AVX2's
                       // +64: half of it)
  at::Tensor scales;   // float32 [ceil(N/16)·16]: W[n] ≈ scales[n] · panels' column n
  at::Tensor bias;     // float32 [ceil(N/16)·16], zeros where the layer has none
  int64_t n = 0, k = 0;
  int kernel = -1;      // the kernel these are multiplied with (int8_panels.cpp: Kernel); -1: int8_kernel()
};

// The kernel this process runs: "amx" (AMX-INT8 tiles) or "vnni" (AVX512-VNNI) where the CPU has
// AVX512-VNNI and PyTorch's own kernels use AVX-512 (ATEN_CPU_CAPABILITY=avx2 or default turns both
// off, as for the float32 panels; allow_amx(false) turns AMX off), else "avx2" where the CPU has
// AVX2 and FMA (x quantised to 7 bits there), else "none".  Chosen at the first call, which must
// come after allow_amx.
std::string int8_kernel();

// Every int8 kernel this process can run, widest first (the first is int8_kernel()); empty: none.
std::vector<std::string> int8_kernels();

// w multiplied with `kernel` (one of int8_kernels(), or "amx_model" where "vnni" runs: the AMX kernel on a
// model of the tiles, amx_tile_model.h, for tests; anything else is an error) from now on; and which it is.
void use_int8_kernel(Int8Panels& w, const std::string& kernel);
std::string int8_kernel_of(const Int8Panels& w);

// Whether int8_kernel may choose AMX, as Python read ONEDNN_MAX_CPU_ISA: said once per process, before
// the first int8_kernel (a different answer later is an error).
void allow_amx(bool allowed);
// What allow_amx was told (an error before it was told): the float32 tiles (split_tiles.h) obey it too.
bool amx_allowed_by_python();

// y [rows, N] = x [rows, K] · Wᵀ + b (+ residual [rows, N]) (ReLU if relu), x quantised row by row.
at::Tensor int8_linear(const at::Tensor& x, const Int8Panels& w, const std::optional<at::Tensor>& residual,
                       bool relu);
// The same, written into y [rows, N] (contiguous float32), which it returns.
at::Tensor int8_linear_into(const at::Tensor& x, const Int8Panels& w, const std::optional<at::Tensor>& residual,
                            bool relu, at::Tensor y);

// top_log_probs_of (top_tokens.h) the logits x · Wᵀ + b [rows, N], without writing them out: the int8
// output layer and beam search's choice in one pass.
TopTokens int8_top_log_probs(const at::Tensor& x, const Int8Panels& w, int64_t k, at::IntArrayRef banned,
                             const std::optional<at::Tensor>& forced, at::IntArrayRef outside = {});

}  // namespace attnmt
