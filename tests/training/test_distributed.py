"""Data-parallel training under torchrun (gloo, 2 CPU processes) equals one process accumulating gradients;
weighted prepared corpora are drawn on every rank as one would draw them alone."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from support import PAIRS, tiny_config, write_pairs

from attnmt.checkpoint import list_checkpoints, load_model_dir, load_trainer_state
from attnmt.text.data import collate
from attnmt.text.tokenizer_files import read_tokenizer
from attnmt.training.trainer import Trainer
from attnmt.training.training_data import load_training_data, prepare_config

# No dropout: the ranks' random streams differ from a single process's by design.  max_tokens 32
# cuts the 20 pairs into 8 batches: an even count, which 2 ranks use whole (see the first test).
TINY = dict(max_tokens=32, eval_metric="loss", eval_every=2, max_steps=4, warmup_steps=4,
            model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, dropout=0.0))


def torchrun(config_path, *args):
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node=2",
               "-m", "attnmt", "train", *map(str, args)]
    if config_path:
        command.insert(command.index("train") + 1, str(config_path))
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]


def write_config(folder, **changes):
    config = tiny_config(folder, **{**TINY, **changes})
    path = folder / "config.yaml"
    path.write_text(json.dumps(config.to_dict()))
    return config, path


def weights(model_dir):
    """The weights of the last checkpoint (model.safetensors holds the best one)."""
    model, _ = load_model_dir(model_dir, list_checkpoints(Path(model_dir))[-1] / "model.safetensors")
    return model.state_dict()


def assert_same(a, b, skip=()):
    for name in a:
        if name.endswith(skip):
            continue
        torch.testing.assert_close(a[name], b[name], atol=1e-5, rtol=1e-4, msg=name)


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ddp")
    config, path = write_config(folder)
    torchrun(path)
    return config


def test_two_ranks_equal_one_process_accumulating_two_batches(two_ranks, tmp_path):
    config, _ = write_config(tmp_path, accumulate_steps=2)
    trainer = Trainer(config, progress=False)
    # Ranks drop an odd epoch's last batch, one process does not: equal only for an even count.
    assert len(trainer.batcher.batches) % 2 == 0
    assert trainer.train().step == two_ranks.max_steps
    # A key bias's true gradient is 0 (test_accumulating_two_batches_equals_one_batch_of_both): Adam
    # turns each run's rounding noise into full-size steps, which differ with how the sums are split.
    assert_same(weights(two_ranks.out_dir), weights(config.out_dir), skip=("k_proj.bias",))


def test_only_rank_0_writes_the_log(two_ranks):
    lines = open(f"{two_ranks.out_dir}/log.jsonl").read().splitlines()
    assert [json.loads(line)["step"] for line in lines if "valid_loss" in line] == [2, 4]


def test_resume_works_for_the_whole_group(two_ranks, tmp_path):
    config, path = write_config(tmp_path)
    torchrun(path, "--max_steps", "2")
    torchrun(None, "--resume", config.out_dir, "--max_steps", "4")
    assert_same(weights(two_ranks.out_dir), weights(config.out_dir))


def test_accumulating_two_batches_equals_one_batch_of_both(tmp_path):
    config, _ = write_config(tmp_path / "a", accumulate_steps=2)
    accumulated = Trainer(config, progress=False)
    together = Trainer(write_config(tmp_path / "b")[0], progress=False)
    first, second = accumulated.batcher.epoch_batches(0)[:2]
    corpus = accumulated.batcher.corpus
    accumulated.train_step([collate(corpus.examples(first)), collate(corpus.examples(second))])
    together.train_step([collate(corpus.examples([*first, *second]))])
    # A key bias shifts every score of a query equally, and softmax ignores shifts: its true
    # gradient is 0, so Adam's first step turns each run's rounding noise into a full-size step.
    assert_same(accumulated.model.state_dict(), together.model.state_dict(), skip=("k_proj.bias",))


def test_two_ranks_train_from_weighted_prepared_corpora_as_rank_0_alone_would_draw(tmp_path):
    (a_src, a_tgt), (b_src, b_tgt) = write_pairs(tmp_path, "a", PAIRS[:12]), write_pairs(tmp_path, "b", PAIRS[12:])
    train = [{"src": str(a_src), "tgt": str(a_tgt), "weight": 3}, {"src": str(b_src), "tgt": str(b_tgt)}]
    config, path = write_config(tmp_path, train=train, max_tokens=24, prepared_dir=str(tmp_path / "prepared"))
    prepare_config(config, config.prepared_dir, log=lambda line: None)
    torchrun(path)
    saved = load_trainer_state(list_checkpoints(Path(config.out_dir))[-1])["data"]
    tokenizer = read_tokenizer(Path(config.prepared_dir), source_eos=True)
    data = load_training_data(config, tokenizer, log=lambda line: None)
    rank_0 = data.batcher(config, rank=0, world_size=2, special_ids=(0, 2, 3))
    stream = iter(rank_0)
    for _ in range(config.max_steps):
        next(stream)
    assert saved == rank_0.state_dict() and saved["draws"] == 4
