"""The size warning: parameters per training pair outside 1 to 1,000 are said in one line, and the
bundled configs on their own data say nothing."""

from pathlib import Path

import pytest
from support import tiny_config

from attnmt import checkpoint as ckpt
from attnmt.train_config import load_config
from attnmt.training.sizing import LEAST_PER_PAIR, MOST_PER_PAIR, SUGGESTIONS, size_warning, suggested
from attnmt.training.trainer import Trainer

CONFIGS = Path(__file__).parents[2] / "configs"
MULTI30K_PAIRS = 29_000


def parameters_of(config_name: str, vocab_size: int = 8000) -> int:
    return load_config(CONFIGS / config_name).model_config(vocab_size).parameter_count()


def test_the_multi30k_config_on_multi30k_says_nothing():
    assert parameters_of("multi30k_en_de.yaml") == 4_651_008  # 160 a pair
    assert size_warning(parameters_of("multi30k_en_de.yaml"), MULTI30K_PAIRS) == ""


def test_the_base_config_on_multi30k_is_too_large_and_names_counts_and_a_shape():
    warning = size_warning(parameters_of("transformer_base.yaml"), MULTI30K_PAIRS)
    assert warning.startswith("warning: 48,234,496 parameters for 29,000 training pairs (1,663 a pair; over 1,000")
    assert "try d_model 192, 3+3 layers, 4 heads, d_ff 768, dropout 0.1, vocab_size 8000" in warning
    assert "\n" not in warning


def test_the_base_config_on_wmt_sized_data_says_nothing():
    assert size_warning(parameters_of("transformer_base.yaml"), 4_500_000) == ""  # 11 a pair


def test_the_multi30k_config_on_tens_of_millions_of_pairs_is_too_small():
    warning = size_warning(parameters_of("multi30k_en_de.yaml"), 20_000_000)
    assert warning.startswith("warning: 4,651,008 parameters for 20,000,000 training pairs (0.23 a pair; under 1")
    assert "try d_model 1024, 6+6 layers, 16 heads" in warning and "distilled student" in warning


@pytest.mark.parametrize("pairs, expected", [(1_000, ""), (1_000_000, ""), (999, "too large"), (1_000_001, "small")])
def test_the_bounds_are_one_and_a_thousand_parameters_a_pair(pairs, expected):
    warning = size_warning(1_000_000, pairs)
    assert (warning == "") == (expected == "")
    assert expected != "too large" or "over 1,000 a pair" in warning
    assert expected != "small" or "under 1 a pair" in warning


def test_no_pairs_known_says_nothing():
    assert size_warning(7_577_600, 0) == ""


def test_each_suggested_shape_suits_every_corpus_size_it_is_suggested_for():
    # From 5,000 pairs (below that the docs advise fine-tuning) to 200M pairs.
    lower = 5_000
    for suggestion in SUGGESTIONS:
        upper = min(suggestion.most_pairs, 200_000_000)
        for pairs in (lower, upper):
            assert suggested(pairs) is suggestion
            per_pair = suggestion.model_config().parameter_count() / pairs
            assert LEAST_PER_PAIR <= per_pair <= MOST_PER_PAIR, (suggestion, pairs)
        lower = upper + 1


def test_a_new_run_too_large_for_its_corpus_says_so_in_its_log_and_trains_on(tmp_path):
    config = tiny_config(tmp_path / "new", max_steps=1, eval_every=1, eval_metric="loss")  # 172,608 for 20 pairs
    result = Trainer(config, progress=False).train()
    log = (Path(config.out_dir) / "train.log").read_text()
    assert result.step == 1
    assert "warning: 172,608 parameters for 20 training pairs (8,630 a pair; over 1,000" in log
    assert sum("training pairs" in line for line in log.splitlines()) == 1


def test_a_run_that_suits_its_corpus_says_nothing(tmp_path):
    small = dict(d_model=16, n_heads=2, encoder_layers=1, decoder_layers=1, d_ff=32, max_positions=64)
    trainer = Trainer(tiny_config(tmp_path, model=small), progress=False)  # 6,864 parameters for 20 pairs
    assert trainer.model.config.parameter_count() / 20 <= MOST_PER_PAIR
    assert not any("training pairs" in line for line in trainer.log.pending)


def test_fine_tuning_is_not_checked(tmp_path):
    first = Trainer(tiny_config(tmp_path / "first"), progress=False)
    assert any("training pairs" in line for line in first.log.pending)
    ckpt.save_weights(first.model, first.dir / ckpt.WEIGHTS)  # a model directory, untrained
    tuned = Trainer(tiny_config(tmp_path / "tuned", init_from=str(first.dir)), progress=False)
    assert not any("training pairs" in line for line in tuned.log.pending)


def test_a_resumed_fine_tuning_is_not_checked_either(tmp_path):
    first = Trainer(tiny_config(tmp_path / "first"), progress=False)
    ckpt.save_weights(first.model, first.dir / ckpt.WEIGHTS)
    config = tiny_config(tmp_path / "tuned", init_from=str(first.dir), max_steps=1, eval_every=1, eval_metric="loss")
    Trainer(config, progress=False).train()
    resumed = Trainer(config, resume=True, progress=False)  # its weights come from its checkpoint, not init_from
    assert not any("training pairs" in line for line in resumed.log.pending)


def test_a_corpus_too_small_for_any_shape_is_pointed_to_fine_tuning_not_to_a_shape():
    warning = size_warning(parameters_of("multi30k_en_de.yaml"), 5)
    assert warning.startswith("warning: 4,651,008 parameters for 5 training pairs (930,202 a pair; over 1,000")
    assert "fine-tune a trained model (init_from), or gather more pairs: no shape suits so few" in warning
    assert "try d_model" not in warning
