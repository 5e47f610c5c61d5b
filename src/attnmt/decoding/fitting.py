"""The fits behind the quality calibration (attnmt.decoding.calibration): a logistic and a
least-squares fit with an L2 penalty, each input's weight held to its own sign where asked
(``signed_fit``), a fitted logistic function's value (``probability``), and the reliability table
of predicted against observed.  Plain tensors in, plain tensors out: nothing here knows what the
inputs are."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch

L2 = 1.0
BINS = 10


def probability(weights: Sequence[float], bias: float, means: Sequence[float], scales: Sequence[float],
                inputs: Sequence[float]) -> float:
    """σ(bias + Σ w·(x − mean)/scale): a fitted logistic function of standardised inputs; 0.0 where
    an input is no finite number (a piece at log-prob -inf, a broken model's NaN): nothing vouches
    for such a translation, and a NaN z would pass min(50.0, z) as 50.0, a quality of 1.0.  So too
    where the terms themselves overflow, one to inf and another to -inf (a hand-edited quality.json's
    weight of 1e308: every translation came out at quality 1.0, flagged nothing)."""
    if not all(math.isfinite(x) for x in inputs):
        return 0.0
    z = bias + sum(w * (x - m) / s for w, x, m, s in zip(weights, inputs, means, scales, strict=True))
    if math.isnan(z):
        return 0.0
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


def logistic_fit(x: torch.Tensor, y: torch.Tensor, l2: float = L2, steps: int = 50,
                 directions: Sequence[int] | None = None) -> tuple[torch.Tensor, float]:
    """Weights [F] and bias of P(y=1) = σ(x·w + b) for standardised x [N, F], labels y [N] in {0, 1}:
    maximum likelihood with an L2 penalty l2·|w|²/2 (not on b), by Newton's method; ``directions``
    as for ``signed_fit``."""
    if directions is None:
        return newton_fit(x, y, l2, steps)
    return signed_fit(x, y, lambda free: newton_fit(x[:, free], y, l2, steps), torch.sigmoid, directions)


def ridge_fit(x: torch.Tensor, y: torch.Tensor, l2: float = L2,
              directions: Sequence[int] | None = None) -> tuple[torch.Tensor, float]:
    """Weights [F] and bias of y ≈ x·w + b for standardised x [N, F], values y [N]: least squares
    with an L2 penalty l2·|w|² (not on b); ``directions`` as for ``signed_fit``."""
    def solve(free: Sequence[int]) -> tuple[torch.Tensor, float]:
        design = torch.cat([x[:, list(free)], torch.ones(len(y), 1, dtype=x.dtype)], dim=1)
        penalty = torch.diag(torch.tensor([l2] * len(free) + [0.0], dtype=x.dtype))
        theta = torch.linalg.solve(design.T @ design + penalty, design.T @ y)
        return theta[:-1], float(theta[-1])

    if directions is None:
        return solve(range(x.shape[1]))
    return signed_fit(x, y, solve, lambda z: z, directions)


def signed_fit(x: torch.Tensor, y: torch.Tensor, solve: Callable[[Sequence[int]], tuple[torch.Tensor, float]],
               link: Callable[[torch.Tensor], torch.Tensor], directions: Sequence[int]) -> tuple[torch.Tensor, float]:
    """A fit of y from x [N, F] whose weights each have the sign of ``directions`` [F] (+1, -1) or
    are 0; ``solve(columns)``: the weights of those columns and the bias, the others left out;
    ``link``: the prediction from x·w + b (the loss's gradient is x'(link(x·w + b) - y)).  An active
    set: the input whose weight is furthest the wrong way is held at 0 and the rest fitted again,
    until none is; a held input whose gradient then points its own way is let back in."""
    f = x.shape[1]
    held: set[int] = set()
    for _ in range(4 * f):  # each pass holds or frees one input; far more than the few it takes
        free = [i for i in range(f) if i not in held]
        weights = torch.zeros(f, dtype=x.dtype)
        found, bias = solve(free)
        weights[free] = found
        wrong = [i for i in free if float(weights[i]) * directions[i] < 0]
        if wrong:
            held.add(max(wrong, key=lambda i: -float(weights[i]) * directions[i]))
            continue
        gradient = x.T @ (link(x @ weights + bias) - y)  # of the loss; a held weight is 0, so is its penalty
        back = [i for i in held if -float(gradient[i]) * directions[i] > 1e-6 * len(y)]
        if not back:
            break
        held.remove(max(back, key=lambda i: -float(gradient[i]) * directions[i]))
    else:  # the passes ran out (never seen): whatever points the wrong way is held at 0 all the same
        weights = torch.where(weights * torch.tensor(directions, dtype=x.dtype) < 0, 0.0, weights)
    return weights, bias


def newton_fit(x: torch.Tensor, y: torch.Tensor, l2: float, steps: int,
               counts: torch.Tensor | None = None) -> tuple[torch.Tensor, float]:
    """``logistic_fit`` with every weight free; ``counts`` [N]: how many times each example counts."""
    n, f = x.shape
    counts = torch.ones(n, dtype=x.dtype) if counts is None else counts
    design = torch.cat([x, torch.ones(n, 1, dtype=x.dtype)], dim=1)  # [N, F + 1]
    theta = torch.zeros(f + 1, dtype=x.dtype)
    penalty = torch.diag(torch.tensor([l2] * f + [0.0], dtype=x.dtype))
    for _ in range(steps):
        p = torch.sigmoid(design @ theta)
        gradient = design.T @ (counts * (p - y)) + penalty @ theta
        hessian = (design.T @ (design * (counts * p * (1 - p))[:, None]) + penalty
                   + 1e-9 * torch.eye(f + 1, dtype=x.dtype))
        step = torch.linalg.solve(hessian, gradient)
        theta -= step
        if float(step.abs().max()) < 1e-8:
            break
    return theta[:f], float(theta[f])


@dataclass
class Reliability:
    """Predicted against observed, bin by bin, and the expected calibration error (ECE)."""

    rows: list[tuple[float, float, int, float, float]]  # (low, high, sentences, mean quality, share acceptable)
    ece: float

    def table(self) -> str:
        lines = ["quality bin   sentences  mean quality  acceptable"]
        lines += [f"{lo:.1f}-{hi:.1f}     {n:9d}  {q:12.3f}  {a:10.3f}" for lo, hi, n, q, a in self.rows]
        lines.append(f"expected calibration error (ECE): {self.ece:.3f}")
        return "\n".join(lines)


def reliability(qualities: Sequence[float], labels: Sequence[float], bins: int = BINS) -> Reliability:
    """Qualities in ``bins`` equal-width bins: each bin's mean quality against its share of
    acceptable translations; ECE is their gap weighted by the bin's share of sentences."""
    rows, ece, n = [], 0.0, len(qualities)
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [k for k, q in enumerate(qualities) if lo <= q < hi or (b == bins - 1 and q == 1.0)]
        if not inside:
            continue
        mean_q = sum(qualities[k] for k in inside) / len(inside)
        share = sum(labels[k] for k in inside) / len(inside)
        rows.append((lo, hi, len(inside), mean_q, share))
        ece += len(inside) / n * abs(mean_q - share)
    return Reliability(rows, ece)
