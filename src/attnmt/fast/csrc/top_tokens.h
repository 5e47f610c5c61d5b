// The next tokens' choice (top_tokens.cpp) as the output layers' kernels (float_panels.cpp,
// int8_panels.cpp) and the decoder step (decoder_step.cpp) call it.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <tuple>

namespace attnmt {

// Beam search's candidates from logits [N, V]: each row's k most likely tokens under log_softmax,
// best first (ties: the lower id), never one in `banned` (which still count in the normaliser) or
// in `outside` (pad and BOS: attnmt.decoding.next_tokens.outside_distribution, which get no
// probability: left out of the normaliser): (log-probs [N, k], tokens [N, k] int64, the rows'
// normalisers log Σ_v exp(logit_v) over the tokens not outside [N]).
std::tuple<at::Tensor, at::Tensor, at::Tensor> top_log_probs(const at::Tensor& logits, int64_t k,
                                                             at::IntArrayRef banned, at::IntArrayRef outside = {});

// Writes the logits of columns [32·first, min(n, 32·end)) (panel pairs [first, end)) of every row into
// out, `ld` floats a row: an output layer's kernel on the calling thread.
using ColumnPairs = std::function<void(int64_t first, int64_t end, float* out, int64_t ld)>;

// top_log_probs, and the log-prob of each row's token in forced [rows] (NaN where it is -1: its logit
// minus the normaliser, as read before the tokens outside are masked), of the logits
// [rows, n] that `pairs` writes, `count` panel pairs of 32 columns, without writing them all: the pairs
// are split between the threads, and each thread's are written a block at a time into a buffer that
// stays in its cache, where its rows' largest logit, their Σ exp and their k best are updated.  The same
// tokens as top_log_probs of the whole logits; the normaliser is summed in another order (equal up to
// float rounding).
using TopTokens = std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor>;
TopTokens top_log_probs_of(int64_t rows, int64_t n, int64_t count, const ColumnPairs& pairs, int64_t k,
                           at::IntArrayRef banned, const std::optional<at::Tensor>& forced,
                           at::IntArrayRef outside = {});

// The same from logits [N, V] written out (an output layer without its own kernel).
TopTokens top_log_probs_forced(const at::Tensor& logits, int64_t k, at::IntArrayRef banned,
                               const std::optional<at::Tensor>& forced, at::IntArrayRef outside = {});

}  // namespace attnmt
