"""A validation set that is the training data, or the training pairs swapped, warns once when a run
starts (its scores would mean nothing); Multi30k's own validation set does not."""

from pathlib import Path

import pytest
from support import PAIRS, tiny_config, write_pairs

from attnmt.text.parallel_text import read_parallel
from attnmt.train_config import TrainConfig
from attnmt.training.trainer import Trainer
from attnmt.training.validation_checks import check_validation_set, defaulted_validation_keys

SMALL = dict(eval_metric="loss", max_tokens=120, max_steps=1, eval_every=1,
             model=dict(d_model=32, n_heads=4, encoder_layers=1, decoder_layers=1, d_ff=64, max_positions=64))
OVERLAP = "are in the training data too: the validation scores measure memory"
SWAPPED = "the validation set reads as the training data with its sides swapped"


def warnings_for(tmp_path: Path, valid: list[tuple[str, str]], train: list[tuple[str, str]] = PAIRS) -> list[str]:
    valid_src, valid_tgt = write_pairs(tmp_path, "valid", valid)
    config = tiny_config(tmp_path, **SMALL, valid_src=str(valid_src), valid_tgt=str(valid_tgt))
    write_pairs(tmp_path, "train", train)
    lines: list[str] = []
    check_validation_set(config, read_parallel(valid_src, valid_tgt)[0], lines.append)
    return lines


def test_a_validation_set_of_training_pairs_warns_naming_the_share(tmp_path):
    [line] = warnings_for(tmp_path, PAIRS[:3] + [("a fish swims", "ein fisch schwimmt")])
    assert line.startswith("warning: 3 of the 4 validation pairs of 3 or more words (") and OVERLAP in line


def test_a_few_training_pairs_in_the_validation_set_do_not_warn(tmp_path):
    assert warnings_for(tmp_path, PAIRS[:1] + [("a fish swims", "ein fisch schwimmt"),
                                               ("the girl reads", "das mädchen liest")]) == []


STOCK = [("yes .", "ja ."), ("thank you .", "danke ."), ("no .", "nein ."), ("hello !", "hallo !")]


def test_stock_phrases_of_a_held_out_set_are_not_counted(tmp_path):
    """Short stock phrases are in any corpus and any held-out set: a held-out set of them warned."""
    held_out = [("a fish swims", "ein fisch schwimmt"), ("the girl reads", "das mädchen liest")]
    assert warnings_for(tmp_path, STOCK * 2 + held_out, train=PAIRS + STOCK) == []


def test_a_training_pair_given_many_times_counts_each_time(tmp_path):
    held_out = [("a fish swims", "ein fisch schwimmt"), ("the girl reads", "das mädchen liest")]
    [line] = warnings_for(tmp_path, PAIRS[:1] * 3 + held_out)
    assert line.startswith("warning: 3 of the 5 validation pairs") and OVERLAP in line


def test_only_the_first_pairs_of_a_large_corpus_are_read(tmp_path, monkeypatch):
    from attnmt.training import validation_checks

    monkeypatch.setattr(validation_checks, "MOST_PAIRS", 5)
    assert warnings_for(tmp_path, PAIRS[10:14]) == []  # pairs 10 to 13 are past the fifth
    assert len(warnings_for(tmp_path, PAIRS[:4])) == 1


def test_a_run_from_a_prepared_directory_is_not_checked(tmp_path):
    """It starts without reading the text; reading it for this check would cost what preparing saved."""
    valid_src, valid_tgt = write_pairs(tmp_path, "valid", PAIRS)
    config = tiny_config(tmp_path, **SMALL, valid_src=str(valid_src), valid_tgt=str(valid_tgt),
                         prepared_dir=str(tmp_path / "prepared"))
    lines: list[str] = []
    check_validation_set(config, PAIRS, lines.append)
    assert lines == []


def test_a_swapped_validation_set_warns_by_its_words(tmp_path):
    """Held-out pairs, swapped: none of them is a training pair; their words tell the languages."""
    [line] = warnings_for(tmp_path, [(tgt, src) for src, tgt in PAIRS[15:]], train=PAIRS[:15])
    assert SWAPPED in line and "valid.src is in the training targets' language" in line


def test_a_swapped_copy_of_the_training_pairs_warns(tmp_path):
    [line] = warnings_for(tmp_path, [(tgt, src) for src, tgt in PAIRS])
    assert SWAPPED in line


def test_a_new_run_warns_once_in_its_log_and_a_resume_does_not_again(tmp_path):
    config = tiny_config(tmp_path, **SMALL)  # validated on its training pairs
    Trainer(config, progress=False).train()
    log = Path(config.out_dir, "train.log")
    assert log.read_text().count(OVERLAP) == 1
    Trainer(tiny_config(tmp_path, **{**SMALL, "max_steps": 2}), resume=True, progress=False).train()
    assert log.read_text().count(OVERLAP) == 1


def multi30k() -> Path:
    """The Multi30k files the reference config trains on (data/multi30k, or ../shared/data/multi30k)."""
    root = Path(__file__).parents[2]
    for folder in (root / "data" / "multi30k", root.parent / "shared" / "data" / "multi30k"):
        if (folder / "val.en.gz").is_file():
            return folder
    pytest.skip("no Multi30k files here (data/multi30k)")


def test_multi30ks_own_validation_set_does_not_warn(tmp_path):
    data = multi30k()
    config = tiny_config(tmp_path, train_src=str(data / "train.en.gz"), train_tgt=str(data / "train.de.gz"),
                         valid_src=str(data / "val.en.gz"), valid_tgt=str(data / "val.de.gz"))
    lines: list[str] = []
    check_validation_set(config, read_parallel(config.valid_src, config.valid_tgt)[0], lines.append)
    assert lines == []


def test_the_default_validation_set_of_a_run_on_other_corpora_warns_naming_the_default(tmp_path):
    """A de->en corpus started in the repository was validated on Multi30k's en->de set, which the user never
    named, and warned "swap valid_src and valid_tgt", keys the user never set."""
    config = tiny_config(tmp_path, **SMALL, valid_src=TrainConfig.valid_src, valid_tgt=TrainConfig.valid_tgt)
    lines: list[str] = []
    check_validation_set(config, [(tgt, src) for src, tgt in PAIRS], lines.append)  # read as swapped
    assert lines == ["warning: valid_src and valid_tgt are left at the default, Multi30k's English-German validation "
                     "set (data/multi30k/val.en.gz, data/multi30k/val.de.gz), but the run trains on other corpora: "
                     "give your validation set in valid_src and valid_tgt"]


def test_a_run_on_multi30k_may_leave_its_validation_set_at_the_default(tmp_path):
    config = tiny_config(tmp_path, **SMALL, train_src=TrainConfig.train_src, train_tgt=TrainConfig.train_tgt,
                         valid_src=TrainConfig.valid_src, valid_tgt=TrainConfig.valid_tgt)
    assert defaulted_validation_keys(config) == []


def test_a_run_on_multi30k_written_as_another_path_may_leave_its_validation_set_at_the_default(tmp_path,
                                                                                              monkeypatch):
    """``./data/multi30k/train.en.gz`` or its absolute path is Multi30k's training set too: it was warned of as
    "other corpora" (review s41g)."""
    monkeypatch.chdir(tmp_path)
    for written in (f"./{TrainConfig.train_src}", str(tmp_path / TrainConfig.train_src)):
        config = tiny_config(tmp_path, **SMALL, train_src=written, train_tgt=f"./{TrainConfig.train_tgt}",
                             valid_src=TrainConfig.valid_src, valid_tgt=TrainConfig.valid_tgt)
        assert defaulted_validation_keys(config) == []
