"""``attnmt demo``: the whole tool in one command, on the bundled Multi30k corpus.

Trains within a time budget, keeps the better of the best checkpoint and the
checkpoint average, scores the test set with sacreBLEU, and translates a few
sentences, and draws the attention of one of them.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from attnmt.checkpoint import load_model_dir
from attnmt.cli.commands.train import load_training_kernels
from attnmt.config import load_config
from attnmt.decoding import DEFAULT
from attnmt.decoding.translate import translate
from attnmt.errors import ConfigError
from attnmt.evaluate import score
from attnmt.inspect.figures import write_attention_figures
from attnmt.text.data import read_parallel
from attnmt.training.averaging import keep_better_average
from attnmt.training.trainer import Trainer

TEST_SRC = "data/multi30k/test_2016_flickr.en.gz"
TEST_REF = "data/multi30k/test_2016_flickr.de.gz"
EXAMPLES = [
    "A man rides a bike down the street.",
    "Two dogs are playing in the snow.",
    "A little girl in a pink dress is climbing the stairs.",
    "A group of people are standing in front of a building.",
]
MARKER = ".attnmt-demo"


def prepare_out_dir(out: Path) -> None:
    """A previous demo's directory is replaced; any other existing directory is left alone."""
    if out.exists():
        if not (out / MARKER).exists():
            raise ConfigError(f"{out} exists and was not written by 'attnmt demo'; choose another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).touch()


def run_demo(config_path: str, out: str, minutes: float, overrides: dict[str, str]) -> None:
    if not Path(config_path).exists():
        raise ConfigError(f"{config_path}: not found; run the demo from the attnmt repository root")
    config = load_config(config_path, {**overrides, "max_time": f"{minutes}m", "out_dir": out})
    out_dir = Path(out)
    prepare_out_dir(out_dir)
    print(f"== training {config_path} for {minutes:g} minutes into {out_dir}")
    started = time.perf_counter()
    load_training_kernels()
    result = Trainer(config).train()
    print(f"== trained {result.step} steps in {(time.perf_counter() - started) / 60:.1f} min "
          f"(wall clock, with validation); {result.best()}")
    picked = keep_better_average(out_dir)
    print(f"== validation BLEU, beam {DEFAULT.beam_size}: "
          + ", ".join(f"{name} {bleu:.2f}" for name, bleu in picked.items())
          + f"; keeping {max(picked, key=picked.get)}")

    model, tokenizer = load_model_dir(out_dir)
    pairs, _ = read_parallel(TEST_SRC, TEST_REF)
    sources, references = zip(*pairs, strict=True)
    hypotheses = translate(model, tokenizer, sources, DEFAULT)
    (out_dir / "test_2016_flickr.hyp.de").write_text("\n".join(hypotheses) + "\n", encoding="utf-8")
    print(f"== test_2016_flickr (beam {DEFAULT.beam_size}, α {DEFAULT.alpha}):\n{score(hypotheses, references)}")
    print("== examples")
    for source, target in zip(EXAMPLES, translate(model, tokenizer, EXAMPLES), strict=True):
        print(f"  {source}\n  -> {target}")
    figures = write_attention_figures(model, tokenizer, EXAMPLES[0], out_dir / "attention")
    print(f"== attention of {EXAMPLES[0]!r}: {len(figures)} figures in {out_dir}/attention/ "
          f"(open {out_dir}/attention/attention.html in a browser)")
    print(f"== written: model {out_dir}/ (model.safetensors, config.json, spm.model, train.yaml), "
          f"log {out_dir}/log.jsonl, test translations {out_dir}/test_2016_flickr.hyp.de")
