"""Experiment (issue 43): which signals, fitted how, rank the model's own beam translations by
sentence chrF better than the mean token log-probability, on the quality benchmark's held-out half.

    PYTHONPATH=src python benchmarks/experiments/quality_spearman.py --model <model dir> [--cost]

Splits as benchmarks/quality.py: the validation set's first half fits, the second half is held
out; every fit sees the fitting half only.  What each sentence gets, computed once and cached
(--cache), so the fits are cheap to rerun:

- the Features of its beam-4 translation (today's ten regression inputs);
- every hypothesis the beam finished, not only the top 4: beam_search collects each EOS among a
  step's best beam_size candidates and sorts them at the end; here the sort keeps them all;
- n-best consensus: the mean sentence chrF of the best hypothesis against the others (top 4 /
  all finished), the same weighted by each other's share of the finished hypotheses'
  probability (MBR-style expected chrF), and a cheap stand-in on piece ids (an F2 of piece
  n-grams, n <= 4) that needs no detokenised text and no sacrebleu;
- the gap from the best to the second hypothesis (score and log-prob), and the best one's share
  of the finished hypotheses' probability;
- Monte-Carlo dropout (Fomicheva et al. 2020): K teacher-forced passes over the translation with
  the model's dropout on; D-TP the mean over the passes of its mean token log-prob, D-Var their
  variance (K = 3, 5, 10, 30 of the same passes).

Fits: the product's logistic regression on P(chrF >= 50); ridge least squares to chrF; to the
rank of chrF (Spearman is a rank correlation).  Each variant's held-out Spearman with chrF,
its 5-fold cross-validated Spearman on the fitting half (what a choice may be made on), and
the paired-bootstrap 90 % interval of its gain over the mean log-prob on the held-out half.

--cost times, alternated, on the held-out half with one thread: beam-4 translation with the
fast copy (what ``attnmt translate`` runs), the same with quality (``translate_n_best`` with an
Assessor), the consensus signals from its hypotheses, and K dropout passes (readable model).
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import torch
from sacrebleu.metrics import CHRF

import attnmt.decoding.translate as translate_module
from attnmt.decoding import Decoding
from attnmt.decoding.calibration import fit_calibration
from attnmt.decoding.fitting import logistic_fit
from attnmt.decoding.quality import Assessor
from attnmt.decoding.translate import length_batches, translate, translate_n_best
from attnmt.hardware import cpu_flags, cpu_model
from attnmt.text.data import pad_rows, read_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "benchmarks")]
from quality import VAL_REF, VAL_SRC  # noqa: E402

KS = (3, 5, 10, 30)
SEED = 0


def ranks(v: np.ndarray) -> np.ndarray:
    """Ranks 1..n, ties sharing their mean rank (benchmarks/quality.py's, without its loop over values)."""
    order = np.argsort(v, kind="mergesort")
    place = np.empty(len(v), int)
    place[order] = np.arange(len(v))
    ordered = v[order]
    new = np.r_[True, ordered[1:] != ordered[:-1]]
    dense = new.cumsum()[place]
    starts = np.r_[np.flatnonzero(new), len(v)]
    return 0.5 * (starts[dense] + starts[dense - 1] + 1)


def spearman(a, b) -> float:
    return float(np.corrcoef(ranks(np.asarray(a, float)), ranks(np.asarray(b, float)))[0, 1])


def all_finished(search):
    """beam_search returning every finished hypothesis of each sentence, best first, not n_best."""
    import attnmt.decoding.search as search_module

    def wrapped(*args, **kwargs):
        kept = []
        original = search_module.collect_finished

        def collect(state, candidates, ends, sentences, finished, penalty, written):
            kept.append(finished)
            original(state, candidates, ends, sentences, finished, penalty, written)

        search_module.collect_finished = collect
        try:
            search(*args, **kwargs)
        finally:
            search_module.collect_finished = original
        return [sorted(hyps, key=lambda h: (h.missed, -h.score)) for hyps in kept[-1]]

    return wrapped


def dropout_log_probs(model, tokenizer, sources: list[str], translations: list[str], k: int,
                      seed: int = SEED) -> np.ndarray:
    """[N, k]: each translation's mean token log-prob (its pieces and EOS) in each of k
    teacher-forced passes with dropout on (the model in training mode, no gradients)."""
    c = model.config
    src_ids = [tokenizer.encode(s)[: c.longest_input] for s in sources]
    tgt_ids = [tokenizer.encode_target(t)[: c.longest_input - 1] for t in translations]
    out = np.zeros((len(sources), k))
    torch.manual_seed(seed)
    model.train()
    try:
        with torch.inference_mode():
            for batch in length_batches([max(len(s), len(t) + 1) for s, t in zip(src_ids, tgt_ids, strict=True)],
                                        2048):
                src = pad_rows([src_ids[i] for i in batch], c.pad_id)
                tgt = pad_rows([[c.bos_id, *tgt_ids[i], c.eos_id] for i in batch], c.pad_id)
                real = (tgt[:, 1:] != c.pad_id).float()
                for r in range(k):
                    lp = model(src, tgt[:, :-1]).float().log_softmax(-1).gather(2, tgt[:, 1:, None]).squeeze(2)
                    out[batch, r] = ((lp * real).sum(1) / real.sum(1)).numpy()
    finally:
        model.eval()
    return out


def piece_f2(a: list[int], b: list[int], order: int = 4) -> float:
    """chrF's formula on piece ids: the mean over n <= order of F_beta=2 of a's n-grams against b's."""
    scores = []
    for n in range(1, order + 1):
        ga = Counter(tuple(a[i:i + n]) for i in range(len(a) - n + 1))
        gb = Counter(tuple(b[i:i + n]) for i in range(len(b) - n + 1))
        if not ga or not gb:
            continue
        match = sum((ga & gb).values())
        p, r = match / sum(ga.values()), match / sum(gb.values())
        scores.append(0.0 if match == 0 else 5 * p * r / (4 * p + r))
    return sum(scores) / len(scores) if scores else 0.0


def consensus(texts: list[str], ids: list[list[int]], log_probs: list[float]) -> dict[str, float]:
    """The n-best signals of one sentence's finished hypotheses (best first)."""
    chrf = CHRF()
    pair = [chrf.sentence_score(texts[0], [t]).score for t in texts[1:]]
    cheap = [100 * piece_f2(ids[0], t) for t in ids[1:]]
    lp = np.array(log_probs)
    share = np.exp(lp - lp.max())
    share /= share.sum()
    others = share[1:] / share[1:].sum() if len(texts) > 1 else share[1:]
    return {
        "consensus4": float(np.mean(pair[:3])) if pair else 100.0,
        "consensus_all": float(np.mean(pair)) if pair else 100.0,
        "mbr_all": float(others @ np.array(pair)) if pair else 100.0,
        "cheap4": float(np.mean(cheap[:3])) if cheap else 100.0,
        "cheap_all": float(np.mean(cheap)) if cheap else 100.0,
        "cheap_mbr": float(others @ np.array(cheap)) if cheap else 100.0,
        "best_share": float(share[0]),
        "finished": float(len(texts)),
    }


def collect(args) -> dict:
    from attnmt.checkpoint import load_model_dir

    model, tokenizer = load_model_dir(args.model)
    sources, references = read_lines(args.src), read_lines(args.ref)
    original = translate_module.beam_search
    translate_module.beam_search = all_finished(original)
    try:
        found = translate_n_best(model, tokenizer, sources, Decoding(beam_size=args.beam), quality=Assessor())
    finally:
        translate_module.beam_search = original
    chrf = CHRF()
    rows = []
    for i, hyps in enumerate(found):
        best = hyps[0]
        row = {"chrf": chrf.sentence_score(best.text, [references[i]]).score, "features": best.assessment.features,
               "score_gap": best.score - hyps[1].score if len(hyps) > 1 else 10.0,
               "log_prob_gap": best.log_prob - hyps[1].log_prob if len(hyps) > 1 else 10.0,
               "source_pieces": len(tokenizer.encode(sources[i])), "text": best.text}
        row.update(consensus([h.text for h in hyps], [tokenizer.encode_target(h.text) for h in hyps],
                             [h.log_prob for h in hyps]))
        rows.append(row)
    dropped = dropout_log_probs(model, tokenizer, sources, [r["text"] for r in rows], max(KS))
    half = len(sources) // 2
    ratios = [len(tokenizer.encode_target(r)) / max(1, len(tokenizer.encode(s)) - tokenizer.source_eos)
              for s, r in zip(sources[:half], references[:half], strict=True)]
    return {"rows": rows, "dropout": dropped, "half": half, "ratios": ratios}


def signal_table(data: dict) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """Every signal as a column [N], today's ten regression inputs [N, 10], chrF [N]."""
    rows, half = data["rows"], data["half"]
    calibration = fit_calibration([r["features"] for r in rows[:half]], [r["chrf"] for r in rows[:half]],
                                  data["ratios"], "")
    today = np.array([r["features"].inputs(calibration.length_center, calibration.length_range) for r in rows])
    columns = {name: np.array([r[name] for r in rows], float)
               for name in ("consensus4", "consensus_all", "mbr_all", "cheap4", "cheap_all", "cheap_mbr",
                            "best_share", "finished", "score_gap", "log_prob_gap")}
    columns["log_source_pieces"] = np.log([r["source_pieces"] for r in rows])
    columns["quality_today"] = np.array([calibration.quality(r["features"]) for r in rows])
    columns["mean_log_prob"] = today[:, 0]
    for k in KS:
        columns[f"d_tp{k}"] = data["dropout"][:, :k].mean(1)
        columns[f"d_var{k}"] = data["dropout"][:, :k].var(1)
    return columns, today, np.array([r["chrf"] for r in rows])


def standardised(x: np.ndarray, fit: np.ndarray) -> np.ndarray:
    return (x - x[fit].mean(0)) / np.maximum(x[fit].std(0), 1e-6)


def fitted_scores(x: np.ndarray, chrf: np.ndarray, fit: np.ndarray, how: str) -> np.ndarray:
    """Scores of every row from a fit on rows ``fit`` (boolean [N]) of inputs x [N, F] to chrF."""
    z = np.c_[standardised(x, fit), np.ones(len(x))]
    if how == "logistic":
        w, b = logistic_fit(torch.tensor(z[fit, :-1]), torch.tensor((chrf[fit] >= 50).astype(float)))
        return z[:, :-1] @ w.numpy() + b
    target = chrf[fit] if how == "chrF" else (np.argsort(np.argsort(chrf[fit])) + 0.5) / fit.sum()
    penalty = np.eye(z.shape[1])
    penalty[-1, -1] = 0
    w = np.linalg.solve(z[fit].T @ z[fit] + 1.0 * penalty, z[fit].T @ target)
    return z @ w


def cross_validated(x: np.ndarray, chrf: np.ndarray, fitting: np.ndarray, how: str, folds: int = 5) -> float:
    """Mean over 5 folds of the fitting half of the Spearman on the fold, fitted on the other four."""
    index = np.flatnonzero(fitting)
    found = []
    for f in range(folds):
        test = index[f::folds]
        fit = fitting.copy()
        fit[test] = False
        found.append(spearman(fitted_scores(x, chrf, fit, how)[test], chrf[test]))
    return float(np.mean(found))


def bootstrap_gain(score: np.ndarray, base: np.ndarray, chrf: np.ndarray, draws: int = 1000) -> tuple[float, float]:
    """The 5th and 95th percentiles of Spearman(score) - Spearman(base) over resampled held-out sentences."""
    rng = np.random.default_rng(SEED)
    gains = []
    for _ in range(draws):
        pick = rng.integers(0, len(chrf), len(chrf))
        gains.append(spearman(score[pick], chrf[pick]) - spearman(base[pick], chrf[pick]))
    return float(np.percentile(gains, 5)), float(np.percentile(gains, 95))


CONSENSUS_GAPS = ["consensus_all", "mbr_all", "score_gap", "log_prob_gap", "best_share", "finished"]
EVERYTHING = [*CONSENSUS_GAPS, "cheap_all", "d_tp10", "d_var10", "log_source_pieces"]
# name: (signals added to today's inputs, how the inputs are widened: "" none, "squares" each
# input and its square, "hinges" max(0, mean log-prob - its q-quantile) for q = 0.2, 0.4, 0.6, 0.8)
SETS = {
    "today": ([], ""),
    "+consensus top4": (["consensus4"], ""),
    "+consensus all finished": (["consensus_all"], ""),
    "+MBR expected chrF": (["mbr_all"], ""),
    "+cheap piece consensus all": (["cheap_all"], ""),
    "+cheap piece MBR": (["cheap_mbr"], ""),
    "+gap to 2nd, best share": (["score_gap", "log_prob_gap", "best_share"], ""),
    "+consensus all, gaps": (CONSENSUS_GAPS, ""),
    "+D-TP, D-Var K=3": (["d_tp3", "d_var3"], ""),
    "+D-TP, D-Var K=5": (["d_tp5", "d_var5"], ""),
    "+D-TP, D-Var K=10": (["d_tp10", "d_var10"], ""),
    "+D-TP, D-Var K=30": (["d_tp30", "d_var30"], ""),
    "+consensus all, gaps, D K=5": ([*CONSENSUS_GAPS, "d_tp5", "d_var5"], ""),
    "+consensus all, gaps, D K=10": ([*CONSENSUS_GAPS, "d_tp10", "d_var10"], ""),
    "+cheap all, gaps, D K=10": (["cheap_all", "cheap_mbr", "score_gap", "log_prob_gap", "best_share", "finished",
                                  "d_tp10", "d_var10"], ""),
    "+everything, squares": (EVERYTHING, "squares"),
    "+everything but dropout, squares": ([e for e in EVERYTHING if not e.startswith("d_")], "squares"),
    # added after the first run's held-out figures (so not chosen blind):
    "today, squares": ([], "squares"),
    "+consensus top4, source length": (["consensus4", "log_source_pieces"], ""),
    "+consensus top4, source length, squares": (["consensus4", "log_source_pieces"], "squares"),
    "+consensus top4, source length, hinges": (["consensus4", "log_source_pieces"], "hinges"),
}


def inputs_of(name: str, columns: dict, today: np.ndarray, fitting: np.ndarray) -> np.ndarray:
    extra, widen = SETS[name]
    x = np.c_[today, *(columns[e] for e in extra)] if extra else today
    if widen == "squares":
        return np.c_[x, x ** 2]
    if widen == "hinges":
        mean_log_prob = today[:, 0]
        return np.c_[x, *(np.maximum(0.0, mean_log_prob - np.quantile(mean_log_prob[fitting], q))
                          for q in (0.2, 0.4, 0.6, 0.8))]
    return x


def evaluate(data: dict) -> None:
    columns, today, chrf = signal_table(data)
    n, half = len(chrf), data["half"]
    fitting = np.arange(n) < half
    held = ~fitting
    base = columns["mean_log_prob"]
    base_rho = spearman(base[held], chrf[held])
    print(f"fitting half {half} sentences, held out {n - half}; hypotheses finished per sentence: mean "
          f"{columns['finished'].mean():.2f}, min {columns['finished'].min():.0f}, max {columns['finished'].max():.0f}")
    print(f"held-out Spearman with chrF, one signal alone (mean log-prob: {base_rho:.3f}):")
    for name, col in columns.items():
        if name != "finished":
            print(f"  {name:<22}{spearman(col[held], chrf[held]):7.3f}")
    print(f"{'inputs':<42}{'fit':<10}{'held-out':>9}{'gain':>8}{'90 % interval':>18}{'5-fold CV':>11}")
    for name in SETS:
        x = inputs_of(name, columns, today, fitting)
        for how in ("logistic", "chrF", "rank"):
            score = fitted_scores(x, chrf, fitting, how)
            rho = spearman(score[held], chrf[held])
            low, high = bootstrap_gain(score[held], base[held], chrf[held])
            print(f"{name:<42}{how:<10}{rho:9.3f}{rho - base_rho:+8.3f}{f'[{low:+.3f}, {high:+.3f}]':>18}"
                  f"{cross_validated(x, chrf, fitting, how):11.3f}", flush=True)


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def cost(args) -> None:
    """Seconds per round of each way, alternated, on the held-out half (one thread)."""
    from attnmt.checkpoint import load_model_dir
    from attnmt.decoding.calibration import load_calibration
    from attnmt.fast import prepare

    model, tokenizer = load_model_dir(args.model)
    fast = prepare(model)
    calibration = load_calibration(Path(args.model))
    sources = read_lines(args.src)
    src = sources[len(sources) // 2:]
    decoding = Decoding(beam_size=args.beam)
    own = translate(fast, tokenizer, src, decoding)
    n_best = translate_n_best(fast, tokenizer, src, Decoding(beam_size=args.beam, n_best=args.beam))
    ways = {
        "translate (fast)": lambda: translate(fast, tokenizer, src, decoding),
        "translate with quality (fast)": lambda: translate_n_best(fast, tokenizer, src, decoding,
                                                                  quality=Assessor(calibration)),
        "consensus, sacrebleu chrF": lambda: [consensus([h.text for h in hs], [[0]] * len(hs), [h.log_prob for h in hs])
                                              for hs in n_best],
        "consensus, piece ids": lambda: [[piece_f2(tokenizer.encode_target(hs[0].text), tokenizer.encode_target(h.text))
                                          for h in hs[1:]] for hs in n_best],
        "dropout passes K=5": lambda: dropout_log_probs(model, tokenizer, src, own, 5),
        "dropout passes K=10": lambda: dropout_log_probs(model, tokenizer, src, own, 10),
    }
    seconds: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.rounds):
        for name, way in ways.items():
            seconds[name].append(timed(way))
    print(f"cost: {len(src)} held-out sentences, beam {args.beam}, CPU {cpu_model()} "
          f"({', '.join(sorted(cpu_flags() & {'avx2', 'avx512f'}))}), {torch.get_num_threads()} thread, "
          f"{args.rounds} rounds alternated")
    plain = seconds["translate (fast)"]
    for name, each in seconds.items():
        ratio = statistics.median(t / p for t, p in zip(each, plain, strict=True))
        print(f"  {name:<32}" + " ".join(f"{t:7.2f}" for t in each) + f" s; median ratio to translate x{ratio:.3f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True)
    p.add_argument("--src", default=str(VAL_SRC))
    p.add_argument("--ref", default=str(VAL_REF))
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--cost", action="store_true", help="time the signals against beam translation instead")
    p.add_argument("--cache", default="/tmp/quality_spearman.pkl", help="every sentence's signals, reused")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    if args.cost:
        cost(args)
        return
    cache = Path(args.cache)
    if cache.exists():
        data = pickle.loads(cache.read_bytes())
    else:
        started = time.perf_counter()
        data = collect(args)
        cache.write_bytes(pickle.dumps(data))
        print(f"signals collected in {time.perf_counter() - started:.0f} s")
    evaluate(data)


if __name__ == "__main__":
    main()
