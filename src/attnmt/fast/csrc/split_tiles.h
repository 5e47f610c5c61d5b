// Float32 linear layers on AMX's bf16 tiles (split_tiles.cpp), as the decoder step (decoder_step.cpp)
// and attnmt.fast.panels call them.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <optional>

#include "top_tokens.h"

namespace attnmt {

// The float32 panels [ceil(N/16), K, 16] (float_panels.h: pack_panels) as `pieces` (2 or 3) bf16 pieces
// of each weight, w ≈ Σ_s piece_s, in the tiles' layout: [ceil(N/16), pieces, Kp/2, 16, 2] bf16, where Kp
// is K padded to whole tiles of 32 (zeros): a panel's piece is Kp/32 tiles of 16 rows × 64 bytes, row j
// holding k = 2j and 2j + 1 of each of the panel's 16 columns.
at::Tensor pack_split_tiles(const at::Tensor& panels, int64_t pieces);

// y [rows, N] = x [rows, K] · Wᵀ + b (+ residual [rows, N]) (ReLU if relu), W as pack_split_tiles left it:
// x split into the same number of pieces, the products of piece i of x and piece j of W with i + j <
// pieces (3 of 4 for 2 pieces, 6 of 9 for 3) summed in float32 by tdpbf16ps.  `model`: on
// amx_tile_model.h's model of the tiles (tests, on a CPU with AVX-512 and no AMX).
at::Tensor split_tile_linear(const at::Tensor& x, const at::Tensor& tiles, const std::optional<at::Tensor>& bias,
                             int64_t n, const std::optional<at::Tensor>& residual, bool relu, bool model);
// The same, written into y [rows, N] (contiguous float32), which it returns.
at::Tensor split_tile_linear_into(const at::Tensor& x, const at::Tensor& tiles, const std::optional<at::Tensor>& bias,
                                  int64_t n, const std::optional<at::Tensor>& residual, bool relu, bool model,
                                  at::Tensor y);

// top_log_probs_of (top_tokens.h) the logits x · Wᵀ + b [rows, N], without writing them out.
TopTokens split_tile_top_log_probs(const at::Tensor& x, const at::Tensor& tiles, const std::optional<at::Tensor>& bias,
                                   int64_t n, int64_t k, at::IntArrayRef banned, const std::optional<at::Tensor>& forced,
                                   bool model, at::IntArrayRef outside = {});

// Whether the tiles run here: the CPU has AMX-BF16, Linux lets this process use the tiles, the AVX-512
// panels run (the kernel's splitting and sums are AVX-512) and AMX is allowed (int8_panels.h:
// allow_amx, which must have been said).  `model`: whether the model of the tiles runs (AVX-512 only).
bool split_tiles_run(bool model);

}  // namespace attnmt
